// The stopping rule of "run until the answer is clear": the widest 95% interval of any
// step's speedup, against the width asked for.
import { describe, expect, it } from 'vitest';
import { formatHalfWidth, isClear, widest } from '../src/core/results/analysis/until-clear.ts';
import { fullResults } from './fixtures/full-results.ts';

function withSamples(n: number, spread = 1) {
  const results = fullResults();
  return {
    ...results,
    // Samples spread around the first one by up to spread × 1% × their index, alternately up and down.
    runs: results.runs.map((run) => ({ ...run, nsPerOp: run.nsPerOp.slice(0, n).map((_, i) => run.nsPerOp[0] * (1 + (i % 2 ? 1 : -1) * 0.01 * spread * i)) })),
  };
}

describe('run until the answer is clear', () => {
  it('is never clear while an interval is unbounded (fewer than 6 samples)', () => {
    const least = widest(withSamples(5))!;
    expect(least.halfWidth).toBe(Infinity);
    expect(isClear(withSamples(5), 50)).toBe(false);
  });

  it('names the step with the widest interval, and compares it with the width asked for', () => {
    const tight = withSamples(10, 0.1);
    const loose = withSamples(10, 3);
    expect(widest(loose)!.halfWidth).toBeGreaterThan(widest(tight)!.halfWidth);
    expect(widest(loose)!.what).toMatch(/^\d+ vs \d+ · .+ at \d+ (B|KiB|MiB)$/);
    expect(isClear(tight, 3)).toBe(true);
    expect(isClear(loose, 3)).toBe(false);
  });

  it('writes widths the way the page shows them', () => {
    expect(formatHalfWidth(0.031)).toBe('±3%');
    expect(formatHalfWidth(0.002)).toBe('±1%');
    expect(formatHalfWidth(Infinity)).toBe('±∞');
  });
});
