// The benchmark in Node: the coordinator on the main thread, each contestant in its own
// worker thread running the shared core (workers/bench.node-worker.ts) through comlink's
// Node adapter. Used by `npm run bench` and the unit tests; run it under tsx.

import { Worker } from 'node:worker_threads';
import { availableParallelism, arch, type as osType } from 'node:os';
import { wrap } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { BenchCore } from '../core/bench/core-protocol.ts';
import { detectCapabilities } from '../core/bench/capabilities.ts';
import { runBenchmark, type HostInfo, type Progress, type RunOptions } from '../core/bench/runner.ts';
import { WorkerDied, startedWorker, type StartedWorker } from '../core/worker.ts';
import type { BenchPlan } from '../core/bench/plan.ts';
import type { Results } from '../core/bench/results.ts';

/**
 * Heap limit of one worker thread. A hash needs a few MiB; the limit is what turns a
 * contestant that allocates without end into a dead thread (ERR_WORKER_OUT_OF_MEMORY)
 * instead of a dead process.
 */
export const WORKER_HEAP_MB = 256;

const WORKER_ENTRY = new URL('../../workers/bench.node-worker.mjs', import.meta.url);

export function startNodeWorker(): StartedWorker<BenchCore> {
  const worker = new Worker(WORKER_ENTRY, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  // A worker thread keeps Node running; the coordinator decides when it ends.
  let stopping = false;
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', (error: Error & { code?: string }) => {
      const text = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it ran out of memory (${error.message})` : error.message;
      reject(new WorkerDied(text));
    });
    worker.once('exit', (code) => {
      if (!stopping) reject(new WorkerDied(`its worker thread exited with code ${code}`));
    });
  });
  return startedWorker(wrap<BenchCore>(nodeEndpoint(worker)), failed, () => {
    stopping = true;
    void worker.terminate();
  });
}

export function nodeHost(label?: string): HostInfo {
  const os = `${osType() === 'Darwin' ? 'macOS' : osType()} ${arch()}`;
  return {
    runtime: 'node',
    runtimeVersion: `Node ${process.versions.node}`,
    userAgent: `Node.js/${process.versions.node} (${process.platform}; ${arch()}) V8/${process.versions.v8}`,
    os,
    cores: availableParallelism(),
    ...(label ? { label } : {}),
  };
}

export interface BenchCallbacks {
  onProgress?: (progress: Progress) => void;
  onResult?: (partial: Results) => void;
}

/** Same shape as the browser's startBenchmark: the results promise and a cancel. */
export function startNodeBenchmark(
  plan: BenchPlan,
  callbacks: BenchCallbacks = {},
  tuning: Pick<RunOptions, 'timeouts' | 'warmupMs'> & { label?: string } = {},
): { done: Promise<Results>; cancel(): void } {
  const controller = new AbortController();
  const done = runBenchmark({
    plan,
    host: nodeHost(tuning.label),
    capabilities: detectCapabilities(),
    startWorker: startNodeWorker,
    signal: controller.signal,
    onProgress: callbacks.onProgress,
    onResult: callbacks.onResult,
    timeouts: tuning.timeouts,
    warmupMs: tuning.warmupMs,
  });
  return { done, cancel: () => controller.abort() };
}
