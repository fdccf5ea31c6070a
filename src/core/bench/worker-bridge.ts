// The coordinator's side of its workers: which worker serves which contestant, the one
// spare started ahead (it probes the clock, then serves the first contestant), and every
// call made under its time limit and the user's cancel (src/core/worker.ts). A worker
// that is let go is stopped at once; close() ends every one still running.

import type { BenchCore } from './core-protocol.ts';
import { CallTimeout, Cancelled, WorkerDied, type StartedWorker } from '../worker.ts';
import type { Remote } from 'comlink';
import { formatDuration } from '../format.ts';

type BenchWorker = StartedWorker<BenchCore>;

/** Why a call went wrong, as a sentence; Cancelled propagates. */
export function explainCallError(error: unknown, what: string): string {
  if (error instanceof Cancelled) throw error;
  if (error instanceof CallTimeout) return `${what} did not finish within ${formatDuration(error.ms)}: it hangs (its worker was stopped)`;
  if (error instanceof WorkerDied) return `its worker died ${what === 'loading' ? 'while loading' : `during ${what}`}: ${error.message}`;
  return `${what} failed: ${error instanceof Error ? error.message : String(error)}`;
}

export class WorkerBridge {
  private readonly live = new Set<BenchWorker>();
  private readonly serving = new Map<string, BenchWorker>();
  private spare: BenchWorker | undefined;

  constructor(
    private readonly startWorker: () => BenchWorker,
    private readonly signal: AbortSignal | undefined,
  ) {}

  private start(): BenchWorker {
    const worker = this.startWorker();
    this.live.add(worker);
    return worker;
  }

  /** Starts the spare worker now, so the first contestant's worker is already up. */
  startSpare(): BenchWorker {
    this.spare ??= this.start();
    return this.spare;
  }

  /** The worker serving contestant `id`, if it has one. */
  workerOf(id: string): BenchWorker | undefined {
    return this.serving.get(id);
  }

  /** Gives contestant `id` a worker of its own: the spare if there is one, else a fresh one. */
  assign(id: string): BenchWorker {
    const worker = this.spare ?? this.start();
    this.spare = undefined;
    this.serving.set(id, worker);
    return worker;
  }

  /** Stops the worker serving `id`; its next call needs a fresh one. */
  release(id: string): void {
    const worker = this.serving.get(id);
    this.serving.delete(id);
    if (!worker) return;
    worker.stop();
    this.live.delete(worker);
  }

  call<P extends Promise<unknown>>(worker: BenchWorker, work: (core: Remote<BenchCore>) => P, timeoutMs: number): Promise<Awaited<P>> {
    return worker.call(work, { timeoutMs, signal: this.signal });
  }

  /** Stops every worker still running. */
  close(): void {
    for (const worker of this.live) worker.stop();
    this.live.clear();
    this.serving.clear();
    this.spare = undefined;
  }
}
