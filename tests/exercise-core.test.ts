// An exercise's goal and the words for a wrong digest: the goal is a share of the
// reference's step measured in the same run, never a time, and a draft is never failed on
// noise; a wrong digest names the longest start of the input that still hashes right.
import { describe, expect, it } from 'vitest';
import { GOAL_SHARE, goalFor, judgeExercise, type ExerciseCell } from '../src/core/exercise/goal.ts';
import { clue, startsToTry, whereItBreaks } from '../src/core/exercise/diagnose.ts';

/** `rounds` samples around `ns` per hash, spread by ±`spread` (a fraction), deterministic. */
const around = (ns: number, rounds: number, spread = 0.01) =>
  Array.from({ length: rounds }, (_, i) => ns * (1 + spread * ((i % 5) - 2) / 2));

const cell = (size: number, previous: number, draft: number, reference: number, rounds = 12, spread = 0.01): ExerciseCell => ({
  size,
  previous: around(previous, rounds, spread),
  draft: around(draft, rounds, spread),
  reference: around(reference, rounds, spread),
});

describe('an exercise goal', () => {
  it('is half the reference step on a log scale: 2x asks for about 1.41x', () => {
    expect(GOAL_SHARE).toBe(0.5);
    expect(goalFor(2)).toBeCloseTo(Math.SQRT2, 12);
    expect(goalFor(4)).toBeCloseTo(2, 12);
  });

  it('is met when the whole interval of the draft reaches it, at every size with a goal', () => {
    // Reference twice as fast; draft 1.8x: well above 1.41x at both sizes.
    const verdict = judgeExercise([cell(1024, 1000, 556, 500), cell(65536, 64000, 35600, 32000)]);
    expect(verdict.status).toBe('met');
    for (const size of verdict.sizes) {
      expect(size.status).toBe('met');
      expect(size.goal).toBeCloseTo(Math.SQRT2, 2);
      expect(size.draft.ratio).toBeCloseTo(1.8, 2);
      expect(size.draft.significant).toBe(true);
      expect(size.draftVsReference.ratio).toBeCloseTo(0.9, 2);
    }
  });

  it('is short when the whole interval falls below it, and a slower draft is short too', () => {
    expect(judgeExercise([cell(1024, 1000, 950, 500)]).status).toBe('short');
    expect(judgeExercise([cell(1024, 1000, 2400, 500)]).status).toBe('short');
  });

  it('cannot tell when the interval straddles the goal or there are too few rounds for one, and never says short then', () => {
    // 1.41x goal, draft 1.41x with 20% noise: the interval holds the goal.
    const noisy = judgeExercise([cell(1024, 1000, 709, 500, 12, 0.2)]);
    expect(noisy.sizes[0].draft.range![0]).toBeLessThan(noisy.sizes[0].goal!);
    expect(noisy.sizes[0].draft.range![1]).toBeGreaterThan(noisy.sizes[0].goal!);
    expect(noisy.status).toBe('unclear');
    // Five rounds give no finite 95% interval of a median.
    const few = judgeExercise([cell(1024, 1000, 500, 500, 5)]);
    expect(few.sizes[0].draft.range).toBeNull();
    expect(few.status).toBe('unclear');
  });

  it('never says short of a draft the run cannot tell from the reference, even with its interval below the goal', () => {
    // The reference half at 400 ns and half at 960 ns (median 680: 1.47x, goal 1.21x); the
    // draft steady at 950 ns (1.05x): below the goal, yet the U test cannot tell it from the reference.
    const verdict = judgeExercise([{ size: 1024, previous: around(1000, 12), reference: [...around(400, 6), ...around(960, 6)], draft: around(950, 12) }]);
    const [size] = verdict.sizes;
    expect(size.draft.range![1]).toBeLessThan(size.goal!);
    expect(size.draftVsReference.significant).toBe(false);
    expect(verdict.status).toBe('unclear');
  });

  it('sets no goal at a size where the reference itself did not clearly pay in this run', () => {
    const verdict = judgeExercise([cell(64, 100, 100, 100), cell(1024, 1000, 556, 500)]);
    expect(verdict.sizes[0].status).toBe('no-goal');
    expect(verdict.sizes[0].goal).toBeNull();
    expect(verdict.status).toBe('met');
    expect(judgeExercise([cell(64, 100, 60, 100)]).status).toBe('unclear');
  });

  it('where there is no goal, a draft clearly slower than both stages has still missed', () => {
    // The reference no faster than stage N-1; the draft at half their speed.
    const verdict = judgeExercise([cell(1024, 1000, 2000, 1000)]);
    expect(verdict.sizes[0]).toMatchObject({ goal: null, status: 'short' });
    expect(verdict.status).toBe('short');
    // Slower than stage N-1 only within the noise: no verdict either way.
    expect(judgeExercise([cell(1024, 1000, 1010, 1000, 12, 0.2)]).status).toBe('unclear');
  });
});

describe('a wrong digest in words', () => {
  it('tries chunk edges, then the block edges of the first chunk, longest first', () => {
    expect(startsToTry(1025)).toEqual([1024, 960, 896, 832, 768, 704, 640, 576, 512, 448, 384, 320, 256, 192, 128, 64]);
    expect(startsToTry(64)).toEqual([]);
    expect(startsToTry(3073).slice(0, 3)).toEqual([3072, 2048, 1024]);
  });

  it('names the chunk that breaks: 1025 bytes with the first 1024 right', async () => {
    const tried: number[] = [];
    const words = await whereItBreaks(1025, async (n) => (tried.push(n), n <= 1024));
    expect(words).toBe(
      "length 1025: the digest differs from BLAKE3's; the first 1 KiB hash right, so look at how the second chunk starts (its counter, the chaining values kept for the tree, the parent nodes).",
    );
    expect(tried).toEqual([1024]);
  });

  it('names the block that breaks inside a chunk, and the one-block and empty cases', async () => {
    expect(await whereItBreaks(150, async (n) => n <= 128)).toContain('the first 128 bytes hash right, so look at block 3 of the chunk, the last block, and a short one');
    expect(await whereItBreaks(192, async (n) => n <= 128)).toContain('block 3 of the chunk, the last block, and a full one');
    expect(await whereItBreaks(200, async (n) => n <= 128)).toContain('block 3 of the chunk: how a block after the first is chained');
    expect(await whereItBreaks(40, async () => true)).toContain('a 40-byte input is one block, and it hashes wrong');
    expect(await whereItBreaks(5000, async () => false)).toContain('not even the first block hashes right on its own');
    expect(clue(0, 0)).toContain('the empty input');
  });
});
