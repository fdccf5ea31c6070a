// The one-sentence answer beside "Measure this step": this stage against the one before
// at the largest size, against Rust WASM, and the article's figure, in the article's words.
import { describe, expect, it } from 'vitest';
import type { Results } from '../src/core/bench/results.ts';
import { hereFigure, stepAnswer } from '../src/app/story/step-answer.ts';
import { STORIES } from '../src/app/story/narrative.ts';
import { fullResults } from './fixtures/full-results.ts';

/** The full fixture (or `full`) cut to these contestants, as a step run leaves it. */
function only(ids: string[], sizes?: number[], full = fullResults()): Results {
  const runs = full.runs.filter((r) => ids.includes(r.contestant) && (!sizes || sizes.includes(r.size)));
  return {
    ...full,
    contestants: full.contestants.filter((c) => ids.includes(c.id)),
    runs,
    config: { ...full.config, sizes: [...new Set(runs.map((r) => r.size))].sort((a, b) => a - b) },
  };
}

describe('the answer of a step measured in place', () => {
  it('says the speedup at the largest size with its p-values, Rust WASM, and the article', () => {
    const answer = stepAnswer(only(['04-state-locals', '05-no-copies', 'blake3-wasm']), 5, STORIES[5])!;
    expect(answer.text).toMatch(
      /^Stage 5 is [\d.]+x stage 4 at 1 MiB here \(p<0\.001\) and ([\d.]+x (faster|slower)|about [\d,]+x slower) than Rust WASM at 64 KiB; the article measured 3× and about 0\.75× the speed of Rust WASM\.$/,
    );
    expect(answer.advice).toBeNull();
  });

  it('speaks of stage 0 in the article\'s direction', () => {
    const answer = stepAnswer(only(['00-reference', 'blake3-wasm'], [1024, 65536]), 0, STORIES[0])!;
    expect(answer.text).toMatch(/^Stage 0 is about [\d,]+x slower than Rust WASM at 64 KiB here \(p[<=][\d.]+\); the article measured ~2000× slower\.$/);
  });

  it('says "not measurably" and what the run could have seen when the step is noise', () => {
    const doc = only(['06-message-locals', '07-reuse-buffers']);
    // Stage 7's samples made stage 6's, shuffled: no difference to find.
    const six = doc.runs.filter((r) => r.contestant === '06-message-locals');
    doc.runs = doc.runs.map((r) => (r.contestant === '07-reuse-buffers' ? { ...r, nsPerOp: [...six.find((s) => s.size === r.size)!.nsPerOp].reverse() } : r));
    const answer = stepAnswer(doc, 7, STORIES[7])!;
    expect(answer.text).toMatch(/^Stage 7 is not measurably faster or slower than stage 6 at 1 MiB here \(median 1\.00x, p=[\d.]+(, [\d.]+ after correcting for \d+ sizes)?\); the article measured 1\.023×\.$/);
    expect(answer.advice).toMatch(/^This run could only have seen a change larger than about ±[\d.]+% at 1 MiB; try 30 rounds/);
  });

  it('speaks of the largest size where the step is a finding, not of a noisy larger one', () => {
    const doc = only(['04-state-locals', '05-no-copies', 'blake3-wasm']);
    const four = doc.runs.filter((r) => r.contestant === '04-state-locals');
    // At 1 MiB stage 5 now runs as stage 4 did: that size is noise, 256 KiB is not.
    doc.runs = doc.runs.map((r) => (r.contestant === '05-no-copies' && r.size === 1048576 ? { ...r, nsPerOp: [...four.find((s) => s.size === r.size)!.nsPerOp].reverse() } : r));
    expect(stepAnswer(doc, 5, STORIES[5])!.text).toMatch(/^Stage 5 is [\d.]+x stage 4 at 256 KiB here/);
  });

  it('has no answer without the stage\'s figures', () => {
    expect(stepAnswer(only(['blake3-wasm']), 5, STORIES[5])).toBeNull();
  });
});

describe('one figure, one size, one family per step', () => {
  it('says the same under the title and beside the button, in the whole ladder and in the step measured alone', () => {
    // Stage 5 at 1 MiB a little faster than stage 4 (p about 0.02 at the fixture's rounds):
    // corrected over the whole ladder's steps that was noise, over the step's own sizes it is not.
    for (const faster of [1, 1.01, 1.02, 1.03, 1.05]) {
      const ladder = fullResults();
      const four = ladder.runs.filter((r) => r.contestant === '04-state-locals');
      ladder.runs = ladder.runs.map((r) =>
        r.contestant === '05-no-copies' && r.size === 1048576 ? { ...r, nsPerOp: four.find((s) => s.size === r.size)!.nsPerOp.map((ns) => ns / faster) } : r,
      );
      const step = only(['04-state-locals', '05-no-copies', 'blake3-wasm'], undefined, ladder);
      const line = hereFigure(ladder, 5)!;
      expect(hereFigure(step, 5), `${faster}x`).toBe(line);
      // The answer beside the button names the same figure at the same size, corrected over the step's sizes.
      const figure = /^(?:([\d.]+x) stage 4|no measurable difference from stage 4) at ([\d.]+ \S+)/.exec(line)!;
      const answer = stepAnswer(ladder, 5, STORIES[5])!.text;
      expect(answer).toContain(figure[1] ? `Stage 5 is ${figure[1]} stage 4 at ${figure[2]} here` : `than stage 4 at ${figure[2]} here`);
      expect(answer).not.toMatch(/comparisons/);
    }
  });
});

describe('the line under a stage\'s title', () => {
  it("says this machine's figure in a few words, or nothing before a measurement", () => {
    expect(hereFigure(only(['04-state-locals', '05-no-copies', 'blake3-wasm']), 5)).toMatch(/^[\d.]+x stage 4 at 1 MiB$/);
    expect(hereFigure(only(['00-reference', 'blake3-wasm'], [1024, 65536]), 0)).toMatch(/^about [\d,]+x slower than Rust WASM at 64 KiB$/);
    expect(hereFigure(only(['04-state-locals', '05-no-copies']), 8)).toBeNull();
    expect(hereFigure(null, 5)).toBeNull();
  });
});
