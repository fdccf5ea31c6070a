// Statistics over many results at once: the geometric mean benchstat puts in its last
// row, and the Holm-Bonferroni correction for looking at many comparisons together.

/**
 * Geometric mean of positive values (NaN if any is <= 0 or there are none). Computed as
 * a running mean of logs, as benchstat does, so a thousand tiny ratios cannot underflow.
 */
export function geomean(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  let meanLog = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (!(x > 0)) return NaN;
    meanLog += (Math.log(x) - meanLog) / (i + 1);
  }
  return Math.exp(meanLog);
}

/**
 * Holm-Bonferroni adjusted p-values, in the order given. Why: with 70 comparisons (ten
 * stages at seven sizes) about 3 will look "significant" at 0.05 by luck alone; rejecting
 * where the adjusted p <= alpha keeps the chance of even one false claim in the whole
 * family at alpha. Sorted ascending, the i-th smallest (from 0) is multiplied by (m - i),
 * then made non-decreasing and capped at 1.
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  for (const p of pValues) {
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`p-values must be in [0, 1], got ${String(p)}`);
  }
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
