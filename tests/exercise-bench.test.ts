// `npm run bench -- --exercise N`: the plan comes from the exercise's own sizes, the run is
// judged twice by the exercise page's rule (the reference as the draft, the starting point
// as the draft), and the table says whether each is as it should be.
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { startNodeBenchmark } from '../src/node/node.ts';
import { parseCliArgs } from '../src/node/cli-args.ts';
import { checkExercise, exercisePlan, exerciseSizes, formatExerciseTable, parseExercises } from '../src/node/exercise-bench.ts';
import { exerciseText } from '../src/app/ui/lesson/exercise-texts.ts';
import type { Results } from '../src/core/bench/results.ts';

/** A run of stage N-1 and stage N with the given ns per hash at every size. */
function runOf(index: number, before: number[], after: number[]): Results {
  const runs = exerciseSizes(index).flatMap((size) => [
    { contestant: STAGES[index - 1].id, size, status: 'ok', iterations: 1, nsPerOp: before },
    { contestant: STAGES[index].id, size, status: 'ok', iterations: 1, nsPerOp: after },
  ]);
  return { runs } as unknown as Results;
}

describe('bench --exercise', () => {
  it('reads "all", a number and a list, and refuses what is not an exercise', () => {
    expect(parseExercises('all')).toEqual(STAGES.slice(1).map((s) => s.index));
    expect(parseCliArgs(['--exercise', '2,5', '--rounds', '20']).exercises).toEqual([2, 5]);
    expect(() => parseExercises('0')).toThrow(/exercise numbers 1 to 11/);
    expect(() => parseCliArgs(['--exercise', '2', '--sizes', '1KiB'])).toThrow(/--sizes does not apply with --exercise/);
  });

  it("times stage N-1 and stage N at the exercise's sizes, the ones its page judges", () => {
    const plan = exercisePlan(5, { rounds: 10 });
    expect(plan.contestants).toEqual(['04-state-locals', '05-no-copies']);
    expect(plan.sizes).toEqual(exerciseText(5)!.sizes);
  });

  it('finds a reference that clearly pays sound, and a step that does not pay unsound', () => {
    const before = [300, 310, 305, 298, 302, 307, 299, 303, 301, 304];
    const clear = checkExercise(2, runOf(2, before, before.map((ns) => ns / 3)))!;
    expect([clear.reference.status, clear.start.status, clear.sound]).toEqual(['met', 'short', true]);
    const none = checkExercise(2, runOf(2, before, before))!;
    expect(none.reference.status).not.toBe('met');
    expect(none.sound).toBe(false);
    const table = formatExerciseTable([clear, { index: 3, where: 'firefox', missing: 'no samples' }]);
    expect(table).toMatch(/^2 +node +1 KiB +3\.00x .* met +short +yes$/m);
    expect(table).toMatch(/^3 +firefox .*no: no samples$/m);
  });

  it('judges a short real run of one exercise', async () => {
    const index = 4;
    const { done } = startNodeBenchmark(exercisePlan(index, { rounds: 4, sampleTargetMs: 10 }));
    const check = checkExercise(index, await done);
    expect(check).not.toBeNull();
    expect(check!.reference.sizes.map((s) => s.size)).toEqual(exerciseSizes(index));
    // Whatever the noise, the starting point judged as the draft gains nothing, so it never meets the goal,
    // and the reference never falls short of a goal below its own gain.
    expect(check!.start.status).not.toBe('met');
    expect(check!.reference.status).not.toBe('short');
  }, 60_000);
});
