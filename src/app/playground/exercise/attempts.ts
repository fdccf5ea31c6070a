// Every attempt at an exercise, kept in this browser's IndexedDB (one store, a record per
// attempt): the draft's files, what the check said, the verdict's figures, when, and in
// which browser. The exercise list reads them to show "solved", "attempted" or nothing.
import type { ExerciseVerdict } from '../../../core/exercise/goal.ts';

export interface Attempt {
  exercise: number;
  /** The changed files, by name. */
  files: Record<string, string>;
  check: { ok: boolean; message?: string };
  verdict: ExerciseVerdict | null;
  time: string;
  browser: string;
}

const DB = 'blake3-lab-exercises';
const STORE = 'attempts';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true });
      store.createIndex('exercise', 'exercise');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB did not open'));
  });
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB failed'));
  });
}

export async function saveAttempt(attempt: Attempt): Promise<void> {
  const db = await open();
  try {
    // Stored as plain data: Svelte's state proxies cannot be cloned into IndexedDB.
    await done(db.transaction(STORE, 'readwrite').objectStore(STORE).add(JSON.parse(JSON.stringify(attempt))));
  } finally {
    db.close();
  }
}

/** Every attempt kept, oldest first. */
export async function allAttempts(): Promise<Attempt[]> {
  const db = await open();
  try {
    return (await done(db.transaction(STORE).objectStore(STORE).getAll())) as Attempt[];
  } finally {
    db.close();
  }
}

export type Progress = 'not started' | 'attempted' | 'solved';

export function progressOf(attempts: readonly Attempt[], exercise: number): Progress {
  const mine = attempts.filter((a) => a.exercise === exercise);
  if (mine.length === 0) return 'not started';
  return mine.some((a) => a.verdict?.status === 'met') ? 'solved' : 'attempted';
}

export function browserName(): string {
  const ua = navigator.userAgent;
  return /Firefox\//.test(ua) ? 'Firefox' : /Edg\//.test(ua) ? 'Edge' : /Chrome\//.test(ua) ? 'Chromium' : /Safari\//.test(ua) ? 'Safari' : 'another browser';
}
