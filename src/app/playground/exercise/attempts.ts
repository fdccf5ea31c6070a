// Every attempt at an exercise, kept in this browser's IndexedDB (one store, a record per
// attempt): the draft's files, what the check said, the verdict's figures, when, and in
// which browser. The exercise list reads them to show "solved", "attempted" or nothing,
// and adds the attempts of a progress file another browser exported.
import { attemptsToAdd, type Attempt } from '../../../core/exercise/progress-file.ts';

export type { Attempt };

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

/** Every attempt kept, oldest first: by time, since imported attempts are stored after newer ones. */
export async function allAttempts(): Promise<Attempt[]> {
  const db = await open();
  try {
    const attempts = (await done(db.transaction(STORE).objectStore(STORE).getAll())) as Attempt[];
    return attempts.sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  } finally {
    db.close();
  }
}

export interface Added {
  added: number;
  /** Attempts of the file this browser kept already (or the file held twice). */
  present: number;
}

/**
 * Adds the attempts this browser does not keep yet, in one transaction: the attempts kept
 * are read in it too, so a second tab importing at the same time cannot add one twice,
 * and a write that fails adds none of them.
 */
export async function addAttempts(incoming: readonly Attempt[]): Promise<Added> {
  const db = await open();
  try {
    const transaction = db.transaction(STORE, 'readwrite');
    const store = transaction.objectStore(STORE);
    const kept = store.getAll();
    let fresh: Attempt[] = [];
    kept.onsuccess = () => {
      fresh = attemptsToAdd(kept.result as Attempt[], incoming);
      for (const attempt of fresh) store.add(attempt);
    };
    await completed(transaction);
    return { added: fresh.length, present: incoming.length - fresh.length };
  } finally {
    db.close();
  }
}

/** Settles when the transaction has written everything, or when it gave up and wrote nothing. */
function completed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB gave up the import'));
  });
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
