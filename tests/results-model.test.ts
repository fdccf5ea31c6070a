// The results pages' model and tables: built from a small hand-made document whose
// medians and ratios can be checked by hand.
import { describe, expect, it } from 'vitest';
import { BLAKE3_WASM } from '../steps/baseline-info.ts';
import { RESULTS_FORMAT, RESULTS_VERSION, type Results, type RunResult } from '../src/core/bench/results.ts';
import { niceCeil, niceFloor, tickNumber, wrapLabel } from '../src/app/ui/charts/configs.ts';
import {
  articleSpeedupBetween,
  baselineRows,
  buildModel,
  cellKey,
  defaultSize,
  needsLogScale,
  ratioRange,
  stepRows,
} from '../src/core/results/analysis/model.ts';
import { baselineTable, estimateText, Footnotes, stepTable, throughputTable, twoSetTable } from '../src/core/results/text/figure-tables.ts';
import { compareResults } from '../src/core/results/analysis/comparison.ts';
import { chromiumEnvironment } from './fixtures/environment.ts';
import { skipsStages } from '../src/core/results/analysis/step-label.ts';

/** Ten samples spread ±2% around `ns`, median exactly `ns`. */
function around(ns: number): number[] {
  return [0.98, 0.985, 0.99, 0.995, 1, 1, 1.005, 1.01, 1.015, 1.02].map((f) => ns * f);
}

function run(contestant: string, size: number, nsPerOp: number[], extra: Partial<RunResult> = {}): RunResult {
  return { contestant, size, status: 'ok', iterations: 100, nsPerOp, ...extra };
}

function doc(runs: RunResult[]): Results {
  return {
    format: RESULTS_FORMAT,
    version: RESULTS_VERSION,
    env: chromiumEnvironment({ userAgent: 'test' }),
    config: { sizes: [1024, 65536], rounds: 10, sampleTargetMs: 20, timeBoxMs: 5000 },
    contestants: [
      { id: '00-reference', title: '0. Reference port', kind: 'stage', version: 'a' },
      { id: '02-precomputed-permutations', title: '2. Precomputed permutations', kind: 'stage', version: 'b' },
      { id: '01-read-words-full', title: '1. Full-block word reader', kind: 'stage', version: 'c' },
      { id: BLAKE3_WASM.id, title: BLAKE3_WASM.title, kind: 'baseline', version: BLAKE3_WASM.version },
    ],
    runs,
  };
}

// 1 KiB: stage 0 takes 4000 ns, stage 1 2000 ns, stage 2 1000 ns, blake3-wasm 500 ns.
// 64 KiB: stage 0 was time-boxed after three samples, stage 2 failed.
const results = doc([
  run('00-reference', 1024, around(4000)),
  run('01-read-words-full', 1024, around(2000)),
  run('02-precomputed-permutations', 1024, around(1000)),
  run('blake3-wasm', 1024, around(500)),
  run('00-reference', 65536, [5e7, 5.1e7, 4.9e7], { status: 'timeboxed', reason: 'the 5 s time box ran out' }),
  run('01-read-words-full', 65536, around(128_000)),
  run('02-precomputed-permutations', 65536, [], { status: 'failed', reason: 'wrong digest at 64 KiB' }),
  run('blake3-wasm', 65536, around(32_000)),
]);

describe('results model', () => {
  const model = buildModel(results);

  it('orders stages by lesson, then the baselines', () => {
    expect(model.contestants.map((c) => c.id)).toEqual(['00-reference', '01-read-words-full', '02-precomputed-permutations', 'blake3-wasm']);
    expect(model.sizes).toEqual([1024, 65536]);
  });

  it('reports median throughput in MB/s, and nothing for a failed run', () => {
    // 1024 bytes in 1000 ns = 1.024 GB/s = 1024 MB/s.
    expect(model.throughput.get(cellKey('02-precomputed-permutations', 1024))!.center).toBeCloseTo(1024, 6);
    expect(model.throughput.get(cellKey('blake3-wasm', 65536))!.center).toBeCloseTo(65536 / 32, 6);
    expect(model.throughput.has(cellKey('02-precomputed-permutations', 65536))).toBe(false);
    // Time-boxed samples are kept, with the warning that three are too few for an interval.
    const boxed = model.throughput.get(cellKey('00-reference', 65536))!;
    expect(boxed.n).toBe(3);
    expect(boxed.warnings.join()).toMatch(/need >= 6 samples/);
  });

  it('compares each stage with the previous one, with the article figure over skipped stages', () => {
    const rows = stepRows(model, 1024);
    expect(rows.map((r) => [r.previous, r.contestant])).toEqual([
      ['00-reference', '01-read-words-full'],
      ['01-read-words-full', '02-precomputed-permutations'],
    ]);
    expect(rows[0].speedup).toBeCloseTo(2, 9);
    expect(rows[0].article).toBeNull(); // the article gave no number for step 1
    expect(rows[1].article).toBe(1.6);
    expect(rows[1].comparison.significant).toBe(true);
    expect(rows[1].comparison.rawDeltaPct).toBeCloseTo(100, 6); // twice the throughput
    expect(articleSpeedupBetween('02-precomputed-permutations', '04-state-locals')).toBeCloseTo(1.24 * 2.2, 12);
    expect(articleSpeedupBetween('04-state-locals', '02-precomputed-permutations')).toBeNull();
  });

  it('puts every contestant against blake3-wasm', () => {
    const rows = baselineRows(model, 1024);
    expect(rows.map((r) => [r.contestant, Number(r.ratio.toFixed(6))])).toEqual([
      ['00-reference', 0.125],
      ['01-read-words-full', 0.25],
      ['02-precomputed-permutations', 0.5],
      ['blake3-wasm', 1],
    ]);
    expect(rows[3].comparison).toBeNull();
    // Without blake3-wasm at that size there is nothing to compare with.
    expect(baselineRows(buildModel(doc([run('00-reference', 1024, around(1))])), 1024)).toEqual([]);
  });

  it('groups the reasons of runs that did not finish cleanly', () => {
    expect(model.notes.map((n) => [n.contestant, n.status, n.sizes])).toEqual([
      ['00-reference', 'timeboxed', [65536]],
      ['02-precomputed-permutations', 'failed', [65536]],
    ]);
  });

  it('opens per-size charts where the most rows exist', () => {
    expect(defaultSize(model, (s) => stepRows(model, s).length)).toBe(1024);
    expect(defaultSize(model, (s) => baselineRows(model, s).length)).toBe(1024);
    expect(defaultSize(model, () => 0)).toBeNull();
  });

  it('widens ratios by both intervals, and gives none without them', () => {
    const a = { center: 10, lo: 9, hi: 11, n: 10, warnings: [] };
    const b = { center: 5, lo: 4, hi: 6, n: 10, warnings: [] };
    expect(ratioRange(a, b)).toEqual([1.5, 11 / 4]);
    expect(ratioRange({ ...a, hi: Infinity }, b)).toBeNull();
  });

  it('chooses a log axis only for wide ranges, on round bounds', () => {
    expect(needsLogScale([1, 10])).toBe(false);
    expect(needsLogScale([0.1, 300])).toBe(true);
    expect(needsLogScale([5, Infinity, -Infinity])).toBe(false);
    expect([niceFloor(0.034), niceFloor(7), niceFloor(200)]).toEqual([0.02, 5, 200]);
    expect([niceCeil(0.034), niceCeil(7), niceCeil(1000)]).toEqual([0.05, 10, 1000]);
    expect([tickNumber(0.02), tickNumber(5), tickNumber(2000)]).toEqual(['0.02', '5', '2,000']);
  });

  it('wraps a long bar name at spaces for a phone-width axis, keeping every word', () => {
    expect(wrapLabel('2 Precomputed permutations', 16)).toEqual(['2 Precomputed', 'permutations']);
    expect(wrapLabel('Rust → WASM (blake3-wasm)', 16)).toEqual(['Rust → WASM', '(blake3-wasm)']);
    expect(wrapLabel('5 No copies', 16)).toEqual(['5 No copies']);
    expect(wrapLabel('an-unbreakably-long-name x', 16)).toEqual(['an-unbreakably-long-name', 'x']);
  });
});

describe('results tables', () => {
  const model = buildModel(results);

  it('prints medians with their interval as benchstat does, and says why a cell is empty', () => {
    const table = throughputTable(model);
    expect(table.columns.map((c) => c.label)).toEqual(['contestant', '1 KiB', '64 KiB']);
    const byName = Object.fromEntries(table.rows.map((row) => [row[0].text, row.slice(1)]));
    expect(byName['2. Precomputed permutations'][0].text).toBe('1,024 ± 2%');
    expect(byName['2. Precomputed permutations'][1]).toMatchObject({ text: 'failed', tone: 'bad', title: 'wrong digest at 64 KiB' });
    // The time-boxed cell keeps its numbers and gets two footnotes: too few samples, and why it stopped.
    const boxed = byName['0. Reference port'][1];
    expect(boxed.text).toMatch(/ ± ∞$/);
    expect(boxed.mark).toBe('¹²');
    expect(table.notes[1]).toBe('time-boxed: the 5 s time box ran out');
  });

  it('does not repeat the status in a footnote whose reason already says it', () => {
    const stopped = run('00-reference', 1024, around(1000).slice(0, 3), { status: 'cancelled', reason: 'cancelled after 3 of 10 samples' });
    const table = throughputTable(buildModel(doc([stopped])));
    expect(table.notes).toContain('cancelled after 3 of 10 samples');
    expect(table.notes.some((note) => note.startsWith('cancelled: '))).toBe(false);
  });

  it('marks noise with "~" and real changes with a signed, toned delta', () => {
    const noisy = buildModel(
      doc([run('00-reference', 1024, around(1000)), run('01-read-words-full', 1024, around(1000).reverse())]),
    );
    const [same] = stepTable(stepRows(noisy, 1024), 1024).rows;
    expect(same[3]).toMatchObject({ text: '~', tone: 'muted' });
    expect(same[6].tone).toBe('muted'); // the speedup of a change that is noise is greyed
    const [, faster] = stepTable(stepRows(model, 1024), 1024).rows;
    expect(faster[3]).toMatchObject({ text: '+100.00%', tone: 'good' });
    expect(faster[4].text).toBe('p<0.001 n=10'); // never "p=0.000", which reads as impossible
    expect(faster[7].text).toBe('1.60x');
    const versus = baselineTable(baselineRows(model, 1024), 1024).rows;
    expect(versus[0][3]).toMatchObject({ text: '-87.50%', tone: 'bad' });
    expect(versus[0][2].tone).toBeUndefined();
    const noiseVersus = baselineTable(baselineRows(buildModel(doc([run('00-reference', 1024, around(1000)), run('blake3-wasm', 1024, around(1000).reverse())])), 1024), 1024).rows;
    expect(noiseVersus[0][3].text).toBe('~');
    expect(noiseVersus[0][2].tone).toBe('muted'); // as in the step table: a ratio that is noise is greyed
    expect(versus[3][3]).toMatchObject({ text: 'baseline' });
  });

  it('compares two result sets row by row with a geomean', () => {
    const faster = doc(results.runs.map((r) => ({ ...r, nsPerOp: r.nsPerOp.map((ns) => ns / 2) })));
    const report = compareResults(results, faster, { oldLabel: 'old', newLabel: 'new' });
    const table = twoSetTable(report.tables.find((t) => t.unit === 'B/s')!, ['old', 'new'], (id) => id, 1024);
    expect(table.rows).toHaveLength(5); // four contestants at 1 KiB and the geomean
    expect(table.rows[0][3]).toMatchObject({ text: '+100.00%', tone: 'good' });
    expect(table.rows[4][0].text).toBe('geomean (all sizes)');
    expect(table.rows[4][3].text).toBe('+100.00%');
  });

  it('numbers each distinct warning once', () => {
    const notes = new Footnotes();
    expect(notes.mark(['a', 'b'])).toBe('¹²');
    expect(notes.mark(['b'])).toBe('²');
    expect(notes.notes).toEqual(['a', 'b']);
    expect(estimateText({ center: 435.2, lo: 430, hi: 440, n: 10, warnings: [] })).toBe('435 ± 1%');
  });
});

describe('a step that spans stages not measured', () => {
  // Only stages 1 and 3: stage 3 is compared with stage 1, across stage 2.
  const spanning = buildModel({
    ...doc([run('01-read-words-full', 1024, around(3000)), run('03-inline-round', 1024, around(1000))]),
    contestants: [
      { id: '01-read-words-full', title: '1. Full-block word reader', kind: 'stage', version: 'c' },
      { id: '03-inline-round', title: '3. Inline round into compress', kind: 'stage', version: 'd' },
    ],
  });

  it('names both stages on the row and multiplies the article over the steps it spans', () => {
    const rows = stepRows(spanning, 1024);
    expect(rows).toHaveLength(1);
    const [row] = stepTable(rows, 1024).rows;
    expect(row[0].text).toBe('3 vs 1 · Inline round into compress');
    // The article: 1.6x for stage 2, 1.24x for stage 3, 1.984x for both.
    expect(row[7].text).toBe('1.98x');
    expect(skipsStages(rows[0])).toBe(true);
    expect(skipsStages({ contestant: '02-precomputed-permutations', previous: '01-read-words-full' })).toBe(false);
  });
});
