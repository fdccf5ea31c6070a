// The half of the benchmark that runs inside a worker, the only part of it that hashes.
// Each worker, and so each instance of this core, serves one contestant. The
// coordinator (src/bench/runner.ts) decides what to measure and when; this module loads
// the contestant, proves its digests right, warms it up, picks how many hashes one
// sample holds, and times samples.
//
// The same core runs in a browser Web Worker (bench.worker.ts) and a Node worker thread
// (bench.node-worker.ts). Errors come back as data ({ status: 'failed', reason }), so
// the coordinator sees a broken contestant as a result, not as a lost worker.

import { blake3 } from '@noble/hashes/blake3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Contestant, ContestantHasher } from '../src/bench/contestants.ts';
import { missingCapability, type Capabilities } from '../src/bench/capabilities.ts';
import { contentVersion } from '../src/bench/source-version.ts';
import { measureTimerResolutionMs } from '../src/bench/timer.ts';
import { patternInput } from '../src/selftest/vectors.ts';
import type { OneBlockChoice, ThreadUse } from '../steps/index.ts';

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

/**
 * Every digest feeds this value, which goes back to the coordinator with each sample:
 * a result that is observable outside the worker cannot be optimized away by the JIT.
 */
let sink = 0;

export interface Probe {
  /** Smallest non-zero step seen on the worker's clock. */
  timerResolutionNs: number;
  crossOriginIsolated: boolean;
  /** Source version of each contestant asked about: package@version or a content hash. */
  versions: Record<string, string>;
}

/** A loaded contestant that may hash on more than one thread says how many (stage 11); stage 10 says which one-block code it chose. */
export type LoadOutcome = { status: 'loaded'; threadUse?: ThreadUse; oneBlock?: OneBlockChoice } | { status: 'failed'; reason: string };

export interface PrepareSettings {
  sampleTargetMs: number;
  timeBoxMs: number;
  warmupMs: number;
  /** Hashes per sample decided earlier (a fresh worker taking over); skips calibration. */
  iterations?: number;
  /** The input lives in a SharedArrayBuffer (see BenchPlan.sharedInput). */
  sharedInput?: boolean;
}

export type PrepareOutcome =
  | { status: 'ready'; iterations: number; nsPerOp: number; elapsedMs: number }
  | { status: 'too-slow'; firstHashNs: number; elapsedMs: number }
  | { status: 'failed'; reason: string };

export type SampleOutcome = { status: 'ok'; elapsedNs: number; sink: number } | { status: 'failed'; reason: string };

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
}

function message(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function hex(bytes: Uint8Array, max = 8): string {
  let out = '';
  for (const byte of bytes.subarray(0, max)) out += byte.toString(16).padStart(2, '0');
  return out;
}

function sameDigest(actual: unknown, expected: Uint8Array): boolean {
  if (!(actual instanceof Uint8Array) || actual.length !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (actual[i] !== expected[i]) return false;
  return true;
}

function describeDigest(actual: unknown): string {
  if (actual instanceof Uint8Array) return `${hex(actual)}… (${actual.length} bytes)`;
  return `a ${typeof actual} instead of bytes`;
}

export function createBenchCore(options: CoreOptions) {
  const resolve = options.resolve;
  const now = options.now ?? (() => performance.now());
  let contestant: Contestant | undefined;
  let hasher: ContestantHasher | undefined;
  let isAsync = false;
  const prepared = new Map<number, { input: Uint8Array; expected: Uint8Array }>();

  function oracle(input: Uint8Array): Uint8Array {
    return contestant!.oracle === 'sha256' ? sha256(input) : blake3(input);
  }

  // Two loops, so a synchronous hash is never slowed by an await it does not need.
  function hashSync(input: Uint8Array, n: number): Uint8Array {
    const h = hasher!;
    let digest!: Uint8Array;
    for (let i = 0; i < n; i++) {
      digest = h.hash(input) as Uint8Array;
      sink ^= digest[i & 31];
    }
    return digest;
  }

  async function hashAsync(input: Uint8Array, n: number): Promise<Uint8Array> {
    const h = hasher!;
    let digest!: Uint8Array;
    for (let i = 0; i < n; i++) {
      digest = await h.hash(input);
      sink ^= digest[i & 31];
    }
    return digest;
  }

  /** Time `n` hashes of `input`; returns the elapsed ms and the last digest. */
  async function timeBatch(input: Uint8Array, n: number): Promise<{ ms: number; digest: Uint8Array }> {
    if (isAsync) {
      const start = now();
      const digest = await hashAsync(input, n);
      return { ms: now() - start, digest };
    }
    const start = now();
    const digest = hashSync(input, n);
    return { ms: now() - start, digest };
  }

  return {
    async probe(ids: string[]): Promise<Probe> {
      const versions: Record<string, string> = {};
      for (const id of ids) {
        const c = resolve(id);
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
      return {
        timerResolutionNs: measureTimerResolutionMs(now) * 1e6,
        crossOriginIsolated: globalThis.crossOriginIsolated === true,
        versions,
      };
    },

    /** Loads the contestant and checks it on the smoke inputs; this worker serves only it. */
    async load(id: string, capabilities: Capabilities): Promise<LoadOutcome> {
      const found = resolve(id);
      if (!found) return { status: 'failed', reason: `unknown contestant "${id}"` };
      const missing = missingCapability(found.requires, capabilities);
      if (missing) return { status: 'failed', reason: missing };
      contestant = found;
      try {
        hasher = await found.load();
      } catch (error) {
        return { status: 'failed', reason: `could not load: ${message(error)}` };
      }
      for (const length of SMOKE_LENGTHS) {
        const input = patternInput(length);
        let digest: unknown;
        try {
          const result = hasher.hash(input);
          isAsync = result instanceof Promise;
          digest = await result;
        } catch (error) {
          return { status: 'failed', reason: `threw on a ${length}-byte input: ${message(error)}` };
        }
        const expected = oracle(input);
        if (!sameDigest(digest, expected)) {
          return {
            status: 'failed',
            reason: `wrong digest for a ${length}-byte input: got ${describeDigest(digest)}, expected ${hex(expected)}…; never timed`,
          };
        }
      }
      const threadUse = hasher.threadUse?.();
      const oneBlock = hasher.oneBlockChoice?.();
      return { status: 'loaded', ...(threadUse && { threadUse }), ...(oneBlock && { oneBlock }) };
    },

    /**
     * Gets one input size ready: verify the digest, warm up, calibrate. The first hash
     * is timed too; when it alone is over the time box, nothing more is run.
     */
    async prepare(size: number, settings: PrepareSettings): Promise<PrepareOutcome> {
      if (!hasher) return { status: 'failed', reason: 'no contestant loaded' };
      const started = now();
      let input = patternInput(size);
      if (settings.sharedInput) {
        if (typeof SharedArrayBuffer !== 'function') {
          return { status: 'failed', reason: 'inputs in shared memory were asked for, but this worker has no SharedArrayBuffer (is the page cross-origin isolated?)' };
        }
        const shared = new Uint8Array(new SharedArrayBuffer(size));
        shared.set(input);
        input = shared;
      }
      const expected = oracle(input);
      let first: { ms: number; digest: Uint8Array };
      try {
        first = await timeBatch(input, 1);
      } catch (error) {
        return { status: 'failed', reason: `threw on a ${size}-byte input: ${message(error)}` };
      }
      if (!sameDigest(first.digest, expected)) {
        return {
          status: 'failed',
          reason: `wrong digest for a ${size}-byte input: got ${describeDigest(first.digest)}, expected ${hex(expected)}…; never timed`,
        };
      }
      // This hash and at least one timed sample must fit in the time box, or nothing will.
      if (first.ms * 2 > settings.timeBoxMs) return { status: 'too-slow', firstHashNs: first.ms * 1e6, elapsedMs: now() - started };
      prepared.set(size, { input, expected });
      try {
        // A hash slower than both the warm-up and the sample target needs neither: its
        // first run already spent the warm-up, and one hash per sample is the least.
        if (first.ms >= settings.warmupMs && first.ms >= settings.sampleTargetMs) {
          return { status: 'ready', iterations: settings.iterations ?? 1, nsPerOp: first.ms * 1e6, elapsedMs: now() - started };
        }
        // Warm up (so the JIT has tiered up) while growing the batch; the last batch,
        // taken warm and long enough to trust, sets the count for the sample target.
        let n = 1;
        let batch = await timeBatch(input, n);
        while (now() - started < settings.warmupMs || batch.ms < settings.sampleTargetMs * CALIBRATION_FRACTION) {
          if (batch.ms < settings.sampleTargetMs * CALIBRATION_FRACTION) n *= 2;
          if (n > MAX_ITERATIONS) return { status: 'failed', reason: 'the timer did not advance over a billion hashes' };
          batch = await timeBatch(input, n);
        }
        if (!sameDigest(batch.digest, expected)) {
          return { status: 'failed', reason: `wrong digest for a ${size}-byte input after warming up: got ${describeDigest(batch.digest)}` };
        }
        const iterations = settings.iterations ?? Math.max(1, Math.ceil((n * settings.sampleTargetMs) / batch.ms));
        return { status: 'ready', iterations, nsPerOp: (batch.ms * 1e6) / n, elapsedMs: now() - started };
      } catch (error) {
        return { status: 'failed', reason: `threw on a ${size}-byte input: ${message(error)}` };
      }
    },

    /** One sample: `iterations` hashes of the prepared input, timed together. */
    async sample(size: number, iterations: number): Promise<SampleOutcome> {
      const ready = prepared.get(size);
      if (!ready) return { status: 'failed', reason: `size ${size} was not prepared in this worker` };
      let batch: { ms: number; digest: Uint8Array };
      try {
        batch = await timeBatch(ready.input, iterations);
      } catch (error) {
        return { status: 'failed', reason: `threw on a ${size}-byte input: ${message(error)}` };
      }
      // Checked after the clock stops: a contestant whose state goes bad over many
      // calls (a reused buffer, a stack too small) is caught, at no cost to the timing.
      if (!sameDigest(batch.digest, ready.expected)) {
        return { status: 'failed', reason: `wrong digest for a ${size}-byte input after ${iterations} hashes: got ${describeDigest(batch.digest)}` };
      }
      if (!(batch.ms > 0)) return { status: 'failed', reason: `the timer did not advance over ${iterations} hashes` };
      return { status: 'ok', elapsedNs: batch.ms * 1e6, sink };
    },
  };
}

export type BenchCore = ReturnType<typeof createBenchCore>;
