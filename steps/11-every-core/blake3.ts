// Stage 11: every core. Beyond the article, which stopped at one thread.
//
// Change from stage 10: a large input is hashed on several threads at once. BLAKE3's
// tree makes this possible: a complete subtree's chaining value depends only on its own
// chunks and where they sit (the chunk counter), never on anything hashed before it, so
// any thread can hash any subtree and the results only meet in the few parents at the
// top. SHA-256 cannot do this: each block's compression needs the output of the block
// before, one long chain from the first byte to the last.
//
// The input is cut into P pieces of equal size, each a complete subtree of a
// power-of-two number of chunks starting at a multiple of that number, and a tail (what
// is left after the last whole piece). Every thread works in one shared
// WebAssembly.Memory, created by start() with a pool of workers, and runs the same
// module on it: stage 10's compress4x, generated with one change (gen.ts: each thread
// passes where its own chunk counters lie). The workers take pieces from the front; the
// calling thread takes pieces from the back and hashes the tail. Then it merges the
// pieces' chaining values in tree order, left subtrees complete and as large as
// possible, ROOT on the last merge.
//
// WebAssembly reads only its memory, so every WebAssembly hash copies its input in once
// (stage 10 does it 32 KiB at a time, into its page); workers can read only shared
// memory, so here the calling thread makes that copy for every thread: the workers'
// pieces first, in order, each worker starting as soon as its first piece is there, and
// then its own, each into a staging area of its own right before it hashes it; a worker
// copies each piece once more, into its own staging (worker.ts says why). How much it
// copies for the workers first follows every thread's measured speed (split.ts). A shared
// input is not copied by the calling thread: each worker copies its own pieces from it. Below some size, starting the others costs more than it
// saves and stage 10 hashes on the calling thread alone. That size depends on the
// machine and the browser (Firefox wakes a worker more slowly than Chromium), and on
// where the input is (a copy costs), so start() measures it twice: it times one thread
// against the pool at 256 KiB, 512 KiB, 1 MiB and so on, first with an input in shared
// memory and then with an ordinary one (from the size the first search ended at: a copy
// only adds), and the first size at which the pool is faster becomes the threshold for
// each kind. Those timed hashes double as a check that the pool and one thread give the
// same digest.
//
// A busy machine sometimes takes a core away from a thread for a few milliseconds, in the
// middle of a piece. When the calling thread has nothing left to do but wait for a piece
// a worker took, it waits about as long as a piece takes it, then hashes that piece
// itself: a chaining value is the same whoever computes it, so the first one written
// counts. A worker that never finishes is still caught: the next hash on the pool throws
// once it is overdue.
//
// hash() stays synchronous: the calling thread waits for the workers with Atomics.wait,
// which browsers allow in workers (and Node on any thread) but not on a page's main
// thread. Where the pool cannot run (no SharedArrayBuffer, a page that is not
// cross-origin isolated, a browser's main thread, one core, a pool that did not start),
// every hash is stage 10's on one thread and threadUse() says why; the app shows it and
// the bench records it. A worker that dies or hangs never costs a wrong digest: the
// calling thread redoes its pieces (see above), and from the next hash on, once the
// death is seen or the time-out has passed, hash() throws with the reason.
//
// The Rust crate does the same with `update_rayon`: rayon's work-stealing pool hashes the
// two halves of each subtree in parallel (join), reading the input where it lies, and the
// caller decides from which size on that pays.

import { chooseOneBlockCode, hash as hashOneThread, hashPortable, wat as stage10Wat } from '../10-simd-one-block/blake3.ts';
import { COMPRESS4X } from './compress4x.ts';
import { Pool } from './pool.ts';
import { SplitHasher, WINDOW_BYTES, type Speeds, type SplitReport, type TimelineEvent } from './split.ts';
import { createMemory, subtreeSupported } from './subtree.ts';
import { printWat } from './wasm.ts';
import type { Fault } from './faults.ts';

// The one-thread path big-endian machines take.
export { hashPortable };
export type { Speeds, TimelineEvent };

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The sizes start() times, smallest first, to find where the pool starts to pay: the
 * first at which it beats one thread becomes the threshold. Below 256 KiB it never paid
 * on any machine we measured (in Chromium on a 2-core AMD EPYC, fastest of 25 runs: the
 * pool took 1.9x one thread's time at 256 KiB, the same at 768 KiB, 0.75x at 1 MiB). When
 * the pool wins at none of them, the threshold stays at the largest: the pool still takes
 * 16 MiB and more, where it has the most to gain, and threadUse() shows what it lost by.
 */
export const CALIBRATION_SIZES = [256 * KiB, 512 * KiB, MiB, 2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB];
/** Timed hashes each way at each size; the fastest of each counts, the least disturbed by other work. */
const CALIBRATION_RUNS = 5;
/** The pool wins at a size when its fastest hash takes at most this share of one thread's: a clear gain, not a tie. */
const CALIBRATION_WIN = 0.9;

/** The longest the pool may take to start; below the bench's 10 s for loading a contestant. */
const START_TIMEOUT_MS = 8000;

export interface PoolOptions {
  /** Pool workers besides the calling thread; default one less than the cores reported. */
  workers?: number;
  /** The smallest input hashed on several threads, shared or not; by default start() measures both thresholds. */
  minBytes?: number;
  /** The longest wait for the workers in one hash, in ms, before it throws. */
  timeoutMs?: number;
  /**
   * The pieces' size in chunks, a power of two from 4 to 1024 (tests use small ones to cut
   * short inputs at many places); by default it follows the input's size.
   */
  pieceChunks?: number;
  /** Keep a timeline of every hash on the pool (the debug path behind `npm run bench:cores -- --timeline`); see lastTimeline(). */
  timeline?: boolean;
}

/** How many threads hash an input of `minBytes` or more, and why only one, when that is so. */
export interface ThreadUse {
  threads: number;
  /** The smallest ordinary input (one the pool must copy) hashed on several threads. */
  minBytes: number;
  /** The smallest input already in a SharedArrayBuffer hashed on several threads. */
  minSharedBytes: number;
  /** Why every input is hashed on one thread; absent when the pool is running. */
  fallback?: string;
  /**
   * How the last input hashed on the pool was shared: its pieces, how many the workers
   * took, and how many of those the calling thread hashed again because their worker was slow.
   */
  lastSplit?: SplitReport;
  /** The timings start() chose minBytes from, one row per size tried; absent when minBytes was given. */
  crossover?: Crossover[];
}

/** One size start() timed: the fastest hash on the calling thread alone and on the pool. */
export interface Crossover {
  bytes: number;
  /** Whether the input was in a SharedArrayBuffer (else the pool copied it). */
  shared: boolean;
  oneThreadMs: number;
  poolMs: number;
}

let split: SplitHasher | undefined;
let fallback: string | undefined = 'the worker pool was not started (the stage starts it when it loads)';
let minBytes = CALIBRATION_SIZES[0];
let minSharedBytes = CALIBRATION_SIZES[0];
let crossover: Crossover[] | undefined;

async function reportedCores(): Promise<number> {
  if (typeof globalThis.process?.versions?.node === 'string') {
    const specifier = 'node:os'; // hidden from Vite, which must not bundle a Node module
    const { availableParallelism } = (await import(/* @vite-ignore */ specifier)) as typeof import('node:os');
    return availableParallelism();
  }
  return globalThis.navigator?.hardwareConcurrency ?? 1;
}

/** Why the pool cannot run here, or undefined when it can. */
function whyNoPool(workers: number): string | undefined {
  if (typeof SharedArrayBuffer !== 'function') {
    return 'this browser offers no SharedArrayBuffer, which the workers need to read the input';
  }
  if (globalThis.crossOriginIsolated === false) {
    return 'the page is not cross-origin isolated (COOP and COEP headers), so workers cannot share memory';
  }
  const inPageMainThread = typeof window === 'object' && typeof WorkerGlobalScope === 'undefined';
  if (inPageMainThread) {
    return "hash() runs on the page's main thread, where the browser forbids waiting (Atomics.wait); run it in a worker";
  }
  if (workers < 1) return 'this machine reports one core, so there is no other core to use';
  if (!subtreeSupported()) return 'there is no WebAssembly SIMD (or the machine is big-endian)';
  return undefined;
}

/**
 * Starts the worker pool, or restarts it with other options, and unless options.minBytes
 * is given, measures from which size on the pool pays (a few hundred ms at most).
 * Asynchronous because threads boot asynchronously; the registry's load() awaits it, so
 * hash() never waits for a thread to start. Never rejects: where the pool cannot run,
 * threadUse() says why.
 */
export async function start(options: PoolOptions = {}): Promise<void> {
  // Below its threshold this stage is stage 10 as stage 10 loads: with the one-block code
  // that times faster here. Left at stage 10's default, a 1 KiB hash took 10% longer than
  // stage 10's on the EPYC (npm run bench -- --browser --stages 10,11 --sizes 96B,1KiB).
  await chooseOneBlockCode();
  split?.pool.stop();
  split = undefined;
  crossover = undefined;
  const workers = options.workers ?? (await reportedCores()) - 1;
  minBytes = minSharedBytes = options.minBytes ?? CALIBRATION_SIZES[0];
  fallback = whyNoPool(workers);
  if (fallback) return;
  let started: SplitHasher | undefined;
  try {
    const memory = createMemory(workers + 1, WINDOW_BYTES);
    started = new SplitHasher(await Pool.start(workers, memory, START_TIMEOUT_MS), options.timeoutMs, options.pieceChunks);
    if (options.minBytes === undefined) {
      const sharedRows = await measureCrossover(started, CALIBRATION_SIZES, true);
      minSharedBytes = sharedRows[sharedRows.length - 1].bytes;
      const copiedRows = await measureCrossover(started, CALIBRATION_SIZES.filter((bytes) => bytes >= minSharedBytes), false);
      minBytes = copiedRows[copiedRows.length - 1].bytes;
      crossover = [...sharedRows, ...copiedRows];
    }
    started.lastSplit = undefined;
    started.record(options.timeline === true);
    split = started;
  } catch (error) {
    started?.pool.stop();
    fallback = `the worker pool did not start: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Whether the pool clearly beat one thread at a size start() timed. */
export function poolWon(row: Crossover): boolean {
  return row.poolMs <= CALIBRATION_WIN * row.oneThreadMs;
}

// Times one thread against the pool at each of `sizes` in turn, until the pool wins (so
// the last row is the threshold: the size it won at, or the largest): the fastest of
// CALIBRATION_RUNS hashes each way, taken alternately so that a busy moment of the
// machine falls on both. Both paths are warmed up first, and the engine gets a moment
// between sizes: a fresh module runs its first hashes in quickly compiled code while the
// optimized code is compiled in the background, on the same two cores. Throws when the
// two digests differ.
async function measureCrossover(started: SplitHasher, sizes: number[], shared: boolean): Promise<Crossover[]> {
  const largest = sizes[sizes.length - 1];
  const input = new Uint8Array(shared ? new SharedArrayBuffer(largest) : new ArrayBuffer(largest));
  for (let i = 0; i < largest; i += 64) input[i] = i / 64; // any bytes will do
  const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
  const onPool = (part: Uint8Array) => started.hash(part) ?? hashOneThread(part);
  // The warm-up hashes 4 MiB each way: enough pieces for the worker's copy of the module
  // to be compiled by the optimizing tier too, not only the calling thread's.
  for (let run = 0; run < 4; run++) {
    hashOneThread(input.subarray(0, Math.min(largest, 4 * MiB)));
    onPool(input.subarray(0, Math.min(largest, 4 * MiB)));
    await pause();
  }
  const rows: Crossover[] = [];
  for (const bytes of sizes) {
    await pause();
    const part = input.subarray(0, bytes);
    const row: Crossover = { bytes, shared, oneThreadMs: Infinity, poolMs: Infinity };
    for (let run = 0; run < CALIBRATION_RUNS; run++) {
      let begin = performance.now();
      const expected = hashOneThread(part);
      row.oneThreadMs = Math.min(row.oneThreadMs, performance.now() - begin);
      // The pool's second hash in a row is the one timed: its worker slept through the one
      // thread's hash, and waking it took 0.1 to 1.8 ms in the timelines (bench:cores
      // --timeline, the EPYC), which at 4 MiB alone made the pool lose. A run of hashes, as
      // the bench's samples and any stream of inputs, pays that once; a lone hash pays it.
      onPool(part);
      begin = performance.now();
      const actual = onPool(part);
      row.poolMs = Math.min(row.poolMs, performance.now() - begin);
      if (actual.some((byte, i) => byte !== expected[i])) {
        throw new Error(`the pool's digest of ${bytes} bytes differed from one thread's`);
      }
    }
    rows.push(row);
    if (poolWon(row)) break;
  }
  return rows;
}

/** The modules as WebAssembly text: the one every thread of the pool runs, then stage 10's. */
export function wat(): string {
  return [
    ';; On the pool, every thread runs compress4x on one shared memory: stage 10\'s four-lane',
    ";; compression, with each thread's chunk counters at $counters. Below the size from which",
    ';; the pool pays, stage 10 hashes on the calling thread with its own modules, after it.',
    '',
    printWat(COMPRESS4X),
    stage10Wat(),
  ].join('\n');
}

/** Stops the pool's workers; later hashes run on one thread until start() is called again. */
export function stop(): void {
  split?.pool.stop();
  split = undefined;
  fallback = 'the worker pool was stopped';
}

export function threadUse(): ThreadUse {
  if (!split) return { threads: 1, minBytes, minSharedBytes, fallback };
  const { lastSplit } = split;
  return { threads: split.pool.size + 1, minBytes, minSharedBytes, ...(lastSplit && { lastSplit }), ...(crossover && { crossover }) };
}

/**
 * What each thread did during the last hash on the pool, when start() was told to keep a
 * timeline; every time in ms since the epoch, the same clock on every thread.
 */
export function lastTimeline(): TimelineEvent[] | undefined {
  return split?.timeline;
}

/** The speeds the split follows, ms a MiB, as measured so far; undefined without a pool. */
export function speeds(): Speeds | undefined {
  return split?.speeds;
}

/** Makes one pool worker misbehave on its next piece: tests prove a broken pool throws. */
export function injectFault(worker: number, fault: Fault): void {
  split?.pool.injectFault(worker, fault);
}

/** BLAKE3 of `input`: a fresh 32-byte digest. */
export function hash(input: Uint8Array): Uint8Array {
  // Below both thresholds it is stage 10's hash(), which checks the input itself: nothing
  // before it should cost a 96-byte hash, which takes about 230 ns in all.
  if (split === undefined || !(input?.length >= Math.min(minBytes, minSharedBytes))) return hashOneThread(input);
  if (!(input instanceof Uint8Array)) {
    throw new TypeError('hash() expects a Uint8Array');
  }
  if (input.length < (input.buffer instanceof SharedArrayBuffer ? minSharedBytes : minBytes)) return hashOneThread(input);
  if (split.pool.broken) throw new Error(`stage 11 cannot hash: ${split.pool.broken}`);
  return split.hash(input) ?? hashOneThread(input);
}
