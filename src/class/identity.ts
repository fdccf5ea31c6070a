// What this browser remembers about a class, in localStorage and nowhere else: the
// teacher's secret token for the classes it started, and the student's id and token for
// the classes it joined (so a reload, or a rerun, is the same machine on the board).
import type { Student } from './api.ts';

const teacherKey = (code: string) => `blake3-lab:class:${code}:teacher`;
const studentKey = (code: string) => `blake3-lab:class:${code}:student`;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage disabled: the identity lasts as long as the page.
  }
}

export function teacherToken(code: string): string | null {
  return read(teacherKey(code));
}

export function rememberTeacher(code: string, token: string): void {
  write(teacherKey(code), token);
}

export function savedStudent(code: string): Student | null {
  try {
    const value = JSON.parse(read(studentKey(code)) ?? 'null');
    return typeof value?.id === 'string' && typeof value?.token === 'string' && typeof value?.nickname === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function rememberStudent(code: string, student: Student): void {
  write(studentKey(code), JSON.stringify({ id: student.id, token: student.token, nickname: student.nickname }));
}
