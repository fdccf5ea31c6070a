// The browser's bench worker: the shared core behind comlink. Started by
// src/app/ui/run/browser.ts, one worker per contestant, so one contestant's failure (or its
// JIT history) never touches another's.
import { expose } from 'comlink';
import { createBenchCore } from '../src/core/bench/bench-core.ts';
import { contestantById } from '../src/core/bench/contestants.ts';

// Stage sources as text, each loaded only when a version is asked for: a stage's
// version is a hash of its files, the same one Node computes from disk.
const sources = import.meta.glob<string>('../steps/*/*.ts', { query: '?raw', import: 'default' });

async function readSource(path: string): Promise<string> {
  const load = sources[`../${path}`];
  if (!load) throw new Error(`${path} is not part of this build`);
  return load();
}

const core = createBenchCore({ resolve: contestantById, readSource });

expose(core);

export type BenchWorkerApi = typeof core;
