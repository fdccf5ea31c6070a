// How long a stage will take on a file, said before it starts: from the learner's own
// bench results when they measured that stage, else from the committed run of every
// stage (data/engines/), each piece's time predicted from the sizes measured (stage 0's
// time grows with the square of a piece's size: predictOneHash finds that from the
// measurements). Reading the file costs more on top; the page says "about".

import { predictOneHash } from '../bench/predict.ts';
import type { Results } from '../bench/results.ts';
import { partCount, planParts, type PartPlan } from './tree.ts';

export interface SpeedPoint {
  size: number;
  /** Median nanoseconds for one hash of `size` bytes. */
  ns: number;
}

/** The median time of one hash of `contestant` at each size it was measured, in `runtime` (any runtime when absent). */
export function speedPoints(results: Results, contestant: string, runtime?: string): SpeedPoint[] {
  const points: SpeedPoint[] = [];
  for (const run of results.runs) {
    if (run.contestant !== contestant || run.nsPerOp.length === 0) continue;
    if (runtime !== undefined && run.runtime !== undefined && run.runtime !== runtime) continue;
    if (points.some((p) => p.size === run.size)) continue;
    const sorted = [...run.nsPerOp].sort((a, b) => a - b);
    points.push({ size: run.size, ns: sorted[Math.floor(sorted.length / 2)] });
  }
  return points.sort((a, b) => a.size - b.size);
}

/** Predicted ns for one hash of `bytes`: 0 for nothing, the smallest measured time below the smallest size. */
function hashNs(points: readonly SpeedPoint[], bytes: number): number | undefined {
  if (bytes === 0 || points.length === 0) return 0;
  return predictOneHash(points, bytes)?.ns ?? points[0].ns;
}

/** Milliseconds to hash a file cut by `plan` on `workers` workers at the measured speed, or undefined without measurements. */
export function estimatePlanMs(plan: PartPlan, points: readonly SpeedPoint[], workers: number): number | undefined {
  if (points.length === 0) return undefined;
  if (plan.pieces === 0) return hashNs(points, plan.size)! / 1e6;
  const piece = hashNs(points, plan.pieceBytes)!;
  const tail = hashNs(points, plan.tailBytes)!;
  // The workers share the pieces; the last round of pieces may leave some of them idle.
  const rounds = Math.ceil((partCount(plan) - (plan.tailBytes > 0 ? 1 : 0)) / Math.max(1, workers));
  return (rounds * piece + tail) / 1e6;
}

/** More than this and the page refuses the whole file and offers a prefix: stage 0 on 1 GiB would take hours. */
export const REFUSE_OVER_MS = 10 * 60_000;
/** A prefix the page offers takes about this long at most. */
export const PREFIX_TARGET_MS = 20_000;
/** Prefix lengths offered, smallest first: 64 KiB and every fourth power of two up to 1 GiB. */
export const PREFIX_SIZES = [16, 18, 20, 22, 24, 26, 28, 30].map((bits) => 2 ** bits);

/**
 * The longest offered prefix of `size` bytes that each of `sizes` files can hash within
 * PREFIX_TARGET_MS in all (the smallest when none can), cut as the page would cut it.
 */
export function prefixBytes(sizes: readonly number[], points: readonly SpeedPoint[], workers: number, cap?: number): number {
  let best = PREFIX_SIZES[0];
  for (const bytes of PREFIX_SIZES) {
    const ms = sizes.reduce((sum, size) => sum + (estimatePlanMs(planParts(Math.min(size, bytes), workers, cap), points, workers) ?? Infinity), 0);
    if (ms <= PREFIX_TARGET_MS) best = bytes;
  }
  return best;
}
