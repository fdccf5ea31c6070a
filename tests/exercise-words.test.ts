// The exercise's sentences, from verdicts of made-up runs: the goal in measured figures,
// done, not yet, cannot tell, and no goal where the article's change is slower in this
// browser (where measuring again cannot make one).
import { describe, expect, it } from 'vitest';
import { judgeExercise, type ExerciseCell } from '../src/core/exercise/goal.ts';
import { goalSentence, predictionSentence, referenceSlowerHere, verdictSentence } from '../src/app/playground/exercise/words.ts';

const around = (ns: number, rounds = 12) => Array.from({ length: rounds }, (_, i) => ns * (1 + (0.01 * ((i % 5) - 2)) / 2));
const cell = (size: number, previous: number, draft: number, reference: number): ExerciseCell => ({ size, previous: around(previous), draft: around(draft), reference: around(reference) });

describe('exercise sentences', () => {
  it('state the goal and the verdict in the figures of the run', () => {
    const met = judgeExercise([cell(1024, 1000, 556, 500)]);
    expect(goalSentence(2, [1024], met)).toBe("Make it at least 1.41x at 1 KiB faster than stage 2; the article's change gives 2.00x here.");
    expect(verdictSentence(2, met)).toBe('Done: 1.80x faster than stage 2 at 1 KiB, the goal was 1.41x.');
    const short = judgeExercise([cell(1024, 1000, 950, 500)]);
    expect(verdictSentence(2, short)).toBe('Not yet: your draft is 1.05x as fast as stage 2 at 1 KiB, where the goal is 1.41x.');
  });

  it('say there is no goal in this browser where the article\'s change is clearly slower, and offer no second run', () => {
    const slower = judgeExercise([cell(96, 1000, 1000, 1110), cell(1024, 1000, 990, 1080)]);
    expect(referenceSlowerHere(slower)).toBe('0.90x at 96 B, 0.93x at 1 KiB');
    expect(goalSentence(2, [96, 1024], slower)).toMatch(/^No goal in this browser: here the article's change makes stage 3 slower than stage 2 \(0\.90x at 96 B, 0\.93x at 1 KiB\)/);
    expect(verdictSentence(2, slower)).toMatch(/^No goal in this browser: the article's change is slower than stage 2 here/);
    // Where the change only failed to pay clearly, a longer run may still find a goal.
    const flat = judgeExercise([cell(1024, 1000, 1000, 1000)]);
    expect(referenceSlowerHere(flat)).toBeNull();
    expect(verdictSentence(2, flat)).toMatch(/^Cannot tell yet: in this run the article's change itself did not clearly pay/);
  });

  it("set the learner's prediction beside the draft's interval at each size", () => {
    const run = judgeExercise([cell(1024, 1000, 556, 500), cell(65536, 64000, 64000, 32000)]);
    expect(predictionSentence(2, 1.5, run)).toBe('You expected your draft to be 1.5x as fast as stage 2; it measured 1.80x at 1 KiB (faster than you expected) and 1.00x at 64 KiB (slower than you expected).');
    expect(predictionSentence(2, 1, run)).toMatch(/^You expected your draft to be about the speed of stage 2; .* and 1\.00x at 64 KiB \(as you expected\)\.$/);
    const few = judgeExercise([{ size: 1024, previous: around(1000, 5), draft: around(500, 5), reference: around(500, 5) }]);
    expect(predictionSentence(2, 0.8, few)).toBe('You expected your draft to be slower than stage 2; it measured 2.00x at 1 KiB (too few rounds to tell).');
  });
});
