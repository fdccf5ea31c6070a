// The half of the benchmark that runs inside a worker, the only part of it that hashes.
// Each worker, and so each instance of this core, serves one contestant. The
// coordinator (src/core/bench/runner.ts) decides what to measure and when; this module loads
// the contestant, proves its digests right, warms it up, picks how many hashes one
// sample holds, and times samples. What they say to each other is in
// src/core/bench/core-protocol.ts; the timed loop itself is in batch-timer.ts.
//
// The same core runs in a browser Web Worker (bench.worker.ts) and a Node worker thread
// (bench.node-worker.ts). Errors come back as data ({ status: 'failed', reason }), so
// the coordinator sees a broken contestant as a result, not as a lost worker.

import { blake3 } from '@noble/hashes/blake3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Contestant, ContestantHasher } from './contestants.ts';
import { missingCapability, type Capabilities } from './capabilities.ts';
import { contentVersion } from './source-version.ts';
import { measureTimerResolutionMs } from './timer.ts';
import type { BenchCore, LoadOutcome, PrepareOutcome, PrepareSettings, Probe, SampleOutcome } from './core-protocol.ts';
import { patternInput } from '../vectors.ts';
import { batchTimer, currentSink, markCall, variedBatchTimer, type Batch } from './batch-timer.ts';
import { describeDigest, hex, message, sameDigest, wrongBeforeTiming } from './digest-check.ts';

export type { BenchCore } from './core-protocol.ts';

/**
 * Small inputs every contestant must hash right before anything else: empty, one byte,
 * block and chunk edges, and a five-chunk tree. Cheap even for stage 0, so a contestant
 * that hangs or throws is caught here, within the short load time-out.
 */
export const SMOKE_LENGTHS = [0, 1, 63, 64, 65, 1023, 1024, 1025, 4097];

/** Calibration grows the batch until it lasts this fraction of the sample target. */
const CALIBRATION_FRACTION = 1 / 4;

/** Ceiling on hashes per sample; a batch this large that still reads 0 ms means a broken timer. */
const MAX_ITERATIONS = 1 << 30;

export interface CoreOptions {
  /**
   * Finds a contestant by id: the registry's contestantById in the bench workers, the
   * compiled drafts in the playground's sandbox. Passed in rather than imported, so a
   * worker bundle holds only the contestants it can run.
   */
  resolve: (id: string) => Contestant | undefined;
  /** Milliseconds clock; performance.now unless a test brings a fake. */
  now?: () => number;
  /** Reads a repo-relative source file, for stage versions. */
  readSource?: (path: string) => Promise<string>;
  /**
   * Time on an input that changes before every call (batch-timer.ts, variedBatchTimer):
   * the playground's sandbox, whose contestants are code a learner typed.
   */
  varyInputs?: boolean;
}

type TimeBatch = (input: Uint8Array, n: number) => Promise<Batch>;
type Oracle = (input: Uint8Array) => Uint8Array;

/** A prepared size: the input timed (changed in place on a varied run), its original bytes and their digest. */
interface Prepared {
  input: Uint8Array;
  original: Uint8Array;
  expected: Uint8Array;
}

/**
 * Why a batch's digest is wrong, or null: the last digest against the original input's, or
 * on a varied input each checked call against the oracle's digest of that call's input.
 */
function wrongDigest(batch: Batch, ready: Prepared, oracle: Oracle, iterations: number): string | null {
  const size = ready.input.length;
  if (!batch.checks) return sameDigest(batch.digest, ready.expected) ? null : `got ${describeDigest(batch.digest)}, expected ${hex(ready.expected)}…`;
  for (const check of batch.checks) {
    const input = ready.original.slice();
    markCall(input, check.call);
    const expected = oracle(input);
    if (sameDigest(check.digest, expected)) continue;
    const where = iterations > 1 ? `one of ${iterations} timed calls` : 'a timed call';
    return `got ${describeDigest(check.digest)} in ${where} on a ${size}-byte input that changes between calls, expected ${hex(expected)}…. A draft that keeps the digests of earlier calls, or returns early on an input it has seen, fails here, and so does one whose state goes bad over many calls`;
  }
  return null;
}

function oracleOf(contestant: Contestant): Oracle {
  return contestant.oracle === 'sha256' ? sha256 : blake3;
}

/** Source version of each contestant: its package version, else a hash of its files. */
async function sourceVersions(ids: string[], options: CoreOptions): Promise<Record<string, string>> {
  const versions: Record<string, string> = {};
  for (const id of ids) {
    const c = options.resolve(id);
    if (!c) continue;
    if (c.version) versions[id] = c.version;
    else if (!options.readSource) versions[id] = 'unversioned';
    else {
      try {
        versions[id] = await contentVersion(c.files, options.readSource);
      } catch (error) {
        versions[id] = `unversioned (${message(error)})`.slice(0, 120);
      }
    }
  }
  return versions;
}

/** Hashes the smoke inputs; a reason when one throws or is wrong, else whether the hash returns a promise. */
async function smokeTest(hasher: ContestantHasher, oracle: Oracle): Promise<{ reason: string } | { isAsync: boolean }> {
  let isAsync = false;
  for (const length of SMOKE_LENGTHS) {
    const input = patternInput(length);
    let digest: unknown;
    try {
      const result = hasher.hash(input);
      isAsync = result instanceof Promise;
      digest = await result;
    } catch (error) {
      return { reason: `threw on a ${length}-byte input: ${message(error)}` };
    }
    const expected = oracle(input);
    if (!sameDigest(digest, expected)) return { reason: wrongBeforeTiming(length, digest, expected) };
  }
  return { isAsync };
}

/** The input of `size` bytes, in shared memory when asked for; a string when that cannot be. */
function inputOf(size: number, shared: boolean | undefined): Uint8Array | string {
  const input = patternInput(size);
  if (!shared) return input;
  if (typeof SharedArrayBuffer !== 'function') {
    return 'inputs in shared memory were asked for, but this worker has no SharedArrayBuffer (is the page cross-origin isolated?)';
  }
  const copy = new Uint8Array(new SharedArrayBuffer(size));
  copy.set(input);
  return copy;
}

/** Loads a contestant and hashes the smoke inputs with it: its hasher and whether its hash returns a promise, or why it cannot run. */
async function loadChecked(found: Contestant, oracle: Oracle): Promise<{ reason: string } | { hasher: ContestantHasher; isAsync: boolean }> {
  let hasher: ContestantHasher;
  try {
    hasher = await found.load();
  } catch (error) {
    return { reason: `could not load: ${message(error)}` };
  }
  const smoke = await smokeTest(hasher, oracle);
  if ('reason' in smoke) return smoke;
  return { hasher, isAsync: smoke.isAsync };
}

/** Times the first hash of an input and checks its digest: the batch, or the outcome that ends the preparing (failed, too slow for the time box). */
async function timeFirstHash(timeBatch: TimeBatch, ready: Prepared, oracle: Oracle, settings: PrepareSettings, started: number, now: () => number): Promise<Batch | PrepareOutcome> {
  const size = ready.input.length;
  let first: Batch;
  try {
    first = await timeBatch(ready.input, 1);
  } catch (error) {
    return { status: 'failed', reason: `threw on a ${size}-byte input: ${message(error)}` };
  }
  const wrong = wrongDigest(first, ready, oracle, 1);
  if (wrong) return { status: 'failed', reason: `wrong digest for a ${size}-byte input: ${wrong}; never timed` };
  // This hash and at least one timed sample must fit in the time box, or nothing will.
  if (first.ms * 2 > settings.timeBoxMs) return { status: 'too-slow', firstHashNs: first.ms * 1e6, elapsedMs: now() - started };
  return first;
}

/**
 * Warms up (so the JIT has tiered up) while growing the batch; the last batch, taken
 * warm and long enough to trust, sets the count for the sample target.
 */
async function calibrate(timeBatch: TimeBatch, ready: Prepared, oracle: Oracle, settings: PrepareSettings, started: number, now: () => number): Promise<PrepareOutcome> {
  const { input } = ready;
  let n = 1;
  let batch = await timeBatch(input, n);
  while (now() - started < settings.warmupMs || batch.ms < settings.sampleTargetMs * CALIBRATION_FRACTION) {
    if (batch.ms < settings.sampleTargetMs * CALIBRATION_FRACTION) n *= 2;
    if (n > MAX_ITERATIONS) return { status: 'failed', reason: 'the timer did not advance over a billion hashes' };
    batch = await timeBatch(input, n);
  }
  const wrong = wrongDigest(batch, ready, oracle, n);
  if (wrong) return { status: 'failed', reason: `wrong digest for a ${input.length}-byte input after warming up: ${wrong}` };
  const iterations = settings.iterations ?? Math.max(1, Math.ceil((n * settings.sampleTargetMs) / batch.ms));
  return { status: 'ready', iterations, nsPerOp: (batch.ms * 1e6) / n, elapsedMs: now() - started };
}

/** One timed sample of `iterations` hashes of a prepared input. */
async function timeSample(timeBatch: TimeBatch, ready: Prepared, oracle: Oracle, iterations: number): Promise<SampleOutcome> {
  const size = ready.input.length;
  let batch: Batch;
  try {
    batch = await timeBatch(ready.input, iterations);
  } catch (error) {
    return { status: 'failed', reason: `threw on a ${size}-byte input: ${message(error)}` };
  }
  // Checked after the clock stops: a contestant whose state goes bad over many
  // calls (a reused buffer, a stack too small) is caught, at no cost to the timing.
  const wrong = wrongDigest(batch, ready, oracle, iterations);
  if (wrong) return { status: 'failed', reason: `wrong digest for a ${size}-byte input after ${iterations} hashes: ${wrong}` };
  if (!(batch.ms > 0)) return { status: 'failed', reason: `the timer did not advance over ${iterations} hashes` };
  return { status: 'ok', elapsedNs: batch.ms * 1e6, sink: currentSink() };
}

export function createBenchCore(options: CoreOptions): BenchCore {
  const now = options.now ?? (() => performance.now());
  let oracle: Oracle = blake3;
  let timeBatch: TimeBatch | undefined;
  const prepared = new Map<number, Prepared>();

  return {
    async probe(ids: string[]): Promise<Probe> {
      const versions = await sourceVersions(ids, options);
      return {
        timerResolutionNs: measureTimerResolutionMs(now) * 1e6,
        crossOriginIsolated: globalThis.crossOriginIsolated === true,
        versions,
      };
    },

    async load(id: string, capabilities: Capabilities): Promise<LoadOutcome> {
      const found = options.resolve(id);
      if (!found) return { status: 'failed', reason: `unknown contestant "${id}"` };
      const missing = missingCapability(found.requires, capabilities);
      if (missing) return { status: 'failed', reason: missing };
      oracle = oracleOf(found);
      const checked = await loadChecked(found, oracle);
      if ('reason' in checked) return { status: 'failed', reason: checked.reason };
      timeBatch = (options.varyInputs ? variedBatchTimer : batchTimer)(checked.hasher, checked.isAsync, now);
      const threadUse = checked.hasher.threadUse?.();
      const oneBlock = checked.hasher.oneBlockChoice?.();
      return { status: 'loaded', ...(threadUse && { threadUse }), ...(oneBlock && { oneBlock }) };
    },

    /** The first hash is timed too; when it alone is over the time box, nothing more is run. */
    async prepare(size, settings) {
      if (!timeBatch) return { status: 'failed', reason: 'no contestant loaded' };
      const started = now();
      const input = inputOf(size, settings.sharedInput);
      if (typeof input === 'string') return { status: 'failed', reason: input };
      const ready: Prepared = { input, original: input.slice(), expected: oracle(input) };
      const first = await timeFirstHash(timeBatch, ready, oracle, settings, started, now);
      if ('status' in first) return first;
      prepared.set(size, ready);
      // A hash slower than both the warm-up and the sample target needs neither: its
      // first run already spent the warm-up, and one hash per sample is the least.
      if (first.ms >= settings.warmupMs && first.ms >= settings.sampleTargetMs) {
        return { status: 'ready', iterations: settings.iterations ?? 1, nsPerOp: first.ms * 1e6, elapsedMs: now() - started };
      }
      try {
        return await calibrate(timeBatch, ready, oracle, settings, started, now);
      } catch (error) {
        return { status: 'failed', reason: `threw on a ${size}-byte input: ${message(error)}` };
      }
    },

    async sample(size, iterations) {
      const ready = prepared.get(size);
      if (!ready || !timeBatch) return { status: 'failed', reason: `size ${size} was not prepared in this worker` };
      return timeSample(timeBatch, ready, oracle, iterations);
    },
  };
}
