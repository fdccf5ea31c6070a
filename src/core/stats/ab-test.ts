// One A/B comparison the way benchstat reports it: the U-test p-value, whether that is
// below alpha, and the change between the two medians. The delta is only claimed when
// the test says the samples differ; otherwise benchstat prints "~".

import { checkSamples, medianSorted, sortedCopy } from './median.ts';
import { mannWhitney } from './utest.ts';

/** The most samples per side that the "need >= n samples to detect a difference" hint looks at (benchmath's table stops at 9). */
const DETECT_SEARCH_LIMIT = 9;

export interface Comparison {
  /** Two-sided Mann-Whitney p-value; 1 when the test could not run (see warnings). */
  p: number;
  alpha: number;
  /** p <= alpha, benchstat's rule for printing a delta instead of "~". */
  significant: boolean;
  /** Change of the median from a to b in percent; null when not significant ("~") or a's median is 0. */
  deltaPct: number | null;
  /** The same change whether or not it is significant; null only when a's median is 0 and b's is not. */
  rawDeltaPct: number | null;
  n1: number;
  n2: number;
  /** Medians of a and b. */
  oldCenter: number;
  newCenter: number;
  warnings: string[];
}

/**
 * The smallest two-sided p the U test can reach with n samples on each side: when the
 * samples do not overlap, 2 / C(2n, n) (0.1 at n = 3, 0.029 at n = 4).
 */
export function minimumUTestP(n: number): number {
  let ways = 1;
  for (let k = 1; k <= n; k++) ways = (ways * (n + k)) / k;
  return 2 / ways;
}

/** benchstat's hint when neither sample is big enough for any result to reach alpha: ">= 4" for 0.05. */
export function minSamplesToDetect(alpha: number): { op: '>=' | '>'; n: number } {
  for (let n = 1; n <= DETECT_SEARCH_LIMIT; n++) {
    if (minimumUTestP(n) <= alpha) return { op: '>=', n };
  }
  return { op: '>', n: DETECT_SEARCH_LIMIT + 1 };
}

/** Percent change from oldCenter to newCenter as benchstat computes it; null when undefined (old is 0). */
export function percentChange(oldCenter: number, newCenter: number): number | null {
  if (oldCenter === newCenter) return 0;
  if (oldCenter === 0) return null;
  return (newCenter / oldCenter - 1) * 100;
}

/** Compare sample a (old, the baseline) with sample b (new). */
export function compareSamples(a: readonly number[], b: readonly number[], alpha = 0.05): Comparison {
  checkSamples(a, 'old samples');
  checkSamples(b, 'new samples');
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be in [0, 1], got ${alpha}`);
  const test = mannWhitney(a, b);
  const warnings: string[] = [];
  let p: number;
  if (test.ok) {
    p = test.p;
    const need = minSamplesToDetect(alpha);
    if (p > alpha && a.length < need.n && b.length < need.n) {
      warnings.push(`need ${need.op} ${need.n} samples to detect a difference at alpha level ${alpha}`);
    }
  } else {
    // As benchstat does: a test that cannot run reports "no difference", with the reason.
    p = 1;
    warnings.push(test.reason);
  }
  const oldCenter = medianSorted(sortedCopy(a));
  const newCenter = medianSorted(sortedCopy(b));
  const significant = !(p > alpha);
  const rawDeltaPct = percentChange(oldCenter, newCenter);
  return {
    p,
    alpha,
    significant,
    deltaPct: significant ? rawDeltaPct : null,
    rawDeltaPct,
    n1: a.length,
    n2: b.length,
    oldCenter,
    newCenter,
    warnings,
  };
}
