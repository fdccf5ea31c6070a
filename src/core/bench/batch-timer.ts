// The timed loop of a bench worker, the only code that runs while the clock does: `n`
// hashes of one input, back to back, each digest folded into a sink. Code a learner typed
// (the playground's sandbox) is timed on an input that changes before every call instead
// (variedBatchTimer), so a draft that keeps the digests of inputs it has seen, or returns
// early on a repeated input, gives wrong digests, which are checked after the clock stops.

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
  /**
   * On a varied input: the calls to check (one drawn at random, and the last), by their
   * number, with the digest each returned; the input of call `call` is markCall's.
   */
  checks?: { call: number; digest: unknown }[];
}

/** Taken before any learner's code runs, so a draft that replaces Math.random cannot choose the call checked. */
const random = Math.random;

/**
 * Makes `input` the input of timed call number `call`: the call's number in its first four
 * bytes and, turned, in its last four, so every call hashes an input never seen before and
 * a cache keyed on either end misses. What it writes depends on `call` alone, so the input
 * of any call is remade from the original bytes.
 */
export function markCall(input: Uint8Array, call: number): void {
  const last = input.length - 1;
  for (let b = 0; b < Math.min(4, input.length); b++) {
    const byte = (call >>> (8 * b)) & 255;
    input[b] = byte;
    input[last - b] = byte ^ 0x5a;
  }
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

// The same two loops on a varied input: call `first + i` hashes markCall's input; the
// digest of call `pick` is copied (a draft may hand back one buffer every time).
function hashVariedSync(h: ContestantHasher, input: Uint8Array, n: number, first: number, pick: number): { digest: Uint8Array; picked: unknown } {
  let digest!: Uint8Array;
  let picked: unknown;
  for (let i = 0; i < n; i++) {
    markCall(input, first + i);
    digest = h.hash(input) as Uint8Array;
    sink ^= digest[i & 31];
    if (i === pick) picked = copyOf(digest);
  }
  return { digest, picked };
}

async function hashVariedAsync(h: ContestantHasher, input: Uint8Array, n: number, first: number, pick: number): Promise<{ digest: Uint8Array; picked: unknown }> {
  let digest!: Uint8Array;
  let picked: unknown;
  for (let i = 0; i < n; i++) {
    markCall(input, first + i);
    digest = await h.hash(input);
    sink ^= digest[i & 31];
    if (i === pick) picked = copyOf(digest);
  }
  return { digest, picked };
}

function copyOf(digest: unknown): unknown {
  return digest instanceof Uint8Array ? digest.slice() : digest;
}

/**
 * Times `n` hashes by `hasher` of an input that changes before every call (markCall), and
 * numbers the calls on from one batch to the next, so no input repeats in a worker's life.
 */
export function variedBatchTimer(hasher: ContestantHasher, isAsync: boolean, now: () => number): (input: Uint8Array, n: number) => Promise<Batch> {
  let calls = 0;
  return async (input, n) => {
    const first = calls;
    calls += n;
    const pick = Math.floor(random() * n);
    const start = now();
    const { digest, picked } = isAsync ? await hashVariedAsync(hasher, input, n, first, pick) : hashVariedSync(hasher, input, n, first, pick);
    const ms = now() - start;
    const checks = [{ call: first + pick, digest: picked }];
    if (pick !== n - 1) checks.push({ call: first + n - 1, digest: copyOf(digest) });
    return { ms, digest, checks };
  };
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
