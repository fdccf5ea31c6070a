// One bench worker as the coordinator sees it, whatever runs it (a browser Web Worker or
// a Node worker thread), and the one way to call it: every call is raced against a
// time-out, the worker's death and the user's cancel, because a contestant that hangs
// never answers and one that exhausts memory takes its worker down mid-call.

import type { Remote } from 'comlink';
import type { BenchCore } from './core-protocol.ts';

/** A worker as the app starts it (src/app/ui/run/start-worker.ts): its API through comlink, and how it ends. */
export interface StartedWorker<Api> {
  api: Remote<Api>;
  /** Rejects with WorkerDied when the worker cannot go on (its script did not load, it crashed); never resolves. */
  failed: Promise<never>;
  /** Stops the worker at once, even in the middle of a call. */
  stop(): void;
}

export interface WorkerHandle {
  /** The worker's core; through comlink every method returns a promise. */
  core: BenchCore;
  /** Rejects with WorkerDied when the worker stops on its own (crash, out of memory). */
  exited: Promise<never>;
  /** Stops the worker at once, even in the middle of a hash. */
  terminate(): void;
}

/** A call that did not come back in time. */
export class CallTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** The worker ended without being asked to. */
export class WorkerDied extends Error {}

/** The user cancelled the run. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export async function callWorker<T>(handle: WorkerHandle, work: (core: BenchCore) => Promise<T>, timeoutMs: number, aborted: Promise<never>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallTimeout(timeoutMs)), timeoutMs);
  });
  const answer = work(handle.core);
  // The losing promises of the race may settle later; nobody waits for them.
  answer.catch(() => {});
  try {
    return await Promise.race([answer, timeout, handle.exited, aborted]);
  } finally {
    clearTimeout(timer);
  }
}
