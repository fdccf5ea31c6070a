// The two-sided Mann-Whitney U test, with the same conventions as benchmath (through
// go-moremath's MannWhitneyUTest): ties get the average rank and count 1/2 in U; small
// samples use the exact null distribution of U given the observed tie pattern; larger
// ones use the normal approximation with tie and continuity corrections.
//
// Why this test: it asks "does one sample tend to be larger?" using only the order of
// the timings, so one stray slow sample (a GC pause, a tab switch) cannot fake or hide
// a difference the way it can move a mean.

import { normalCdf } from './normal.ts';

/** Largest sample size (each side) for the exact distribution when there are no ties. */
export const EXACT_LIMIT = 50;
/** The same with ties, where the exact computation is costlier (benchmath's limit). */
export const EXACT_LIMIT_WITH_TIES = 25;

export const SAMPLES_EQUAL = 'all samples are equal';
export const SAMPLE_TOO_SMALL = 'sample is too small';

export type UTestResult =
  | {
      ok: true;
      n1: number;
      n2: number;
      /** U for the first sample: pairs where it is larger, plus 1/2 per tie. */
      u: number;
      /** Two-sided p-value. */
      p: number;
      exact: boolean;
    }
  | { ok: false; n1: number; n2: number; reason: string };

/** Tie groups of the pooled sample, in increasing value: group size and how many came from x1. */
interface TieGroup {
  size: number;
  fromFirst: number;
}

function tieGroups(x1: readonly number[], x2: readonly number[]): TieGroup[] {
  const pooled = [...x1.map((v) => ({ v, first: true })), ...x2.map((v) => ({ v, first: false }))];
  pooled.sort((a, b) => a.v - b.v);
  const groups: TieGroup[] = [];
  for (let i = 0; i < pooled.length; ) {
    const value = pooled[i].v;
    const group = { size: 0, fromFirst: 0 };
    for (; i < pooled.length && pooled[i].v === value; i++) {
      group.size++;
      if (pooled[i].first) group.fromFirst++;
    }
    groups.push(group);
  }
  return groups;
}

/** Rows 0..n of Pascal's triangle as doubles (exact up to n = 56, within 1 ulp beyond). */
function binomialTable(n: number): number[][] {
  const rows: number[][] = [[1]];
  for (let i = 1; i <= n; i++) {
    const prev = rows[i - 1];
    const row = [1];
    for (let k = 1; k < i; k++) row.push(prev[k - 1] + prev[k]);
    row.push(1);
    rows.push(row);
  }
  return rows;
}

/**
 * P(2U <= maxTwoU) under the null hypothesis, given the tie pattern: every way of
 * choosing which n1 of the pooled values belong to the first sample is equally likely.
 * Walk the tie groups in order, tracking (how many first-sample values so far, 2U so
 * far); taking r of a group of t adds 2r(values of the second sample before it) +
 * r(t - r) to 2U, in C(t, r) ways. U only grows, so states past maxTwoU are dropped.
 */
function exactCdf(groups: TieGroup[], n1: number, n2: number, maxTwoU: number): number {
  const choose = binomialTable(n1 + n2);
  const width = maxTwoU + 1;
  // ways[j * width + u]: arrangements of the groups so far with j first-sample values and 2U = u.
  let ways = new Float64Array((n1 + 1) * width);
  let next = new Float64Array((n1 + 1) * width);
  // top[j]: largest u with a non-zero count in row j (-1 when empty), so loops skip the zeros.
  let top = new Int32Array(n1 + 1).fill(-1);
  let nextTop = new Int32Array(n1 + 1);
  ways[0] = 1;
  top[0] = 0;
  let before = 0;
  for (const { size } of groups) {
    next.fill(0);
    nextTop.fill(-1);
    for (let j = 0; j <= n1; j++) {
      if (top[j] < 0) continue;
      const secondBefore = before - j;
      for (let r = 0; r <= size && j + r <= n1; r++) {
        if (size - r > n2 - secondBefore) continue;
        const add = 2 * r * secondBefore + r * (size - r);
        const last = Math.min(top[j], maxTwoU - add);
        if (last < 0) continue;
        const count = choose[size][r];
        const from = j * width;
        const to = (j + r) * width + add;
        for (let u = 0; u <= last; u++) next[to + u] += ways[from + u] * count;
        nextTop[j + r] = Math.max(nextTop[j + r], last + add);
      }
    }
    [ways, next] = [next, ways];
    [top, nextTop] = [nextTop, top];
    before += size;
  }
  let total = 0;
  for (let u = 0; u <= maxTwoU; u++) total += ways[n1 * width + u];
  return total / choose[n1 + n2][n1];
}

/** Two-sided Mann-Whitney U test of x1 against x2. Failures (empty or all-equal samples) come back as data. */
export function mannWhitney(x1: readonly number[], x2: readonly number[]): UTestResult {
  const n1 = x1.length;
  const n2 = x2.length;
  if (n1 === 0 || n2 === 0) return { ok: false, n1, n2, reason: SAMPLE_TOO_SMALL };

  const groups = tieGroups(x1, x2);
  // Sum of first-sample ranks, each tie group sharing its average rank.
  let rankSum = 0;
  let end = 0;
  for (const g of groups) {
    const first = end + 1;
    end += g.size;
    if (g.fromFirst !== 0) rankSum += ((end + first) / 2) * g.fromFirst;
  }
  const u1 = rankSum - (n1 * (n1 + 1)) / 2;
  const u2 = n1 * n2 - u1;
  const uSmall = Math.min(u1, u2);
  const hasTies = groups.some((g) => g.size > 1);
  const limit = hasTies ? EXACT_LIMIT_WITH_TIES : EXACT_LIMIT;

  if (n1 <= limit && n2 <= limit) {
    if (groups.length === 1) return { ok: false, n1, n2, reason: SAMPLES_EQUAL };
    // The null distribution is symmetric about n1*n2/2; when U sits exactly there the
    // two tails cover everything (doubling would count the middle mass twice).
    // With ties the distribution need not be symmetric, and the smaller tail can then hold
    // more than half of it ([4, 5] against [5]: 2/3), so the doubled tail is capped at 1.
    const p = u1 === u2 ? 1 : Math.min(1, 2 * exactCdf(groups, n1, n2, Math.floor(2 * uSmall)));
    return { ok: true, n1, n2, u: u1, p, exact: true };
  }

  // Normal approximation. The tie correction shrinks the variance by sum(t^3 - t).
  let tieSum = 0;
  for (const { size } of groups) tieSum += size * size * size - size;
  const total = n1 + n2;
  const mean = (n1 * n2) / 2;
  const sd = Math.sqrt((n1 * n2 * (total + 1 - tieSum / (total * (total - 1)))) / 12);
  if (sd === 0) return { ok: false, n1, n2, reason: SAMPLES_EQUAL };
  let numer = u1 - mean;
  numer -= Math.sign(numer) * 0.5; // continuity correction, towards the mean
  const z = numer / sd;
  const below = normalCdf(z);
  const p = 2 * Math.min(below, 1 - below);
  return { ok: true, n1, n2, u: u1, p, exact: false };
}
