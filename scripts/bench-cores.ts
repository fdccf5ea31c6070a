// How much can a second thread gain on this machine, and how much of it does stage 11 get?
//
//   npm run bench:cores                          16 MiB, 15 rounds
//   npm run bench:cores -- --size 4MiB --rounds 25
//
// Stage 11 splits one hash over this thread and a pool worker. Two threads are at most 2x
// one, and a real machine gives less even to work that shares nothing: the two cores share
// caches, memory bandwidth and a power budget (and, on a virtual machine, a host). This
// measures that ceiling directly, then stage 11 against it, in Node worker threads:
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

import { Worker } from 'node:worker_threads';
import { formatSize, parseSize } from '../src/bench/plan.ts';
import { summarize } from '../src/stats/median.ts';
import * as stage10 from '../steps/10-simd-one-block/blake3.ts';
import * as stage11 from '../steps/11-every-core/blake3.ts';

interface Options {
  size: number;
  rounds: number;
}

function parseArgs(args: string[]): Options {
  const options: Options = { size: 16 * 1024 * 1024, rounds: 15 };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--size') options.size = parseSize(value);
    else if (flag === '--rounds') {
      options.rounds = Number(value);
      if (!Number.isInteger(options.rounds) || options.rounds < 6) throw new Error(`--rounds must be a whole number, at least 6 (for a confidence interval); got "${value}"`);
    } else throw new Error(`unknown flag ${flag}; the flags are --size and --rounds`);
  }
  if (options.size < stage11.CALIBRATION_SIZES[0]) {
    throw new Error(`--size must be at least ${formatSize(stage11.CALIBRATION_SIZES[0])}, the smallest input stage 11 ever hashes on its pool`);
  }
  return options;
}

/** Word 0: 1 while the other thread should hash; word 1: hashes it has finished. */
const BUSY = 0;
const HASHED = 1;

/** A thread that hashes its own copy of a `size`-byte input with stage 10 whenever BUSY is 1. */
async function startOtherCore(size: number, control: Int32Array): Promise<Worker> {
  const worker = new Worker(new URL('./bench-cores.worker.mjs', import.meta.url), { workerData: { size, control } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return worker;
}

/** Milliseconds per hash of `input` by `hash`, over enough calls to take about 100 ms. */
function timePerHash(hash: (input: Uint8Array) => Uint8Array, input: Uint8Array, calls: number): number {
  const start = performance.now();
  for (let i = 0; i < calls; i++) hash(input);
  return (performance.now() - start) / calls;
}

function describe(label: string, ratios: number[]): string {
  const { center, lo, hi } = summarize(ratios);
  return `${label.padEnd(54)} ${center.toFixed(2)}x  (95% interval ${lo.toFixed(2)}x to ${hi.toFixed(2)}x)`;
}

async function main(): Promise<void> {
  const { size, rounds } = parseArgs(process.argv.slice(2));
  // The pool takes this size whatever the crossover start() would measure: the split is what is measured here.
  await stage11.start({ workers: 1, minBytes: size });
  const use = stage11.threadUse();
  if (use.fallback) throw new Error(`stage 11 cannot use its pool here: ${use.fallback}`);

  const input = new Uint8Array(size);
  for (let i = 0; i < size; i++) input[i] = i % 251;
  const control = new Int32Array(new SharedArrayBuffer(8));
  const other = await startOtherCore(size, control);

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

  // Warm up every path, and pick how many calls make about 100 ms.
  stage10.hash(input);
  stage11.hash(input);
  const once = timePerHash(stage10.hash, input, 3);
  const calls = Math.max(1, Math.round(100 / once));

  console.error(`bench:cores: ${formatSize(size)}, ${rounds} rounds of ${calls} hashes each way, Node ${process.versions.node}`);
  const ceiling: number[] = [];
  const speedup: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const measure = [alone, together, pooled];
    const order = [0, 1, 2].map((k) => (k + round) % 3);
    const ms: number[] = [];
    for (const k of order) ms[k] = measure[k]();
    ceiling.push((2 * ms[0]) / ms[1]);
    speedup.push(ms[0] / ms[2]);
  }
  await other.terminate();
  stage11.stop();

  const share = speedup.map((s, i) => s / ceiling[i]);
  console.log(`${formatSize(size)}, this thread and one more (stage 10 alone = 1x):`);
  console.log(describe('two independent hashes at once (the ceiling)', ceiling));
  console.log(describe('stage 11: one hash split over the two threads', speedup));
  console.log(`stage 11 gets ${(summarize(share).center * 100).toFixed(0)}% of the ceiling (median of the rounds)`);
}

main().catch((error: unknown) => {
  console.error(`bench:cores: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
