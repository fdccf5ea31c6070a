// Result sets into benchstat's comparison rows (old vs new), the text table, and
// `npm run compare` end to end.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { compareResults } from '../src/core/results/analysis/comparison.ts';
import { formatComparisonReport } from '../src/core/results/text/report-text.ts';
import { holm } from '../src/core/stats/index.ts';
import { around, results } from './fixtures/few-runs.ts';

describe('compareResults: old vs new', () => {
  const old = results([
    ['04-state-locals', 1024, around(1000)],
    ['04-state-locals', 65536, around(60000)],
    ['05-no-copies', 1024, around(800)],
  ]);
  const neu = results([
    ['04-state-locals', 1024, around(900)],
    ['04-state-locals', 65536, around(60000)],
  ]);
  const report = compareResults(old, neu);
  const [secs, bytes] = report.tables;

  test('one table per unit, one row per contestant and size, benchstat’s numbers', () => {
    expect(report.tables.map((t) => t.unit)).toEqual(['sec/op', 'B/s']);
    expect(secs.rows.map((r) => [r.contestant, r.size])).toEqual([
      ['04-state-locals', 1024],
      ['04-state-locals', 65536],
      ['05-no-copies', 1024],
    ]);
    const [faster, same, gone] = secs.rows;
    // Medians 1000 ns and 900 ns: (900/1000 - 1) * 100 = -10%; 10 vs 10 without overlap
    // gives the smallest exact p, 2/C(20,10) = 2/184756.
    expect(faster.old!.center).toBeCloseTo(1000e-9, 18);
    expect(faster.deltaPct).toBeCloseTo(-10, 9);
    expect(faster.p).toBeCloseTo(2 / 184756, 15);
    expect(faster.significant).toBe(true);
    // Identical samples: U sits at the center, p = 1, "~".
    expect(same).toMatchObject({ p: 1, significant: false, deltaPct: null, rawDeltaPct: 0 });
    expect(gone).toMatchObject({ new: null, p: null, adjustedP: null, comparison: null });
  });

  test('Holm over the rows of a table, beside the raw p', () => {
    const ps = secs.rows.filter((r) => r.p !== null).map((r) => r.p!);
    expect(secs.rows.filter((r) => r.p !== null).map((r) => r.adjustedP)).toEqual(holm(ps));
    expect(secs.rows[0].adjustedP).toBeCloseTo((2 * 2) / 184756, 15);
  });

  test('geomean of the ratios, with benchstat’s warning when a baseline row has no partner', () => {
    // Ratios 0.9 and 1: sqrt(0.9) = 0.94868 -> -5.13%.
    expect(secs.geomean.deltaPct).toBeCloseTo((Math.sqrt(0.9) - 1) * 100, 9);
    expect(secs.geomean.newWarnings).toEqual(['benchmark set differs from baseline; geomeans may not be comparable']);
    // B/s is the reciprocal: 1/0.9 -> +11.1% for the first row.
    expect(bytes.rows[0].deltaPct).toBeCloseTo((1 / 0.9 - 1) * 100, 6);
  });

  test('as text: benchstat’s layout, with the Holm p inside the parentheses', () => {
    const text = formatComparisonReport(report, { holm: true });
    // One prefix per row, set by the smaller value, as benchstat does: 1000.0n beside 900.0n.
    expect(text).toContain('BLAKE3/stage=04-state-locals/size=1KiB    1000.0n ± 0%   900.0n ± 0%  -10.00% (p=0.000 n=10 holm=0.000)');
    expect(text).toContain('BLAKE3/stage=04-state-locals/size=64KiB    60.00µ ± 0%   60.00µ ± 0%        ~ (p=1.000 n=10 holm=1.000)');
    expect(text).toContain('BLAKE3/stage=05-no-copies/size=1KiB        800.0n ± 0%\n');
    expect(text).toContain('¹ benchmark set differs from baseline; geomeans may not be comparable');
  });
});


describe('npm run compare', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const compare = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/compare.ts', ...args], { cwd: root, encoding: 'utf8' });

  test('--json: one object per row, Go text in, benchstat’s numbers out', () => {
    const r = compare('tests/golden/old.txt', 'tests/golden/new.txt', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const rows = r.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const clear = rows.find((row) => row.name === 'Golden/case=n10-clear' && row.unit === 'sec/op');
    // benchstat: "1.719µ ± 0%   1.424µ ± 1%  -17.16% (p=0.000 n=10)".
    expect(clear.old.median).toBeCloseTo(1.719e-6, 9);
    expect(clear.deltaPct).toBeCloseTo(-17.16, 2);
    expect(clear).toMatchObject({ significant: true, old: { n: 10 }, new: { n: 10 } });
    const tiny = rows.find((row) => row.name === 'Golden/case=n3-separated');
    expect(tiny.old).toMatchObject({ lo: null, hi: null, n: 3 });
    expect(rows.filter((row) => row.name === 'geomean')).toHaveLength(2);
  });

  test('--alpha takes its value after = or as the next argument; a stricter alpha claims less', () => {
    const significant = (...args: string[]) => {
      const r = compare('tests/golden/old.txt', 'tests/golden/new.txt', '--json', ...args);
      expect(r.stderr).toBe('');
      return r.stdout.trim().split('\n').map((line) => JSON.parse(line)).filter((row) => row.significant).length;
    };
    const strict = significant('--alpha', '0.0001');
    expect(significant('--alpha=0.0001')).toBe(strict);
    expect(strict).toBeLessThan(significant());
    const missing = compare('tests/golden/old.txt', 'tests/golden/new.txt', '--alpha');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^compare: --alpha needs a number from 0 to 1\n/);
  });

  test('unreadable input: a message naming the file, exit status 1; bad usage: 2', () => {
    const missing = compare('tests/golden/no-such-file.txt', 'tests/golden/new.txt');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe('compare: tests/golden/no-such-file.txt: no such file\n');
    const usage = compare('tests/golden/old.txt');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/expected two files, OLD and NEW; got 1\nusage: npm run compare/);
  });
});
