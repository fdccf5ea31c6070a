// Contestants that are broken on purpose. They are never in a default run: the tests
// name them, and the app lists them only when its URL has `?faults`, to show that a
// hash which throws, lies, hangs or eats memory is reported and stopped while the rest
// of the run carries on.

import { blake3 } from '@noble/hashes/blake3.js';
import type { Contestant, ContestantHasher } from './contestant.ts';

const inNode = typeof globalThis.process?.versions?.node === 'string';

function fault(id: string, title: string, hash: ContestantHasher['hash']): Contestant {
  return {
    id,
    title,
    kind: 'peer',
    oracle: 'blake3',
    version: 'deliberate fault',
    files: [],
    load: async () => ({ hash }),
  };
}

/** Holds what fault-oom allocated, so nothing can be collected. */
const hoard: unknown[] = [];

function exhaustMemory(): never {
  if (inNode) {
    // The runner gives each worker thread a heap limit, so this ends the thread
    // (ERR_WORKER_OUT_OF_MEMORY), not the process.
    for (;;) hoard.push(new Array(100_000).fill(Math.random()));
  }
  // In a browser an exhausted JavaScript heap takes the whole tab down, worker or not,
  // and no page can catch that. Array buffers live outside that heap: asking for them
  // until the engine refuses shows the same failure as a RangeError the runner reports.
  for (;;) hoard.push(new Uint8Array(1 << 30));
}

export const FAULTS: Contestant[] = [
  fault('fault-throws', 'Fault: throws', () => {
    throw new Error('deliberate failure: this contestant always throws');
  }),
  fault('fault-wrong-digest', 'Fault: wrong digest', (input) => {
    // Fast and wrong: one flipped bit must be enough to refuse timing it.
    const digest = blake3(input);
    digest[0] ^= 1;
    return digest;
  }),
  fault('fault-hangs', 'Fault: hangs', () => {
    for (;;) {
      // Never returns; only terminating the worker stops it.
    }
  }),
  fault('fault-oom', 'Fault: runs out of memory', () => exhaustMemory()),
];
