// The self-test page's worker: src/core/bench/selftest.ts over the vector file, run where
// the benchmarks run, in a module Web Worker.
import { expose } from 'comlink';
import vectorFile from '../data/blake3-vectors.json';
import { createSelftest } from '../src/core/bench/selftest.ts';
import type { VectorFile } from '../src/core/vectors.ts';

const api = createSelftest((vectorFile as VectorFile).cases);

export type SelftestApi = typeof api;
expose(api);
