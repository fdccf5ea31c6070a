// An exercise in a class, in Node: the plan that names it, the outcome a student's page
// builds from a verdict (figures only), the server's check of an outcome from outside,
// each machine's record of its attempts, the board's counts and spreads, and the export's
// columns.
import { describe, expect, it } from 'vitest';
import { checkExerciseOutcome, exerciseOutcome, MAX_SPEEDUP, withAttempt, type ExerciseOutcome, type ExerciseRecords } from '../src/core/class/exercise.ts';
import { checkClassPlan, DEFAULT_CLASS_PLAN } from '../src/core/class/plan.ts';
import type { EntrySummary } from '../src/core/class/summary.ts';
import { judgeExercise } from '../src/core/exercise/goal.ts';
import { exerciseBoards, exerciseWords } from '../src/app/class/exercise-board.ts';
import { classCsv } from '../server/export.ts';

/** A verdict from samples: the draft `draftSpeed` times as fast as the stage before, the reference twice as fast. */
function verdict(draftSpeed: number) {
  const samples = (ns: number) => Array.from({ length: 10 }, (_, i) => ns * (1 + 0.002 * Math.sin(i)));
  return judgeExercise([1024, 65536].map((size) => ({ size, previous: samples(1000), draft: samples(1000 / draftSpeed), reference: samples(500) })));
}

function outcome(exercise: number, status: ExerciseOutcome['status'], draft = 1.5, reference = 2): ExerciseOutcome {
  const sizes = status === null ? [] : [1024, 65536].map((size) => ({ size, draft: { ratio: draft, range: [draft * 0.95, draft * 1.05] as [number, number] }, reference }));
  return { exercise, passed: status !== null, status, sizes };
}

function entry(id: string, exercises?: ExerciseRecords, extra: Partial<EntrySummary> = {}): EntrySummary {
  return { id, nickname: id, browser: '', engine: 'unknown engine', os: '', cores: 0, done: false, stopped: false, hidden: false, silent: true, isolated: null, timerNs: 0, updatedAt: 0, throughput: {}, ...(exercises ? { exercises } : {}), ...extra };
}

describe('a class plan that names an exercise', () => {
  it('takes an exercise from 1 to 11, and a plan without one (as classes stored before have) stays without one', () => {
    expect(checkClassPlan({ ...DEFAULT_CLASS_PLAN, exercise: 5 })).toEqual({ ok: true, plan: { ...DEFAULT_CLASS_PLAN, exercise: 5 } });
    const without = checkClassPlan(DEFAULT_CLASS_PLAN);
    expect(without.ok && 'exercise' in without.plan).toBe(false);
    for (const exercise of [0, 12, 2.5, '5', null, -1]) {
      expect(checkClassPlan({ ...DEFAULT_CLASS_PLAN, exercise })).toEqual({ ok: false, error: 'The exercise must be a whole number from 1 to 11, or left out' });
    }
  });
});

describe('an attempt’s outcome', () => {
  it('carries the verdict’s status and figures at each size, and nothing of the draft or the check’s words', () => {
    const judged = verdict(1.6);
    const sent = exerciseOutcome(2, judged, { ok: true, message: 'the draft’s own words' } as { ok: boolean });
    expect(sent).toEqual({
      exercise: 2,
      passed: true,
      status: judged.status,
      sizes: judged.sizes.map((s) => ({ size: s.size, draft: { ratio: s.draft.ratio, range: s.draft.range }, reference: s.reference.ratio })),
    });
    expect(sent.sizes[0].draft.ratio).toBeCloseTo(1.6, 1);
    expect(JSON.stringify(sent)).not.toContain('words');
    expect(checkExerciseOutcome(JSON.parse(JSON.stringify(sent)))).toEqual({ ok: true, outcome: sent });
    // A draft that failed its check has no verdict, hence no figures.
    expect(exerciseOutcome(2, null, { ok: false })).toEqual({ exercise: 2, passed: false, status: null, sizes: [] });
    expect(exerciseOutcome(2, judged, { ok: false })).toEqual({ exercise: 2, passed: false, status: null, sizes: [] });
  });

  it.each([
    ['a list', [], 'The outcome is a list: expected an object'],
    ['a field for code', { ...outcome(2, 'met'), code: 'export function hash() {}' }, 'code is not a field of an exercise outcome'],
    ['a __proto__ key', { ...outcome(2, 'met'), ['__proto__']: 1 }, '__proto__ is not a field of an exercise outcome'],
    ['no sizes', { exercise: 2, passed: true, status: 'met' }, 'sizes is missing'],
    ['exercise 12', { ...outcome(2, 'met'), exercise: 12 }, 'exercise is 12: exercises are numbered 1 to 11'],
    ['an exercise as text', { ...outcome(2, 'met'), exercise: '2' }, 'exercise is the text "2": exercises are numbered 1 to 11'],
    ['an unknown status', { ...outcome(2, 'met'), status: 'solved' }, 'status is the text "solved": expected one of "met", "short", "unclear"'],
    ['passed as text', { ...outcome(2, 'met'), passed: 'yes' }, 'passed is the text "yes": expected true or false'],
    ['a status without a passed check', { ...outcome(2, 'met'), passed: false }, 'status is set though passed is false: only a draft that passes the check is judged'],
    ['a status without figures', { ...outcome(2, 'met'), sizes: [] }, 'sizes is empty though status is set: a verdict has a figure at each size it judged'],
    ['figures without a status', { ...outcome(2, null), sizes: outcome(2, 'met').sizes }, 'sizes has figures though status is null: only a verdict has figures'],
    ['more sizes than the bench has', { ...outcome(2, 'met'), sizes: Array(20).fill(outcome(2, 'met').sizes[0]) }, 'sizes has 20 sizes; the limit is 7'],
    ['sizes out of order', { ...outcome(2, 'met'), sizes: [outcome(2, 'met').sizes[1], outcome(2, 'met').sizes[0]] }, 'sizes must be in ascending order, each size once'],
    ['a size the bench does not have', { ...outcome(2, 'met'), sizes: [{ ...outcome(2, 'met').sizes[0], size: 1000 }] }, 'sizes[0].size is 1000: expected one of the bench’s sizes in bytes'],
    ['a negative speedup', { ...outcome(2, 'met'), sizes: [{ ...outcome(2, 'met').sizes[0], reference: -2 }] }, 'sizes[0].reference is -2: a speedup is a number above 0 and at most 1000000'],
    ['a speedup past the largest', { ...outcome(2, 'met'), sizes: [{ ...outcome(2, 'met').sizes[0], reference: MAX_SPEEDUP * 2 }] }, 'sizes[0].reference is 2000000: a speedup is a number above 0 and at most 1000000'],
    ['a speedup of 0', { ...outcome(2, 'met'), sizes: [{ size: 1024, draft: { ratio: 0, range: null }, reference: 2 }] }, 'sizes[0].draft.ratio is 0: a speedup'],
    ['a bound that is text', { ...outcome(2, 'met'), sizes: [{ size: 1024, draft: { ratio: 1.5, range: [1, 'x'] }, reference: 2 }] }, 'sizes[0].draft.range[1] is the text "x": a speedup'],
    ['one bound', { ...outcome(2, 'met'), sizes: [{ size: 1024, draft: { ratio: 1.5, range: [1] }, reference: 2 }] }, 'sizes[0].draft.range has 1 bounds: expected null or two'],
    ['an interval without its median', { ...outcome(2, 'met'), sizes: [{ size: 1024, draft: { ratio: 1.5, range: [1.6, 1.7] }, reference: 2 }] }, 'sizes[0].draft.range does not hold sizes[0].draft.ratio: an interval holds its median'],
    ['a draft without its interval', { ...outcome(2, 'met'), sizes: [{ size: 1024, draft: { ratio: 1.5 }, reference: 2 }] }, 'sizes[0].draft.range is missing'],
  ])('refuses %s with one sentence', (_, value, error) => {
    const checked = checkExerciseOutcome(value);
    expect(checked.ok ? null : checked.error.slice(0, error.length)).toBe(error.replace('bench’s', "bench's"));
  });

  it('takes a draft with no interval yet (too few rounds for one)', () => {
    const sent = { exercise: 3, passed: true, status: 'unclear', sizes: [{ size: 1024, draft: { ratio: 1.2, range: null }, reference: 1.9 }] };
    expect(checkExerciseOutcome(sent)).toEqual({ ok: true, outcome: sent });
  });

  it('counts a machine’s attempts and those that met the goal, keeping the latest', () => {
    const first = withAttempt(undefined, outcome(2, 'met'), 10);
    expect(first).toEqual({ attempts: 1, solved: 1, latest: outcome(2, 'met'), at: 10 });
    const second = withAttempt(first, outcome(2, null), 20);
    expect(second).toEqual({ attempts: 2, solved: 1, latest: outcome(2, null), at: 20 });
  });
});

describe('the board’s exercise section', () => {
  const plan = { ...DEFAULT_CLASS_PLAN, exercise: 5 };
  const solvedAt = (draft: number, reference: number) => ({ '5': { attempts: 2, solved: 1, latest: outcome(5, 'met', draft, reference), at: 0 } });

  it('counts solved, attempted and not started over the machines on the board, with the spread of drafts beside the reference', () => {
    const entries = [
      ...[1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0].map((d, i) => entry(`s${i}`, solvedAt(d, 2 + i / 10))),
      entry('short', { '5': { attempts: 3, solved: 0, latest: outcome(5, 'short', 1.05, 2), at: 0 } }),
      entry('failed', { '5': withAttempt(undefined, outcome(5, null), 0) }),
      entry('other', { '4': withAttempt(undefined, outcome(4, 'met'), 0) }),
      entry('new1'),
      entry('new2'),
    ];
    const boards = exerciseBoards(entries, plan);
    expect(boards.map((b) => b.exercise)).toEqual([4, 5]);
    const five = boards[1];
    expect(five).toMatchObject({ machines: 12, solved: 7, attempted: 2, notStarted: 3, attempts: 18 });
    expect(exerciseWords(five)).toBe('7 of 12 machines solved exercise 5; 2 attempted; 3 not started.');
    // Figures from the latest measured attempts: the failed check has none.
    expect(five.sizes.map((s) => s.size)).toEqual([1024, 65536]);
    expect(five.sizes[0].draft).toMatchObject({ n: 8, min: 1.05, max: 2.0, median: 1.65 });
    expect(five.sizes[0].reference).toMatchObject({ n: 8, min: 2, max: expect.closeTo(2.6, 9) });
  });

  it('shows the plan’s exercise before any attempt, and none for a plan without one', () => {
    const [board] = exerciseBoards([entry('a'), entry('b')], plan);
    expect(board).toMatchObject({ exercise: 5, machines: 2, solved: 0, attempted: 0, notStarted: 2, sizes: [] });
    expect(exerciseWords(board)).toBe('0 of 2 machines solved exercise 5; 2 not started.');
    expect(exerciseWords({ ...board, machines: 1, notStarted: 0, solved: 1 })).toBe('1 of 1 machine solved exercise 5.');
    expect(exerciseBoards([entry('a')], DEFAULT_CLASS_PLAN)).toEqual([]);
  });

  it('gives the export each exercise’s attempts, solved count, latest verdict and latest draft speedups', () => {
    const csv = classCsv(DEFAULT_CLASS_PLAN, [entry('Ana', solvedAt(1.5, 2)), entry('Ben', { '5': withAttempt(undefined, outcome(5, null), 0) }), entry('Chloé')]);
    const [header, ana, ben, chloe] = csv.trim().split('\r\n').map((line) => line.split(','));
    const at = (name: string) => header.indexOf(name);
    expect(header.slice(-5)).toEqual([
      'exercise 5 attempts',
      'exercise 5 attempts that met the goal',
      'exercise 5 latest verdict',
      'exercise 5 latest draft at 1 KiB (x stage 4)',
      'exercise 5 latest draft at 64 KiB (x stage 4)',
    ]);
    expect([ana, ben, chloe].map((row) => row.slice(at('exercise 5 attempts')))).toEqual([
      ['2', '1', 'met', '1.5', '1.5'],
      ['1', '0', 'check failed', '', ''],
      ['', '', '', '', ''],
    ]);
  });
});
