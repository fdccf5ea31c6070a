// The other core of `npm run bench:cores` in Node (see src/core/bench/cores.ts). Node 20 does
// not apply `--import tsx` to a worker's entry file, so the thread registers tsx itself
// before it imports TypeScript.
import { register } from 'tsx/esm/api';
import { parentPort, workerData } from 'node:worker_threads';

register();
const { otherCore } = await import('../src/core/bench/cores.ts');
otherCore(workerData.size, workerData.control, () => parentPort.postMessage('ready'));
