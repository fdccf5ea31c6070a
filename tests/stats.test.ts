// Small cases worked by hand, each with its arithmetic, so a reader can check the
// statistics without Go. tests/stats-golden.test.ts checks the same functions against
// the real benchstat on larger samples.

import { describe, expect, test } from 'vitest';
import {
  TextTable,
  commonScale,
  compareSamples,
  erfc,
  formatDelta,
  formatFixed,
  formatP,
  formatPlusMinus,
  formatScaledValue,
  geomean,
  holm,
  mannWhitney,
  medianOrders,
  minSamplesToDetect,
  normalCdf,
  normalQuantile,
  summarize,
  superscript,
  tidy,
  unitClass,
} from '../src/core/stats/index.ts';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('median and its confidence interval', () => {
  test('median: the middle value, or halfway between the two middle values', () => {
    expect(summarize([3, 1, 2]).center).toBe(2);
    // Hyndman-Fan definition 8: h = 1/3 + (n + 1/3)/2 = 2.5 for n = 4 -> x(2) + 0.5 (x(3) - x(2)).
    expect(summarize([4, 1, 3, 2]).center).toBe(2.5);
  });

  test('n = 6: the first n with a finite 95% interval, [min, max]', () => {
    // Binomial(6, 1/2) counts: 1 6 15 20 15 6 1 (of 64). Start at the mode k = 3 (20),
    // then add 15 (left, ties go left), 15, 6, 6: 62/64 = 0.96875 >= 0.95.
    // Band [1, 6) of k -> bounds x(1) and x(6).
    const orders = medianOrders(6, 0.95);
    expect(orders).toEqual({ lo: 1, hi: 6, confidence: 62 / 64 });
    const s = summarize([10, 14, 11, 13, 12, 15]);
    expect(s).toEqual({ center: 12.5, lo: 10, hi: 15, n: 6, warnings: [] });
  });

  test('n = 5 is too small at 95%: the lower bound is -Infinity, with benchstat’s warning', () => {
    // Counts 1 5 10 10 5 1 (of 32): 10 + 10 + 5 + 5 = 30/32 = 0.9375 < 0.95, so one more
    // step takes k = 0 (1/32): 31/32, and the band [0, 5) starts below the smallest sample.
    expect(medianOrders(5, 0.95)).toEqual({ lo: 0, hi: 5, confidence: 31 / 32 });
    const s = summarize([1, 2, 3, 4, 5]);
    expect([s.lo, s.hi]).toEqual([-Infinity, 5]);
    expect(s.warnings).toEqual(['need >= 6 samples for confidence interval at level 0.95']);
    expect(formatPlusMinus(s)).toBe('∞');
  });

  test('n = 10: [x(2), x(9)], covering 1 - 2 (1 + 10)/1024 = 97.9%', () => {
    expect(medianOrders(10, 0.95)).toEqual({ lo: 2, hi: 9, confidence: 1 - 22 / 1024 });
    expect(summarize(range(1, 10))).toMatchObject({ center: 5.5, lo: 2, hi: 9 });
  });

  test('above n = 30 the normal approximation picks the orders', () => {
    // n = 100: mean 50, sd 5; 50 - 1.96 * 5 = 40.2 -> band from floor(40.2 - 0.5) + 1 = 40,
    // symmetric upper end ceil(59.8 - 0.5) + 1 = 61, and one step less on the right still
    // covers 95%: x(40) .. x(60).
    expect(medianOrders(100, 0.95)).toMatchObject({ lo: 40, hi: 60 });
  });

  test('bad input is refused with a message', () => {
    expect(() => summarize([])).toThrow(RangeError);
    expect(() => summarize([1, NaN])).toThrow(/numbers/);
    expect(() => summarize([1, 2], 1.5)).toThrow(/confidence/);
  });
});

describe('Mann-Whitney U test', () => {
  test('3 vs 3, no overlap: p = 2 * 1/C(6,3) = 0.1', () => {
    // U for [1,2,3] against [4,5,6] is 0 (no pair where the first is larger); exactly 1 of
    // the 20 ways to split six ranks gives U <= 0, and the test is two-sided.
    const r = mannWhitney([1, 2, 3], [4, 5, 6]);
    expect(r).toEqual({ ok: true, n1: 3, n2: 3, u: 0, p: 0.1, exact: true });
  });

  test('ties count 1/2 and the exact distribution follows the tie pattern: p = 0.3', () => {
    // Pooled: 1(a) 2(a) 2(a) 2(b) 3(b) 4(b). U = two a-b ties at 2 -> 1/2 + 1/2 = 1.
    // Of the 20 ways to pick three of the pattern {1}{2,2,2}{3}{4} for a, only "1 and two
    // of the 2s" (3 ways) gives U <= 1: P = 3/20, two-sided p = 0.3.
    const r = mannWhitney([1, 2, 2], [2, 3, 4]);
    expect(r.ok && [r.u, r.p]).toEqual([1, 0.3]);
  });

  test('a smaller tail over half the mass, possible with ties, gives p = 1, not more', () => {
    // [4, 5] against [5]: U = 1/2 in 2 of the 3 arrangements, so P(U <= 1/2) = 2/3.
    const r = mannWhitney([4, 5], [5]);
    expect(r.ok && [r.u, r.p]).toEqual([0.5, 1]);
  });

  test('U at the center of its distribution gives p = 1', () => {
    const r = mannWhitney([1, 4], [2, 3]);
    expect(r.ok && [r.u, r.p]).toEqual([2, 1]);
  });

  test('51 vs 51 without ties uses the normal approximation with continuity correction', () => {
    // U = 0, mean 51*51/2 = 1300.5, sd = sqrt(51*51*103/12) = sqrt(22325.25) = 149.416...
    // z = (0 - 1300.5 + 0.5)/sd = -8.7005..., p = 2 Phi(z) = 3.30e-18 (Go: 3.3036815016661919e-18).
    const r = mannWhitney(range(1, 51), range(52, 102));
    expect(r.ok && r.exact).toBe(false);
    expect(r.ok && r.p).toBeCloseTo(2 * normalCdf(-1300 / Math.sqrt(22325.25)), 30);
    expect(r.ok && Math.abs(r.p / 3.3036815016661919e-18 - 1)).toBeLessThan(1e-9);
  });

  test('26 vs 26 with ties: the tie correction shrinks the variance', () => {
    // a = 13 ones and 13 twos, b = 13 twos and 13 threes. U = 13*13 ties at 2 = 84.5.
    // Tie groups 13, 26, 13: sum(t^3 - t) = 2184 + 17550 + 2184 = 21918.
    // sd = sqrt(26*26*(53 - 21918/(52*51))/12) = 50.20; z = (84.5 - 338 + 0.5)/sd = -5.04.
    const a = [...Array(13).fill(1), ...Array(13).fill(2)];
    const b = [...Array(13).fill(2), ...Array(13).fill(3)];
    const r = mannWhitney(a, b);
    const sd = Math.sqrt((26 * 26 * (53 - 21918 / (52 * 51))) / 12);
    expect(r.ok && r.u).toBe(84.5);
    expect(r.ok && r.p).toBe(2 * normalCdf(-253 / sd));
    expect(r.ok && Math.abs(r.p / 4.6603708468974488e-7 - 1)).toBeLessThan(1e-9); // Go's value
  });

  test('all values equal: no test, reported as data', () => {
    expect(mannWhitney([5, 5, 5], [5, 5])).toEqual({ ok: false, n1: 3, n2: 2, reason: 'all samples are equal' });
    expect(mannWhitney([], [1])).toMatchObject({ ok: false, reason: 'sample is too small' });
  });
});

describe('comparisons, as benchstat prints them', () => {
  test('3 vs 3 cannot reach p <= 0.05: "~" with the sample-size hint', () => {
    const c = compareSamples([1, 2, 3], [4, 5, 6]);
    expect(c).toMatchObject({ p: 0.1, significant: false, deltaPct: null, rawDeltaPct: 150, n1: 3, n2: 3 });
    expect(c.warnings).toEqual(['need >= 4 samples to detect a difference at alpha level 0.05']);
    expect(formatDelta(c)).toBe('~');
    expect(formatP(c)).toBe('p=0.100 n=3');
  });

  test('4 vs 4, no overlap: p = 2/70 = 0.029, and the delta is on the medians', () => {
    // Medians 2.5 and 12.5: (12.5/2.5 - 1) * 100 = +400%.
    const c = compareSamples([1, 2, 3, 4], [11, 12, 13, 14]);
    expect(c.p).toBeCloseTo(2 / 70, 15);
    expect(c).toMatchObject({ significant: true, deltaPct: 400, warnings: [] });
    expect(formatDelta(c)).toBe('+400.00%');
  });

  test('p equal to alpha counts as significant (benchstat prints "~" only when p > alpha)', () => {
    const c = compareSamples([1, 2, 3], [4, 5, 6], 0.1);
    expect(c.significant).toBe(true);
    expect(formatDelta(c)).toBe('+150.00%');
  });

  test('all samples equal: p = 1 with the reason', () => {
    const c = compareSamples([5, 5, 5, 5, 5, 5], [5, 5, 5, 5, 5, 5]);
    expect(c).toMatchObject({ p: 1, significant: false, rawDeltaPct: 0, warnings: ['all samples are equal'] });
  });

  test('the "need >= n samples" hint follows from the smallest p, 2/C(2n, n)', () => {
    // n = 3: 2/20 = 0.1; n = 4: 2/70 = 0.029; n = 5: 2/252 = 0.0079.
    expect(minSamplesToDetect(0.05)).toEqual({ op: '>=', n: 4 });
    expect(minSamplesToDetect(0.01)).toEqual({ op: '>=', n: 5 });
    expect(minSamplesToDetect(1e-9)).toEqual({ op: '>', n: 10 });
  });

  test('formats: "?" and "0.00%" deltas, p omitted when exactly 0, unequal n', () => {
    expect(formatDelta({ significant: true, oldCenter: 0, newCenter: 1 })).toBe('?');
    expect(formatDelta({ significant: true, oldCenter: 2, newCenter: 2 })).toBe('0.00%');
    expect(formatP({ p: 0, n1: 60, n2: 60 })).toBe('n=60');
    expect(formatP({ p: 0.0364, n1: 5, n2: 3 })).toBe('p=0.036 n=5+3');
  });

  test('bad input is refused', () => {
    expect(() => compareSamples([], [1])).toThrow(/old samples/);
    expect(() => compareSamples([1], [1], 2)).toThrow(/alpha/);
  });
});

describe('± range', () => {
  test('the larger side as a percentage of the median', () => {
    // max(103/100 - 1, 1 - 98/100) = 3%.
    expect(formatPlusMinus({ center: 100, lo: 98, hi: 103 })).toBe('3%');
    expect(formatPlusMinus({ center: 1, lo: -1, hi: 2 })).toBe('?');
    expect(formatPlusMinus({ center: 0, lo: 0, hi: 0 })).toBe('0%');
  });
});

describe('geomean and Holm', () => {
  test('geomean', () => {
    // exp((ln 1 + ln 4 + ln 16)/3) = exp(ln 64 / 3) = 4.
    expect(geomean([1, 4, 16])).toBeCloseTo(4, 14);
    expect(geomean([2, 8])).toBeCloseTo(4, 14);
    expect(geomean([1, 0])).toBeNaN();
    expect(geomean([])).toBeNaN();
  });

  test('Holm: sorted p times (m - i), running maximum, capped at 1, in input order', () => {
    // Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> max(0.06, 0.04) = 0.06.
    const adjusted = holm([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((want, i) => expect(adjusted[i]).toBeCloseTo(want, 15));
    expect(holm([0.5, 0.6])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
    expect(() => holm([0.5, 1.5])).toThrow(RangeError);
  });
});

describe('normal distribution', () => {
  test('erfc against Go math.Erfc (to 1e-13 relative)', () => {
    const known: [number, number][] = [
      [0.5, 0.47950012218695348],
      [1, 0.15729920705028513],
      [2, 0.0046777349810472654],
      [3, 2.2090496998585438e-5],
      [5, 1.5374597944280351e-12],
      [10, 2.0884875837625446e-45],
    ];
    for (const [x, want] of known) expect(Math.abs(erfc(x) / want - 1), `erfc(${x})`).toBeLessThan(1e-13);
    expect(erfc(0)).toBe(1);
    expect(erfc(-1)).toBeCloseTo(2 - 0.15729920705028513, 15);
  });

  test('quantile inverts the CDF', () => {
    expect(normalQuantile(0.025)).toBeCloseTo(-1.9599639845400545, 12);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 14);
    expect(normalQuantile(0.975, 50, 5)).toBeCloseTo(50 + 5 * 1.9599639845400545, 10);
  });
});

describe('units and text', () => {
  test('tidy: ns -> sec and MB -> B in the numerator only', () => {
    expect(tidy(1726, 'ns/op')).toEqual({ value: 1726e-9, unit: 'sec/op' });
    expect(tidy(3, 'MB/s')).toEqual({ value: 3e6, unit: 'B/s' });
    expect(tidy(2, 'B/ns')).toEqual({ value: 2, unit: 'B/ns' });
    expect(unitClass('B/s')).toBe('binary');
    expect(unitClass('sec/op')).toBe('decimal');
  });

  test('one prefix per row, at least three significant digits', () => {
    expect(commonScale([1.718e-6, 1.423e-6], 'decimal')).toEqual({ digits: 3, factor: 1e-6, prefix: 'µ' });
    expect(formatScaledValue(2.295e-6, 'decimal')).toBe('2.295µ');
    expect(formatScaledValue(99.995e-9, 'decimal')).toBe('100.0n');
    expect(formatScaledValue(1.171 * 2 ** 30, 'binary')).toBe('1.171Gi');
    expect(formatScaledValue(1020 * 1024, 'binary')).toBe('1020.0Ki');
  });

  test('formatFixed rounds exact halves to even, like Go', () => {
    // 0.125 is exact in binary: Go prints 0.12, JavaScript's toFixed 0.13.
    expect(formatFixed(0.125, 2)).toBe('0.12');
    expect(formatFixed(2.5, 0)).toBe('2');
    expect(formatFixed(3.5, 0)).toBe('4');
    // 1.005 is really 1.00499999999999989...: no tie, rounds down in both.
    expect(formatFixed(1.005, 2)).toBe('1.00');
  });

  test('TextTable: spans, margins that line up, alignment, no trailing spaces', () => {
    const t = new TextTable();
    t.row().cell('name').col(1).span(2, 'value', { align: 'center', margin: ' │ ' });
    t.row().cell('a').col(1).cell('1.5', { align: 'right', margin: ' │ ' }).cell('2%', { align: 'right', margin: ' ± ' });
    t.row().cell('bb').col(1).cell('10.25', { align: 'right', margin: ' │ ' }).cell('13%', { align: 'right', margin: ' ± ' });
    // Column 1 is "10.25" + " │ " = 8 wide, column 2 "13%" + " ± " = 6: the header spans
    // 14 - 3 (its margin) = 11, and "value" (5) is centered with floor(6/2) = 3 spaces.
    expect(t.toString()).toBe(['name │    value', 'a    │   1.5 ±  2%', 'bb   │ 10.25 ± 13%', ''].join('\n'));
    expect(superscript(12)).toBe('¹²');
  });
});
