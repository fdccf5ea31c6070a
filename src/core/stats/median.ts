// The median of a sample and a distribution-free confidence interval for it, as
// golang.org/x/perf/benchmath's AssumeNothing summary computes them: the bounds are two
// order statistics of the sample, chosen from the binomial distribution of "how many
// samples fall below the true median". Nothing is assumed about the shape of the
// timings, which is why benchstat uses it: benchmark noise is rarely normal.

import { BENCHMATH_PMF_TIES } from './binomial-ties.ts';
import { normalCdf, normalQuantile } from './normal.ts';

/** Up to this n the interval is found from the exact binomial distribution; above it, from its normal approximation (as benchmath does). */
const EXACT_LIMIT = 30;

/** benchmath searches this far for the smallest n that gives a finite interval. */
const MIN_SAMPLES_SEARCH_LIMIT = 50;

export interface OrderInterval {
  /** 1-based order statistic of the lower bound; < 1 means the bound is -Infinity. */
  lo: number;
  /** 1-based order statistic of the upper bound; > n means the bound is +Infinity. */
  hi: number;
  /** The interval's actual coverage, >= the requested confidence when the sample is big enough. */
  confidence: number;
}

export interface Summary {
  /** The median. */
  center: number;
  /** Confidence interval of the median; infinite when n is too small for the level. */
  lo: number;
  hi: number;
  n: number;
  warnings: string[];
}

/** The q-quantile of sorted values by Hyndman and Fan's definition 8 (what benchmath uses), with its exact arithmetic. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  if (q <= 0) return sorted[0];
  if (q >= 1) return sorted[n - 1];
  const h = 1 / 3 + q * (n + 1 / 3);
  const k = Math.trunc(h);
  const frac = h - k;
  if (k <= 0) return sorted[0];
  if (k >= n) return sorted[n - 1];
  return sorted[k - 1] + frac * (sorted[k] - sorted[k - 1]);
}

/** The median of sorted values (definition 8: the middle value, or halfway between the two middle values). */
export function medianSorted(sorted: readonly number[]): number {
  return quantileSorted(sorted, 0.5);
}

/** Binomial(n, 1/2) probabilities, exact: C(n, k) / 2^n, both exact in doubles for n <= 30. */
function halfBinomialPmf(n: number): number[] {
  let row = [1];
  for (let i = 1; i <= n; i++) {
    const next = [1];
    for (let k = 1; k < i; k++) next.push(row[k - 1] + row[k]);
    next.push(1);
    row = next;
  }
  const scale = 2 ** -n;
  return row.map((c) => c * scale);
}

/**
 * Whether the next probability to add comes from the left (k = left) rather than the
 * right (k = right). benchmath prefers the left on ties, but for 21 <= n <= 30 it builds
 * the PMF from lgamma, whose rounding breaks some exact ties one way or the other; the
 * generated table records how, so our intervals stay the same as benchstat's.
 */
function takeLeft(pmf: number[], n: number, left: number, right: number): boolean {
  const lp = left >= 0 ? pmf[left] : 0;
  const rp = right <= n ? pmf[right] : 0;
  if (lp !== rp) return lp > rp;
  const ties = BENCHMATH_PMF_TIES[n];
  if (ties !== undefined && left >= 0 && left + right === n) return ties[left] !== '<';
  return true;
}

function exactOrders(n: number, confidence: number): OrderInterval {
  const pmf = halfBinomialPmf(n);
  const at = (k: number) => (k >= 0 && k <= n ? pmf[k] : 0);
  // Start at the (lower) mode and grow [l, r) one step at a time towards whichever
  // neighbour is more probable, until the mass inside reaches the confidence level.
  const mode = Math.ceil((n + 1) * 0.5) - 1;
  let l = mode;
  let r = mode + 1;
  let mass = at(mode);
  while (mass < confidence && (at(l - 1) > 0 || at(r) > 0)) {
    if (takeLeft(pmf, n, l - 1, r)) {
      mass += at(l - 1);
      l--;
    } else {
      mass += at(r);
      r++;
    }
  }
  return { lo: l, hi: r, confidence: mass };
}

function approximateOrders(n: number, confidence: number): OrderInterval {
  const mean = n * 0.5;
  const sd = Math.sqrt(n * 0.5 * 0.5);
  const lower = normalQuantile((1 - confidence) / 2, mean, sd);
  const upper = 2 * mean - lower;
  // Round outwards to whole bands: binomial k is the normal band [k - 0.5, k + 0.5].
  const l = Math.floor(lower - 0.5) + 1;
  let r = Math.ceil(upper - 0.5) + 1;
  const coverage = (a: number, b: number) => normalCdf(b - 0.5, mean, sd) - normalCdf(a - 0.5, mean, sd);
  let achieved = coverage(l, r);
  // The symmetric interval may be wider than needed: take one step less on the right
  // when that still covers the level (benchmath leans left the same way).
  const narrower = coverage(l, r - 1);
  if (narrower >= confidence && narrower < achieved) {
    achieved = narrower;
    r--;
  }
  if (l <= 0 && r >= n + 1) achieved = 1;
  return { lo: l, hi: r, confidence: achieved };
}

/** Which order statistics bound the median's confidence interval for a sample of n. */
export function medianOrders(n: number, confidence: number): OrderInterval {
  let result: OrderInterval;
  if (confidence >= 1) result = { lo: 0, hi: n + 1, confidence: 1 };
  else if (n <= EXACT_LIMIT) result = exactOrders(n, confidence);
  else result = approximateOrders(n, confidence);
  return { ...result, lo: Math.max(result.lo, 0), hi: Math.min(result.hi, n + 1) };
}

const minSamplesCache = new Map<number, string>();

/** ">= 6" for 0.95: the smallest sample with a finite interval at this level (searched up to 50, as benchmath does). */
export function minSamplesForInterval(confidence: number): string {
  const cached = minSamplesCache.get(confidence);
  if (cached !== undefined) return cached;
  let answer = `> ${MIN_SAMPLES_SEARCH_LIMIT}`;
  for (let n = 2; n <= MIN_SAMPLES_SEARCH_LIMIT; n++) {
    const orders = medianOrders(n, confidence);
    if (orders.lo > 0 && orders.hi <= n) {
      answer = `>= ${n}`;
      break;
    }
  }
  minSamplesCache.set(confidence, answer);
  return answer;
}

/** Reject what would silently poison a summary: no samples, non-numbers, NaN. */
export function checkSamples(samples: readonly number[], what = 'samples'): void {
  if (!Array.isArray(samples)) throw new TypeError(`${what} must be an array of numbers`);
  if (samples.length === 0) throw new RangeError(`${what} must not be empty`);
  for (const x of samples) {
    if (typeof x !== 'number' || Number.isNaN(x)) throw new TypeError(`${what} must be numbers, got ${String(x)}`);
  }
}

/** Sorted copy, ascending. */
export function sortedCopy(samples: readonly number[]): number[] {
  return [...samples].sort((a, b) => a - b);
}

/**
 * Median and its confidence interval, with benchstat's warning when the sample is too
 * small for the interval to be finite ("need >= 6 samples for confidence interval at
 * level 0.95").
 */
export function summarize(samples: readonly number[], confidence = 0.95): Summary {
  checkSamples(samples);
  if (!(confidence >= 0 && confidence <= 1)) throw new RangeError(`confidence must be in [0, 1], got ${confidence}`);
  const sorted = sortedCopy(samples);
  const n = sorted.length;
  const orders = medianOrders(n, confidence);
  const lo = orders.lo < 1 ? -Infinity : sorted[orders.lo - 1];
  const hi = orders.hi > n ? Infinity : sorted[orders.hi - 1];
  const warnings: string[] = [];
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    warnings.push(`need ${minSamplesForInterval(confidence)} samples for confidence interval at level ${confidence}`);
  }
  return { center: medianSorted(sorted), lo, hi, n, warnings };
}
