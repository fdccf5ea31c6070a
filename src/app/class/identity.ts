// What this browser remembers about a class, in localStorage and nowhere else: the host's
// key if it opened the teacher's link (what starting a class takes), the teacher's secret
// token for the classes it started, and the student's id and token for the classes it
// joined (so a reload, or a rerun, is the same machine on the board).
import type { Student } from './api.ts';

const HOST_KEY = 'blake3-lab:class:host';
const teacherKey = (code: string) => `blake3-lab:class:${code}:teacher`;
const teacherTicketKey = (code: string) => `blake3-lab:class:${code}:teacher-ticket`;
const studentKey = (code: string) => `blake3-lab:class:${code}:student`;
const STUDENT_KEY = /^blake3-lab:class:([A-Z2-9]+):student$/;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key) ?? inPage.get(key) ?? null;
  } catch {
    return inPage.get(key) ?? null;
  }
}

/** The value as it is now, if storage is disabled: the identity then lasts as long as the page. */
const inPage = new Map<string, string>();

function write(key: string, value: string | null): void {
  if (value === null) inPage.delete(key);
  else inPage.set(key, value);
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage disabled: kept in `inPage` only.
  }
}

export function hostKey(): string | null {
  return read(HOST_KEY);
}

/** Keeps the host's key, or forgets it (null) when the server no longer takes it. */
export function rememberHost(key: string | null): void {
  write(HOST_KEY, key);
}

export function teacherToken(code: string): string | null {
  return read(teacherKey(code));
}

/** The teacher's event-stream ticket (its live board always has a place); null for a browser that kept only the token. */
export function teacherTicket(code: string): string | null {
  return read(teacherTicketKey(code));
}

export function rememberTeacher(code: string, token: string, ticket: string): void {
  write(teacherKey(code), token);
  write(teacherTicketKey(code), ticket);
}

export function savedStudent(code: string): Student | null {
  try {
    const value = JSON.parse(read(studentKey(code)) ?? 'null');
    if (typeof value?.id !== 'string' || typeof value?.token !== 'string' || typeof value?.nickname !== 'string') return null;
    // Machines that joined before streams had tickets follow the board as pages that have not joined.
    return { id: value.id, token: value.token, nickname: value.nickname, ticket: typeof value.ticket === 'string' ? value.ticket : '' };
  } catch {
    return null;
  }
}

/** The codes of every class this browser joined as a machine (the exercise page looks for the one whose plan names it). */
export function joinedClasses(): string[] {
  const keys = new Set(inPage.keys());
  try {
    for (let i = 0; i < localStorage.length; i++) keys.add(localStorage.key(i) ?? '');
  } catch {
    // Storage disabled: only what this page joined.
  }
  return [...keys].flatMap((key) => STUDENT_KEY.exec(key)?.[1] ?? []).filter((code) => savedStudent(code) !== null);
}

/** Forgets this browser's machine in a class (the teacher removed it). */
export function forgetStudent(code: string): void {
  write(studentKey(code), null);
}

export function rememberStudent(code: string, student: Student): void {
  write(studentKey(code), JSON.stringify({ id: student.id, token: student.token, nickname: student.nickname, ticket: student.ticket }));
}
