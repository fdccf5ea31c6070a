// Our statistics against the real Go tools, on the sample sets in tests/golden/ (written
// by scripts/golden/make-goldens.ts; see tests/golden/SOURCE.txt for the versions).
// Full-precision numbers (benchmath.json, and the centers and geomeans in benchstat's
// CSV) must agree to 1e-9 relative; what benchstat only prints rounded (the "± 2%"
// range, "-17.20%", "p=0.000") must agree character for character at that precision.

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseResultsJson } from '../src/core/results/io/validate.ts';
import { compareSampleSets, samplesFromResults, samplesFromText, type ComparisonReport } from '../src/core/results/analysis/comparison.ts';
import { formatComparisonReport } from '../src/core/results/text/report-text.ts';
import { toBenchfmt } from '../src/core/results/io/benchfmt-write.ts';
import { compareSamples, formatDelta, formatFixed, formatP, formatPlusMinus, summarize } from '../src/core/stats/index.ts';

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');

/** Within 1e-9 relative (infinities and zeros must match exactly). */
function expectClose(actual: number, expected: number, what: string): void {
  if (actual === expected) return;
  const scale = Math.max(Math.abs(actual), Math.abs(expected));
  expect(Math.abs(actual - expected) / scale, `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);
}

/** benchmath.json writes infinities as strings (JSON has no Infinity). */
const num = (x: number | string) => (typeof x === 'number' ? x : Number(x));

interface GoSummary {
  center: number;
  lo: number | string;
  hi: number | string;
  range: string;
  warnings: string[];
}
interface GoCase {
  name: string;
  old: GoSummary;
  new?: GoSummary;
  p?: number;
  delta?: string;
  compared?: string;
  warnings: string[];
}
interface InputCase {
  name: string;
  old: number[];
  new: number[];
  confidence?: number;
  alpha?: number;
}

const inputs: InputCase[] = JSON.parse(golden('cases.json'));
const expected: GoCase[] = JSON.parse(golden('benchmath.json'));

describe('against golang.org/x/perf/benchmath at full precision', () => {
  test('the golden files hold every case', () => {
    expect(expected.map((c) => c.name)).toEqual(inputs.map((c) => c.name));
    expect(inputs.filter((c) => c.name.startsWith('orders-'))).toHaveLength(120);
  });

  test.each(inputs.map((c, i) => [c.name, c, expected[i]] as const))('%s', (_name, input, go) => {
    const confidence = input.confidence ?? 0.95;
    const check = (samples: number[], want: GoSummary, side: string) => {
      const s = summarize(samples, confidence);
      expectClose(s.center, want.center, `${side} median`);
      expectClose(s.lo, num(want.lo), `${side} lower bound`);
      expectClose(s.hi, num(want.hi), `${side} upper bound`);
      expect(formatPlusMinus(s)).toBe(want.range);
      expect(s.warnings).toEqual(want.warnings);
    };
    check(input.old, go.old, 'old');
    if (input.new.length === 0) return;
    check(input.new, go.new!, 'new');
    const cmp = compareSamples(input.old, input.new, input.alpha ?? 0.05);
    if (go.p === 0) expect(cmp.p).toBe(0);
    else expectClose(cmp.p, go.p!, 'p');
    expect(formatDelta(cmp)).toBe(go.delta);
    expect(formatP(cmp)).toBe(go.compared);
    expect(cmp.warnings).toEqual(go.warnings);
  });

  test("the median interval's order statistics for n = 1..120 (samples 1..n, so each bound is its order)", () => {
    // Spot-check the table by hand: n = 6 is the first with a finite 95% interval,
    // [x(1), x(6)], covering 1 - 2/64 = 96.9%; n = 10 gives [x(2), x(9)].
    const orders = inputs
      .map((c, i) => [c, expected[i]] as const)
      .filter(([c]) => c.name.startsWith('orders-'))
      .map(([c, go]) => [c.old.length, num(go.old.lo), num(go.old.hi)]);
    expect(orders[5]).toEqual([6, 1, 6]);
    expect(orders[9]).toEqual([10, 2, 9]);
    for (const [n, lo, hi] of orders) {
      const s = summarize(Array.from({ length: n }, (_, i) => i + 1));
      expect([n, s.lo, s.hi]).toEqual([n, lo, hi]);
    }
  });
});

/** Minimal RFC 4180 reader: benchstat quotes only fields with commas or quotes. */
function parseCsv(text: string): string[][] {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => {
      const fields: string[] = [];
      let field = '';
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i];
        if (quoted) {
          if (ch === '"' && line[i + 1] === '"') field += line[i++];
          else if (ch === '"') quoted = false;
          else field += ch;
        } else if (ch === '"') quoted = true;
        else if (ch === ',') {
          fields.push(field);
          field = '';
        } else field += ch;
      }
      fields.push(field);
      return fields;
    });
}

function goldenReport(options: { alpha?: number; confidence?: number } = {}): ComparisonReport {
  return compareSampleSets(samplesFromText('old.txt', golden('old.txt')), samplesFromText('new.txt', golden('new.txt')), options);
}

/** Every data row of benchstat's CSV against ours; returns the warnings benchstat would print for our report. */
function checkCsv(csv: string, report: ComparisonReport): string {
  const rows = parseCsv(csv);
  const warnings: string[] = [];
  let table = -1;
  let checked = 0;
  rows.forEach((fields, i) => {
    const line = i + 1;
    if (fields[1] === 'sec/op' || fields[1] === 'B/s') {
      table++;
      expect(fields[1]).toBe(report.tables[table].unit);
      return;
    }
    if (table < 0 || fields.length < 7 || fields[0] === '') return;
    const t = report.tables[table];
    if (fields[0] === 'geomean') {
      expectClose(t.geomean.old!, Number(fields[1]), 'old geomean');
      expectClose(t.geomean.new!, Number(fields[3]), 'new geomean');
      expect(`${formatFixed(t.geomean.deltaPct!, 2)}%`.replace(/^(?!-)/, '+')).toBe(fields[5]);
      return;
    }
    const row = t.rows.find((r) => r.name === fields[0]);
    expect(row, fields[0]).toBeDefined();
    const [, oldCenter, oldRange, newCenter, newRange, delta, p] = fields;
    expectClose(row!.old!.center, Number(oldCenter), `${row!.name} old`);
    expectClose(row!.new!.center, Number(newCenter), `${row!.name} new`);
    expect(formatPlusMinus(row!.old!)).toBe(oldRange);
    expect(formatPlusMinus(row!.new!)).toBe(newRange);
    expect(formatDelta(row!.comparison!)).toBe(delta);
    expect(formatP(row!.comparison!)).toBe(p);
    for (const w of row!.old!.warnings) warnings.push(`B${line}: ${w}`);
    for (const w of row!.new!.warnings) warnings.push(`D${line}: ${w}`);
    for (const w of row!.comparison!.warnings) warnings.push(`F${line}: ${w}`);
    checked++;
  });
  expect(checked).toBe(report.tables.reduce((n, t) => n + t.rows.length, 0));
  return warnings.map((w) => `${w}\n`).join('');
}

describe('against `benchstat old.txt new.txt`', () => {
  test('-format csv: medians and geomeans to 1e-9, ranges, deltas, p and n as printed, and the same warnings', () => {
    const report = goldenReport();
    expect(report.tables.map((t) => t.unit)).toEqual(['sec/op', 'B/s']);
    expect(checkCsv(golden('benchstat.csv'), report)).toBe(golden('benchstat.warnings.txt'));
  });

  test('-format csv -confidence 0.9 -alpha 0.01', () => {
    const report = goldenReport({ confidence: 0.9, alpha: 0.01 });
    expect(checkCsv(golden('benchstat-c90-a01.csv'), report)).toBe(golden('benchstat-c90-a01.warnings.txt'));
  });

  test('text output: our table is character for character benchstat’s', () => {
    expect(formatComparisonReport(goldenReport())).toBe(golden('benchstat.txt'));
  });
});

describe('against `benchstat -col /stage` on our own Go export', () => {
  const check = parseResultsJson(golden('results.json'));
  if (!check.ok) throw new Error(check.error);
  const results = check.results;

  test('toBenchfmt writes exactly the file benchstat read', () => {
    expect(toBenchfmt(results)).toBe(golden('results.txt'));
  });

  test('each stage against the first column, from the JSON results', () => {
    // benchstat compares every column with the first (00-reference); rows are sizes.
    const set = samplesFromResults(results, 'results');
    const rows = parseCsv(golden('stages.csv'));
    const header = rows.find((r) => r[1] === '00-reference')!;
    const columns = header.map((name, i) => [name, i] as const).filter(([name]) => name !== '');
    let unit = '';
    let checked = 0;
    for (const fields of rows) {
      if (fields[1] === 'sec/op' || fields[1] === 'B/s') unit = fields[1];
      const size = /^BLAKE3\/size=(\w+)-2$/.exec(fields[0])?.[1];
      if (!size) continue;
      const values = (stage: string) => set.rows.find((r) => r.unit === unit && r.name === `BLAKE3/stage=${stage}/size=${size}`)!.values;
      const base = values('00-reference');
      for (const [stage, col] of columns) {
        const s = summarize(values(stage));
        expectClose(s.center, Number(fields[col]), `${stage} ${size} ${unit}`);
        expect(formatPlusMinus(s)).toBe(fields[col + 1]);
        if (stage === '00-reference') continue;
        const cmp = compareSamples(base, values(stage));
        expect(formatDelta(cmp)).toBe(fields[col + 2]);
        expect(formatP(cmp)).toBe(fields[col + 3]);
        checked++;
      }
    }
    expect(checked).toBe(2 * 3 * 3); // two units, three sizes, three columns after the base
  });
});

test("formatFixed rounds as Go's strconv does (exact halves to even)", () => {
  const cases: { x: number | string; digits: number; text: string }[] = JSON.parse(golden('fixed.json'));
  expect(cases.length).toBeGreaterThan(10);
  for (const c of cases) expect(formatFixed(num(c.x), c.digits), `${c.x} to ${c.digits}`).toBe(c.text);
});
