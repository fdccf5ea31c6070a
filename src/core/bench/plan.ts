// What a benchmark run is asked to do, its defaults, and the size notation shared by
// the app, the page the command line drives, and the command line itself.
import { formatSize } from '../format.ts';

/** The input sizes the article benchmarked: 96 B to 1 MiB. */
export const DEFAULT_SIZES: readonly number[] = [96, 512, 1024, 32768, 65536, 262144, 1048576];

/**
 * Every size the app's picker offers: the article's seven, then 4 MiB and 16 MiB, off by
 * default (a round of them takes long on the slow stages, and 16 MiB twice is memory a
 * small phone may not spare), for the stages that hash large inputs on several cores.
 */
export const OFFERED_SIZES: readonly number[] = [...DEFAULT_SIZES, 4 * 1048576, 16 * 1048576];

/** Rounds of interleaved samples: ten samples per contestant and size. */
export const DEFAULT_ROUNDS = 10;

/**
 * How long one sample lasts. Far above any browser's timer step (5 us isolated, 100 us
 * otherwise), and long enough to average over the short stalls a busy machine throws
 * in (README, "How the bench's defaults were chosen", has the runs behind 50 ms). The
 * worker lengthens samples further on coarse timers.
 */
export const DEFAULT_SAMPLE_TARGET_MS = 50;

/**
 * The most time one contestant may spend at one input size, verification, warm-up and
 * samples included; no sample starts that would end past it. Only stage 0 meets it: at
 * 256 KiB it keeps the samples that fit; at 1 MiB the verifying hash and one sample
 * cannot both fit, so that size is not run at all.
 */
export const DEFAULT_TIME_BOX_MS = 5000;

/** Warm-up per contestant and size before calibration: long enough for V8 to tier up to its optimizing compiler. */
export const WARMUP_MS = 100;

export interface BenchPlan {
  /** Contestant ids (stage ids, baseline ids, fault ids), in display order. */
  contestants: string[];
  /** Input sizes in bytes. */
  sizes: number[];
  rounds: number;
  sampleTargetMs?: number;
  timeBoxMs?: number;
  /**
   * Every contestant hashes inputs that live in a SharedArrayBuffer (the page must be
   * cross-origin isolated), as a program that shares its data with workers would keep
   * them; by default inputs are ordinary ArrayBuffers, and stage 11's calling thread copies
   * what its workers hash (from shared memory, each worker copies its own pieces).
   */
  sharedInput?: boolean;
}

/** The largest input a plan may ask for: well past the article's 1 MiB, still safe to allocate twice. */
export const MAX_PLAN_SIZE = 256 * 1024 * 1024;
export const MAX_PLAN_ROUNDS = 1000;

/** Throws a RangeError or TypeError naming the first thing wrong with a plan. */
export function checkPlan(plan: BenchPlan): void {
  if (!Array.isArray(plan.contestants) || plan.contestants.length === 0) {
    throw new TypeError('the plan names no contestants: pick at least one stage or library');
  }
  const seenIds = new Set<string>();
  for (const id of plan.contestants) {
    if (typeof id !== 'string' || id === '') throw new TypeError(`contestant ids are non-empty text, got ${JSON.stringify(id)}`);
    if (seenIds.has(id)) throw new RangeError(`contestant "${id}" is listed twice`);
    seenIds.add(id);
  }
  if (!Array.isArray(plan.sizes) || plan.sizes.length === 0) throw new TypeError('the plan has no input sizes');
  const seenSizes = new Set<number>();
  for (const size of plan.sizes) {
    if (!Number.isInteger(size) || size < 1 || size > MAX_PLAN_SIZE) {
      throw new RangeError(`input sizes are whole numbers of bytes from 1 to ${formatSize(MAX_PLAN_SIZE)}, got ${size}`);
    }
    if (seenSizes.has(size)) throw new RangeError(`size ${formatSize(size)} is listed twice`);
    seenSizes.add(size);
  }
  if (!Number.isInteger(plan.rounds) || plan.rounds < 1 || plan.rounds > MAX_PLAN_ROUNDS) {
    throw new RangeError(`rounds must be a whole number from 1 to ${MAX_PLAN_ROUNDS}, got ${plan.rounds}`);
  }
  for (const key of ['sampleTargetMs', 'timeBoxMs'] as const) {
    const value = plan[key];
    if (value !== undefined && !(Number.isFinite(value) && value > 0 && value <= 3_600_000)) {
      throw new RangeError(`${key} must be a positive number of milliseconds up to one hour, got ${value}`);
    }
  }
}

/** Parses "96", "96B", "1KiB", "64 KiB", "1MiB" (also k/K/KB and m/M/MB as binary units). */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib)?\s*$/i.exec(text);
  if (!match) {
    throw new RangeError(
      `"${text}" is not a size: write a number of bytes with no unit or with B, KiB or MiB (k, KB, m and MB mean KiB and MiB), like 96, 1KiB or 1MiB; the largest is ${formatSize(MAX_PLAN_SIZE)}`,
    );
  }
  const unit = (match[2] ?? 'b').toLowerCase();
  const scale = unit === 'b' ? 1 : unit.startsWith('k') ? 1024 : 1024 * 1024;
  const bytes = Number(match[1]) * scale;
  if (!Number.isInteger(bytes) || bytes < 1) throw new RangeError(`"${text}" is not a whole number of bytes of at least 1`);
  if (bytes > MAX_PLAN_SIZE) throw new RangeError(`"${text}" is larger than the largest size, ${formatSize(MAX_PLAN_SIZE)}`);
  return bytes;
}
