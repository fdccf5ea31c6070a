// The timed loop of a bench worker, the only code that runs while the clock does: `n`
// hashes of one input, back to back, each digest folded into a sink.

import type { ContestantHasher } from './contestants.ts';

/**
 * Every digest feeds this value, which goes back to the coordinator with each sample:
 * a result that is observable outside the worker cannot be optimized away by the JIT.
 */
let sink = 0;

export function currentSink(): number {
  return sink;
}

export interface Batch {
  ms: number;
  /** The last digest, checked against the oracle after the clock stopped. */
  digest: Uint8Array;
}

// Two loops, so a synchronous hash is never slowed by an await it does not need.
function hashSync(h: ContestantHasher, input: Uint8Array, n: number): Uint8Array {
  let digest!: Uint8Array;
  for (let i = 0; i < n; i++) {
    digest = h.hash(input) as Uint8Array;
    sink ^= digest[i & 31];
  }
  return digest;
}

async function hashAsync(h: ContestantHasher, input: Uint8Array, n: number): Promise<Uint8Array> {
  let digest!: Uint8Array;
  for (let i = 0; i < n; i++) {
    digest = await h.hash(input);
    sink ^= digest[i & 31];
  }
  return digest;
}

/** Times `n` hashes of `input` by `hasher`; `isAsync` says whether its hash returns a promise. */
export function batchTimer(hasher: ContestantHasher, isAsync: boolean, now: () => number): (input: Uint8Array, n: number) => Promise<Batch> {
  if (isAsync) {
    return async (input, n) => {
      const start = now();
      const digest = await hashAsync(hasher, input, n);
      return { ms: now() - start, digest };
    };
  }
  return async (input, n) => {
    const start = now();
    const digest = hashSync(hasher, input, n);
    return { ms: now() - start, digest };
  };
}
