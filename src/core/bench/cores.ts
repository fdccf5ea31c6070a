// How much can a second thread gain on this machine, and how much of it does stage 11 get?
// The measurement behind `npm run bench:cores`, the same in Node worker threads and in a
// browser's Web Workers; only starting the other thread differs, and the caller brings it.
//
// Stage 11 splits one hash over this thread and a pool worker. Two threads are at most 2x
// one, and a real machine gives less even to work that shares nothing: the two cores share
// caches, memory bandwidth and a power budget (and, on a virtual machine, a host). This
// measures that ceiling directly, then stage 11 against it:
//
//   alone     stage 10 hashes the input on this thread, the other core idle;
//   together  the same, while another thread hashes its own copy nonstop: two independent
//             hashes, nothing shared, nothing copied, no merge (the most any split can reach
//             is 2 x alone / together);
//   stage 11  the same input on this thread and one pool worker.
//
// The three are timed back to back in each round, in an order that rotates from round to
// round, and each round gives its own ratios: noise that lasts seconds then hits all three
// alike. The ratios' medians come with a 95% confidence interval, as the bench gives.

import { summarize } from '../stats/median.ts';
import { formatSize } from '../format.ts';
import { patternInput } from '../vectors.ts';
import * as stage10 from '../../../steps/10-simd-one-block/blake3.ts';
import * as stage11 from '../../../steps/11-every-core/blake3.ts';

/** Word 0 of the control: 1 while the other thread should hash; word 1: hashes it has finished. */
const BUSY = 0;
const HASHED = 1;

export interface CoresOptions {
  size: number;
  rounds: number;
  /** The input in a SharedArrayBuffer, so stage 11's workers copy their own pieces (see BenchPlan.sharedInput). */
  sharedInput?: boolean;
}

export interface CoresResult extends CoresOptions {
  /** Hashes per timing: about 100 ms of stage 10. */
  calls: number;
  /** Per round: 2 x alone / together. */
  ceiling: number[];
  /** Per round: alone / stage 11. */
  speedup: number[];
  /** Where it ran: "Node 20.20.2", "Chromium 156 (V8)" or a user agent. */
  runtime: string;
}

/** Starts the other thread, which runs `otherCore` with the same size and control, and resolves once it is ready. */
export type StartOtherCore = (size: number, control: Int32Array) => Promise<{ stop(): unknown }>;

/** The smallest size worth measuring: below it stage 11 never uses its pool. */
export const MIN_CORES_SIZE = stage11.CALIBRATION_SIZES[0];
/** Rounds below this give no confidence interval. */
export const MIN_CORES_ROUNDS = 6;

/** Throws with what is wrong with the options, named as the command line's flags. */
export function checkCoresOptions({ size, rounds }: CoresOptions): void {
  if (!(Number.isInteger(size) && size >= MIN_CORES_SIZE)) {
    throw new RangeError(`--size must be at least ${formatSize(MIN_CORES_SIZE)}, the smallest input stage 11 ever hashes on its pool`);
  }
  if (!(Number.isInteger(rounds) && rounds >= MIN_CORES_ROUNDS)) {
    throw new RangeError(`--rounds must be a whole number, at least ${MIN_CORES_ROUNDS} (for a confidence interval); got "${rounds}"`);
  }
}

/**
 * The other thread's whole life: hashes its own copy of a `size`-byte input with stage 10,
 * nonstop while word 0 of `control` is 1, counting finished hashes in word 1. Calls
 * `ready` once set up; never returns.
 */
export function otherCore(size: number, control: Int32Array, ready: () => void): never {
  const input = new Uint8Array(size);
  for (let i = 0; i < size; i++) input[i] = (i * 7) % 251;
  stage10.hash(input);
  ready();
  for (;;) {
    Atomics.wait(control, BUSY, 0);
    while (Atomics.load(control, BUSY) === 1) {
      stage10.hash(input);
      Atomics.add(control, HASHED, 1);
      Atomics.notify(control, HASHED);
    }
  }
}

/** Milliseconds per hash of `input` by `hash`, over `calls` calls. */
function timePerHash(hash: (input: Uint8Array) => Uint8Array, input: Uint8Array, calls: number): number {
  const start = performance.now();
  for (let i = 0; i < calls; i++) hash(input);
  return (performance.now() - start) / calls;
}

/** Runs the rounds on this thread (which must be allowed to wait: a worker, or Node). */
export async function measureCores(options: CoresOptions, startOtherCore: StartOtherCore, runtime: string): Promise<CoresResult> {
  checkCoresOptions(options);
  const { size, rounds, sharedInput } = options;
  // The pool takes this size whatever the crossover start() would measure: the split is what is measured here.
  await stage11.start({ workers: 1, minBytes: size });
  const use = stage11.threadUse();
  if (use.fallback) throw new Error(`stage 11 cannot use its pool here: ${use.fallback}`);

  const input = new Uint8Array(sharedInput ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
  input.set(patternInput(size));
  const control = new Int32Array(new SharedArrayBuffer(8));
  const other = await startOtherCore(size, control);
  try {
    // Warm up every path, and pick how many calls make about 100 ms.
    stage10.hash(input);
    stage11.hash(input);
    const calls = Math.max(1, Math.round(100 / timePerHash(stage10.hash, input, 3)));
    const alone = () => timePerHash(stage10.hash, input, calls);
    const together = () => {
      const before = Atomics.load(control, HASHED);
      Atomics.store(control, BUSY, 1);
      Atomics.notify(control, BUSY);
      // Start the clock only once the other thread is hashing (it has finished one hash).
      while (Atomics.load(control, HASHED) < before + 1) Atomics.wait(control, HASHED, Atomics.load(control, HASHED), 1000);
      const perHash = timePerHash(stage10.hash, input, calls);
      Atomics.store(control, BUSY, 0);
      return perHash;
    };
    const pooled = () => timePerHash(stage11.hash, input, calls);

    const ceiling: number[] = [];
    const speedup: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const measure = [alone, together, pooled];
      const ms: number[] = [];
      for (const k of [0, 1, 2].map((k) => (k + round) % 3)) ms[k] = measure[k]();
      ceiling.push((2 * ms[0]) / ms[1]);
      speedup.push(ms[0] / ms[2]);
    }
    return { ...options, calls, ceiling, speedup, runtime };
  } finally {
    await other.stop();
    stage11.stop();
  }
}

/** The report, line by line: the first says what was measured, the rest the ratios. */
export function describeCores(result: CoresResult): string[] {
  const line = (label: string, ratios: number[]) => {
    const { center, lo, hi } = summarize(ratios);
    return `${label.padEnd(54)} ${center.toFixed(2)}x  (95% interval ${lo.toFixed(2)}x to ${hi.toFixed(2)}x)`;
  };
  const share = result.speedup.map((s, i) => s / result.ceiling[i]);
  const where = result.sharedInput ? ', the input in shared memory' : '';
  return [
    `${formatSize(result.size)}, ${result.rounds} rounds of ${result.calls} hashes each way, ${result.runtime}${where}`,
    `${formatSize(result.size)}, this thread and one more (stage 10 alone = 1x):`,
    line('two independent hashes at once (the ceiling)', result.ceiling),
    line('stage 11: one hash split over the two threads', result.speedup),
    `stage 11 gets ${(summarize(share).center * 100).toFixed(0)}% of the ceiling (median of the rounds)`,
  ];
}
