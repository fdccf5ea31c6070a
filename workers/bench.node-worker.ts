// The Node worker-thread bench worker: the shared core behind comlink's Node adapter.
// Started through bench.node-worker.mjs, which teaches the thread TypeScript first.
import { parentPort } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { createBenchCore } from '../src/core/bench/bench-core.ts';
import { contestantById } from '../src/core/bench/contestants.ts';

if (!parentPort) throw new Error('bench.node-worker.ts runs as a worker thread, started by src/node/node.ts');

const repoRoot = new URL('../', import.meta.url);

const core = createBenchCore({
  resolve: contestantById,
  readSource: (path) => readFile(new URL(path, repoRoot), 'utf8'),
});

expose(core, nodeEndpoint(parentPort));
