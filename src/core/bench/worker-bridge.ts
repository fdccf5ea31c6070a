// The coordinator's side of its workers: which worker serves which contestant, the one
// spare started ahead (it probes the clock, then serves the first contestant), and every
// call raced against its time-out, the worker's death and the user's cancel. A worker
// that is let go is terminated at once; close() ends every one still running.

import type { BenchCore } from './core-protocol.ts';
import { CallTimeout, Cancelled, WorkerDied, callWorker, type WorkerHandle } from './worker-handle.ts';
import { formatDuration } from '../units.ts';

/** Rejects with Cancelled once `signal` aborts (at once if it already has); never resolves. */
function whenAborted(signal: AbortSignal | undefined): Promise<never> {
  const aborted = new Promise<never>((_, reject) => {
    if (!signal) return;
    if (signal.aborted) reject(new Cancelled());
    signal.addEventListener('abort', () => reject(new Cancelled()), { once: true });
  });
  aborted.catch(() => {});
  return aborted;
}

/** Why a call went wrong, as a sentence; Cancelled propagates. */
export function explainCallError(error: unknown, what: string): string {
  if (error instanceof Cancelled) throw error;
  if (error instanceof CallTimeout) return `${what} did not finish within ${formatDuration(error.ms)}: it hangs (its worker was stopped)`;
  if (error instanceof WorkerDied) return `its worker died ${what === 'loading' ? 'while loading' : `during ${what}`}: ${error.message}`;
  return `${what} failed: ${error instanceof Error ? error.message : String(error)}`;
}

export class WorkerBridge {
  private readonly aborted: Promise<never>;
  private readonly live = new Set<WorkerHandle>();
  private readonly serving = new Map<string, WorkerHandle>();
  private spare: WorkerHandle | undefined;

  constructor(
    private readonly spawnWorker: () => WorkerHandle,
    signal: AbortSignal | undefined,
  ) {
    this.aborted = whenAborted(signal);
  }

  private spawn(): WorkerHandle {
    const handle = this.spawnWorker();
    this.live.add(handle);
    handle.exited.catch(() => {});
    return handle;
  }

  /** Starts the spare worker now, so the first contestant's worker is already up. */
  startSpare(): WorkerHandle {
    this.spare ??= this.spawn();
    return this.spare;
  }

  /** The worker serving contestant `id`, if it has one. */
  workerOf(id: string): WorkerHandle | undefined {
    return this.serving.get(id);
  }

  /** Gives contestant `id` a worker of its own: the spare if there is one, else a fresh one. */
  assign(id: string): WorkerHandle {
    const handle = this.spare ?? this.spawn();
    this.spare = undefined;
    this.serving.set(id, handle);
    return handle;
  }

  /** Terminates the worker serving `id`; its next call needs a fresh one. */
  release(id: string): void {
    const handle = this.serving.get(id);
    this.serving.delete(id);
    if (!handle) return;
    handle.terminate();
    this.live.delete(handle);
  }

  call<T>(handle: WorkerHandle, work: (core: BenchCore) => Promise<T>, timeoutMs: number): Promise<T> {
    return callWorker(handle, work, timeoutMs, this.aborted);
  }

  /** Terminates every worker still running. */
  close(): void {
    for (const handle of this.live) handle.terminate();
    this.live.clear();
    this.serving.clear();
    this.spare = undefined;
  }
}
