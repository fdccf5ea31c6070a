// The other core of `npm run bench:cores`: hashes its own copy of the input with stage 10,
// nonstop while word 0 of the shared control is 1, counting finished hashes in word 1.
// Node 20 does not apply `--import tsx` to a worker's entry file, so the thread registers
// tsx itself before it imports the TypeScript stage.
import { register } from 'tsx/esm/api';
import { parentPort, workerData } from 'node:worker_threads';

register();
const { hash } = await import('../steps/10-simd-one-block/blake3.ts');
const { size, control } = workerData;
const input = new Uint8Array(size);
for (let i = 0; i < size; i++) input[i] = (i * 7) % 251;
hash(input);
parentPort.postMessage('ready');
for (;;) {
  Atomics.wait(control, 0, 0);
  while (Atomics.load(control, 0) === 1) {
    hash(input);
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
}
