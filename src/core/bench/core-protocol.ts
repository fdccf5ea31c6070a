// What the coordinator (runner.ts) and a bench worker's core (src/core/bench/bench-core.ts) say
// to each other: the four calls and their answers. Errors come back as data
// ({ status: 'failed', reason }), so a broken contestant is a result, not a lost worker.

import type { Capabilities } from './capabilities.ts';
import type { OneBlockChoice, ThreadUse } from '../../../steps/index.ts';

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

/**
 * One worker's core; each serves one contestant. Every call takes and returns plain data
 * and returns a promise, so comlink's Remote<BenchCore> (a worker's core, in a page or a
 * Node thread) is a BenchCore as it is, and so is a core in the caller's own thread.
 */
export interface BenchCore {
  /** Measures the worker's clock and versions the sources of the contestants asked about. */
  probe(ids: string[]): Promise<Probe>;
  /** Loads the contestant and checks it on the smoke inputs; this worker serves only it. */
  load(id: string, capabilities: Capabilities): Promise<LoadOutcome>;
  /** Gets one input size ready: verify the digest, warm up, calibrate. */
  prepare(size: number, settings: PrepareSettings): Promise<PrepareOutcome>;
  /** One sample: `iterations` hashes of the prepared input, timed together. */
  sample(size: number, iterations: number): Promise<SampleOutcome>;
}
