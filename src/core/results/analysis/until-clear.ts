// "Run until the answer is clear": the run adds interleaved rounds until every step it
// measures is known to a stated width, or a time limit passes. It stops on the width of
// the 95% intervals, never on the first p below 0.05: stopping the moment a test looks
// significant ("peeking") turns noise into findings far more often than 5% of the time.
import { formatSize } from '../../format.ts';
import type { Results } from '../../bench/results.ts';
import { buildModel, stepRows } from './model.ts';
import { stepName } from './step-label.ts';

/** The default target: every step's ratio known to ±3%, and two minutes at most. */
export const DEFAULT_CLEAR_PERCENT = 3;
export const DEFAULT_CLEAR_LIMIT_MIN = 2;
/** The most rounds such a run may take; the time limit usually ends it long before. */
export const MAX_CLEAR_ROUNDS = 500;

export interface Widest {
  /** "8 vs 7 · Little-endian fast path at 64 KiB", or a contestant and size when no step was measured. */
  what: string;
  /** Half the width of the 95% interval of the ratio, relative to the ratio (0.03 = ±3%); Infinity when unbounded. */
  halfWidth: number;
}

function relativeHalfWidth(center: number, lo: number, hi: number): number {
  if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo > 0 && center > 0)) return Infinity;
  return Math.max(hi / center - 1, 1 - lo / center);
}

/**
 * The least certain figure of a run: the step whose ratio has the widest 95% interval,
 * over every size; with no two stages measured, the contestant whose throughput does.
 */
export function widest(results: Results): Widest | null {
  const model = buildModel(results);
  let worst: Widest | null = null;
  const consider = (what: string, halfWidth: number) => {
    if (!worst || halfWidth > worst.halfWidth) worst = { what, halfWidth };
  };
  for (const size of model.sizes) {
    for (const row of stepRows(model, size)) {
      consider(`${stepName(row)} at ${formatSize(size)}`, row.range ? relativeHalfWidth(row.speedup, row.range[0], row.range[1]) : Infinity);
    }
  }
  if (worst) return worst;
  for (const [key, estimate] of model.throughput) {
    const [id, size] = key.split('\u0000');
    const title = model.contestants.find((c) => c.id === id)?.title ?? id;
    consider(`${title} at ${formatSize(Number(size))}`, relativeHalfWidth(estimate.center, estimate.lo, estimate.hi));
  }
  return worst;
}

/** True when every figure the run measures is known to ±`percent`%. */
export function isClear(results: Results, percent: number): boolean {
  const least = widest(results);
  return least !== null && least.halfWidth <= percent / 100;
}

/** "±3%", "±12%", "±∞". */
export function formatHalfWidth(halfWidth: number): string {
  return Number.isFinite(halfWidth) ? `±${Math.max(1, Math.round(halfWidth * 100))}%` : '±∞';
}
