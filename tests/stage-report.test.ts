// One run as the bench CLI tells it: each stage against the one before it and against
// the baseline, and its text.

import { describe, expect, test } from 'vitest';
import { compareStages } from '../src/core/results/analysis/stage-report.ts';
import { formatStageReport } from '../src/core/results/text/report-text.ts';
import { holm } from '../src/core/stats/index.ts';
import { around, results } from './fixtures/few-runs.ts';

describe('compareStages: one run, each stage against the one before and the baseline', () => {
  const run = results(
    [
      ['00-reference', 1024, around(3000)],
      ['01-read-words-full', 1024, around(2000)],
      ['02-precomputed-permutations', 1024, null],
      ['03-inline-round', 1024, around(1990)],
      ['blake3-wasm', 1024, around(10)],
      ['00-reference', 96, around(400)],
      ['01-read-words-full', 96, around(300)],
    ],
    { 'blake3-wasm': 'baseline' },
  );
  const report = compareStages(run);
  const at = (id: string, size: number) => report.rows.find((r) => r.contestant === id && r.size === size)!;

  test('the previous stage is the nearest earlier one with samples at that size', () => {
    expect(report.sizes).toEqual([96, 1024]);
    expect(at('00-reference', 1024).vsPrevious).toBeNull();
    expect(at('01-read-words-full', 1024).vsPrevious!.against).toBe('00-reference');
    // Stage 2 failed at 1 KiB: stage 3 is compared with stage 1.
    expect(report.rows.some((r) => r.contestant === '02-precomputed-permutations')).toBe(false);
    expect(at('03-inline-round', 1024).vsPrevious!.against).toBe('01-read-words-full');
    expect(at('blake3-wasm', 1024)).toMatchObject({ kind: 'baseline', vsPrevious: null, vsBaseline: null });
  });

  test('Holm families: all stage steps together, all baseline comparisons together', () => {
    const steps = report.rows.filter((r) => r.vsPrevious).map((r) => r.vsPrevious!);
    expect(steps).toHaveLength(3); // 01 at 1 KiB, 03 at 1 KiB, 01 at 96 B
    expect(steps.map((s) => s.adjustedP)).toEqual(holm(steps.map((s) => s.comparison.p)));
    for (const s of steps) expect(s.holmSignificant).toBe(!(s.adjustedP > 0.05));
    const vsBase = report.rows.filter((r) => r.vsBaseline).map((r) => r.vsBaseline!);
    expect(vsBase).toHaveLength(3); // 00, 01 and 03 at 1 KiB; no baseline at 96 B
    expect(vsBase.map((s) => s.adjustedP)).toEqual(holm(vsBase.map((s) => s.comparison.p)));
  });

  test('geomean over sizes of each stage’s ratio to the previous one', () => {
    // 01 vs 00: 2000/3000 at 1 KiB, 300/400 at 96 B -> sqrt(2/3 * 3/4) = sqrt(0.5) -> -29.29%.
    const g = report.geomeans.find((x) => x.contestant === '01-read-words-full')!;
    expect(g.vsPreviousPct).toBeCloseTo((Math.sqrt(0.5) - 1) * 100, 6);
  });

  test('as text: one block per size, then the geomeans', () => {
    const text = formatStageReport(report);
    expect(text).toMatch(/^size=96B +│ +sec\/op +│ vs previous stage +│ vs blake3-wasm\n/);
    expect(text).toContain('01-read-words-full   300.0n ± 0%   -25.00% (p=0.000 n=10 holm=0.000)');
    expect(text).toContain('size=1KiB');
    expect(text).toMatch(/01-read-words-full +-29\.29%/);
  });
});
