// p-values and noise as a learner reads them: "p<0.001", never "p=0.000"; the raw p
// beside the adjusted one; and, when nothing moved, how large a change the run could see.
import { describe, expect, it } from 'vitest';
import { describeNoise, describePValues, detectableChangePct, noDifferenceAdvice, readerP, readerPEquals } from '../src/core/stats/plain-words.ts';

describe('a p-value for a reader', () => {
  it('is "<0.001" below a thousandth, never 0.000', () => {
    expect(readerP(0)).toBe('<0.001');
    expect(readerP(0.0002)).toBe('<0.001');
    expect(readerPEquals(0.0002)).toBe('p<0.001');
    expect(readerPEquals(0.006)).toBe('p=0.006');
    expect(readerPEquals(0.3134)).toBe('p=0.31');
    expect(readerPEquals(1)).toBe('p=1.0');
  });

  it('shows the raw p first and the adjusted one with what it corrected for', () => {
    expect(describePValues(0.31, 1, 4)).toBe('p=0.31, 1.0 after correcting for 4 sizes');
    expect(describePValues(0.0004, 0.0016, 4)).toBe('p<0.001, 0.002 after correcting for 4 sizes');
    // One comparison, or a correction that changed nothing visible: the p alone.
    expect(describePValues(0.02, 0.02, 1)).toBe('p=0.02');
    expect(describePValues(0.0001, 0.0003, 3)).toBe('p<0.001');
  });
});

describe('what a run could have seen', () => {
  const around = (center: number, spread: number) => Array.from({ length: 10 }, (_, i) => center * (1 + ((i - 4.5) / 4.5) * spread));

  it('grows with the noise of the samples', () => {
    const quiet = detectableChangePct(around(100, 0.01), around(100, 0.01))!;
    const loud = detectableChangePct(around(100, 0.2), around(100, 0.2))!;
    expect(quiet).toBeGreaterThan(0);
    expect(quiet).toBeLessThan(3);
    expect(loud).toBeGreaterThan(10 * quiet);
  });

  it('is unknown with too few samples for an interval', () => {
    expect(detectableChangePct([1, 2, 3], [1, 2, 3])).toBeNull();
  });

  it('says what to try', () => {
    expect(describeNoise(8.6)).toBe('about ±9%');
    expect(describeNoise(0.04)).toBe('about ±0.1%');
    expect(noDifferenceAdvice(8.6, '96 B', 10)).toBe('This run could only have seen a change larger than about ±9% at 96 B; try 30 rounds, or close other tabs and measure 96 B alone.');
    expect(noDifferenceAdvice(null, '1 MiB', 20)).toMatch(/^This run had too few samples at 1 MiB to see any change; try 60 rounds/);
  });
});
