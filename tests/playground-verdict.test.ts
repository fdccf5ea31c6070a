// The playground's verdict in words: the draft against the original stage, judged as
// the results pages judge a step (U test, Holm over the sizes), said in a sentence.
import { describe, expect, it } from 'vitest';
import type { Results } from '../src/core/bench/results.ts';
import { describeSpeedup, judge } from '../src/app/playground/verdict.ts';
import { sandboxLimitation } from '../src/app/playground/run.svelte.ts';

/** Results of two contestants over `sizes`, with these samples (ns per hash). */
function results(sizes: number[], draft: number[][], original: number[][]): Results {
  const runs = sizes.flatMap((size, i) => [
    { contestant: 'draft', size, status: 'ok' as const, iterations: 1, nsPerOp: draft[i] },
    { contestant: 'stage', size, status: 'ok' as const, iterations: 1, nsPerOp: original[i] },
  ]);
  return { config: { sizes, rounds: 10, sampleTargetMs: 50, timeBoxMs: 5000 }, runs } as unknown as Results;
}

const around = (center: number) => Array.from({ length: 10 }, (_, i) => center * (1 + (i - 5) / 200));

describe('the playground verdict', () => {
  it('says how much faster or slower, with the p-value, when the samples differ', () => {
    const verdict = judge(results([65536], [around(100)], [around(150)]), 'draft', 'stage', 'stage 6');
    expect(verdict?.headline).toBe('Your change is 50% faster than stage 6 (p<0.001).');
    const slower = judge(results([65536], [around(150)], [around(100)]), 'draft', 'stage', 'stage 6');
    expect(slower?.headline).toBe('Your change is 33% slower than stage 6 (p<0.001).');
    expect(verdict?.advice).toBeNull();
  });

  it('says "no measurable difference" when the samples overlap, whatever the medians say', () => {
    const noisy = [90, 130, 95, 125, 100, 120, 105, 115, 110, 111];
    const verdict = judge(results([1024], [noisy], [[...noisy].reverse().map((x) => x + 1)]), 'draft', 'stage', 'stage 6');
    expect(verdict?.headline).toBe('No measurable difference from stage 6.');
    expect(verdict?.sizes[0].text).toMatch(/^no measurable difference \(p=0\.\d+; median \d+% (faster|slower), within this run's noise of about ±\d+%\)$/);
    expect(verdict?.advice).toMatch(/^This run could only have seen a change larger than about ±\d+% at 1 KiB; try 30 rounds, or close other tabs and measure 1 KiB alone\.$/);
  });

  it('shows the raw p beside the adjusted one, never an adjusted 1.0 alone', () => {
    const noisy = [90, 130, 95, 125, 100, 120, 105, 115, 110, 111];
    const shifted = noisy.map((x) => x * 1.08);
    const verdict = judge(results([96, 1024, 65536], [shifted, around(100), around(100)], [noisy, around(100).reverse(), around(100)]), 'draft', 'stage', 'stage 6')!;
    expect(verdict.sizes[0].rawP).toBeLessThan(verdict.sizes[0].p);
    expect(verdict.sizes[0].text).toMatch(/\(p=0\.\d+, (0\.\d+|1\.0) after correcting for 3 sizes; median \d+% slower/);
    expect(verdict.sizes.map((s) => s.text).join(' ')).not.toMatch(/p=0\.000|p=1\.000/);
  });

  it('leads with the clearest size and names the sizes that did not move', () => {
    const verdict = judge(results([1024, 1048576], [[90, 130, 95, 125, 100, 120, 105, 115, 110, 111], around(300)], [around(110), around(100)]), 'draft', 'stage', 'stage 6');
    expect(verdict?.headline).toMatch(/^Your change is 3\.0x slower than stage 6 at 1 MiB \(p<0\.001\); no measurable difference at 1 KiB\.$/);
  });

  it('names every size that moved, and the ones that did not', () => {
    const noisy = [90, 130, 95, 125, 100, 120, 105, 115, 110, 111];
    const verdict = judge(
      results([1024, 65536, 1048576], [around(150), noisy, around(200)], [around(100), around(110), around(100)]),
      'draft',
      'stage',
      'stage 6',
    );
    expect(verdict?.headline).toMatch(
      /^Your change is (33% slower than stage 6 at 1 KiB|2\.0x slower than stage 6 at 1 MiB) \(p<0\.001\), slower at (1 MiB|1 KiB) too; no measurable difference at 64 KiB\.$/,
    );
    const everywhere = judge(results([1024, 65536], [around(100), around(100)], [around(130), around(150)]), 'draft', 'stage', 'stage 6');
    expect(everywhere?.headline).toMatch(/^Your change is \d+% faster than stage 6 at (1|64) KiB \(p<0\.001\), and faster at every size\.$/);
  });

  it('has no verdict without samples of both', () => {
    const doc = results([1024], [around(100)], [around(100)]);
    doc.runs[1] = { ...doc.runs[1], status: 'failed', nsPerOp: [] };
    expect(judge(doc, 'draft', 'stage', 'stage 6')).toBeNull();
  });

  it('reads speedups as a learner would', () => {
    expect(describeSpeedup(1.12)).toBe('12% faster');
    expect(describeSpeedup(2.5)).toBe('2.5x faster');
    expect(describeSpeedup(0.8)).toBe('20% slower');
    expect(describeSpeedup(0.25)).toBe('4.0x slower');
  });
});

describe('stages the sandbox cannot run', () => {
  it('are the ones that start workers of their own, said in words instead of failing oddly', () => {
    expect(sandboxLimitation(11, ["const pool = [new Worker(new URL('./lane.ts', import.meta.url), { type: 'module' })];"])).toMatch(
      /^Stage 11 starts Web Workers of its own\. The playground's sandbox cannot: .* measure it on the Benchmark page\.$/,
    );
    expect(sandboxLimitation(9, ['export function hash(input: Uint8Array) { return input; } // a Worker would not help'])).toBeNull();
  });
});
