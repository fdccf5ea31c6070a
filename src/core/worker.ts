// One worker as its caller sees it, whatever started it (a page's Web Worker, a Node
// worker thread, a worker in the playground's sandbox), and the one way to call it. Every
// call races its answer against a time limit, the worker's death and an abort signal: a
// contestant that hangs never answers, one that exhausts memory takes its worker down
// mid-call, and the user may cancel, so no caller is left waiting forever.

import type { Remote } from 'comlink';

/** A call that did not come back in time. */
export class CallTimeout extends Error {
  constructor(
    readonly ms: number,
    message = `no answer within ${ms} ms`,
  ) {
    super(message);
  }
}

/** The worker ended without being asked to. */
export class WorkerDied extends Error {}

/** The caller's signal aborted: the user cancelled. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** What may end a call before its answer; none of them means it may take as long as it takes. */
export interface CallLimits {
  /** No answer within this long rejects with CallTimeout. */
  timeoutMs?: number;
  /** Aborting rejects with Cancelled (at once if it already has aborted). */
  signal?: AbortSignal;
  /** The CallTimeout's message, for a caller that shows it as it is. */
  late?: string;
}

/** A started worker: its API through comlink, how it ends, and how to call it. */
export interface StartedWorker<Api> {
  api: Remote<Api>;
  /** Rejects with WorkerDied when the worker cannot go on (its script did not load, it crashed); never resolves. */
  failed: Promise<never>;
  /** Stops the worker at once, even in the middle of a call. */
  stop(): void;
  /**
   * `work(api)`'s answer, or the first of CallTimeout, WorkerDied (from `failed`) and
   * Cancelled. The worker is not stopped: the caller decides whether it goes on. (Typed by
   * the promise `work` returns, since comlink makes a method that answers A or B answer
   * Promise<A> | Promise<B>.)
   */
  call<P extends Promise<unknown>>(work: (api: Remote<Api>) => P, limits?: CallLimits): Promise<Awaited<P>>;
}

/** Gives a worker's three parts, as its starter made them, the one `call`. */
export function startedWorker<Api>(api: Remote<Api>, failed: Promise<never>, stop: () => void): StartedWorker<Api> {
  failed.catch(() => {}); // read by the calls' races; not an unhandled rejection meanwhile
  return {
    api,
    failed,
    stop,
    async call<P extends Promise<unknown>>(work: (api: Remote<Api>) => P, { timeoutMs, signal, late }: CallLimits = {}): Promise<Awaited<P>> {
      if (signal?.aborted) throw new Cancelled();
      let timer: ReturnType<typeof setTimeout> | undefined;
      let cancel = () => {};
      const limits = new Promise<never>((_, reject) => {
        if (timeoutMs !== undefined) timer = setTimeout(() => reject(new CallTimeout(timeoutMs, late)), timeoutMs);
        cancel = () => reject(new Cancelled());
        signal?.addEventListener('abort', cancel, { once: true });
      });
      try {
        const answer = work(api);
        // The losers of the race may settle later (a late answer); nobody waits for them.
        answer.catch(() => {});
        return await Promise.race([answer, limits, failed]);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
      }
    },
  };
}
