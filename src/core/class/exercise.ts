// An exercise attempt as the class board takes it: the verdict's status, whether the
// draft passed the check and, at each size, the draft's speedup over the stage before
// with its interval and the reference's speedup. Figures only: the draft's files never
// leave the learner's browser. The page builds it (exerciseOutcome), the server checks
// it (checkExerciseOutcome) and keeps each machine's latest beside its attempt counts.
import { STAGES } from '../../../steps/index.ts';
import { DEFAULT_SIZES } from '../bench/plan.ts';
import type { ExerciseVerdict } from '../exercise/goal.ts';
import { bool, describe, fail, FORBIDDEN_KEYS, Invalid, join, list, oneOf, type Fields } from '../field-checks.ts';

/** The exercises of this lab: exercise N makes stage N from stage N-1. */
export const LAST_EXERCISE = STAGES.length - 1;

export const EXERCISE_STATUSES = ['met', 'short', 'unclear'] as const;
export type ExerciseStatus = (typeof EXERCISE_STATUSES)[number];

/**
 * The largest speedup the board takes: stage 0 is quadratic, so exercise 1's step grows
 * with the input (about a thousand at 1 MiB); anything past this is not a measurement.
 */
export const MAX_SPEEDUP = 1e6;

/** One size of an attempt: the draft over the stage before (median ratio and 95% interval), and the reference over it. */
export interface OutcomeSize {
  size: number;
  draft: { ratio: number; range: [number, number] | null };
  reference: number;
}

export interface ExerciseOutcome {
  exercise: number;
  /** The draft passed the check (a correct BLAKE3, and still correct while it was timed). */
  passed: boolean;
  /** The verdict's; null when there is none (the check failed, or the run did). */
  status: ExerciseStatus | null;
  /** Ascending, one per size judged; empty without a verdict. */
  sizes: OutcomeSize[];
}

/** One machine's attempts at one exercise, as the server keeps them. */
export interface ExerciseRecord {
  attempts: number;
  /** Attempts whose verdict met the goal. */
  solved: number;
  latest: ExerciseOutcome;
  /** ms since the epoch of the latest. */
  at: number;
}

/** A machine's records by exercise number. */
export type ExerciseRecords = Record<string, ExerciseRecord>;

/** What an attempt sends: its verdict's figures and its check's result, never its files or the check's words. */
export function exerciseOutcome(exercise: number, verdict: ExerciseVerdict | null, check: { ok: boolean }): ExerciseOutcome {
  return {
    exercise,
    passed: check.ok,
    status: check.ok ? (verdict?.status ?? null) : null,
    sizes: check.ok && verdict ? verdict.sizes.map((s) => ({ size: s.size, draft: { ratio: s.draft.ratio, range: s.draft.range }, reference: s.reference.ratio })) : [],
  };
}

/** The object at `path` (empty: the outcome itself) with exactly these keys. */
function fields(value: unknown, path: string, keys: readonly string[]): Fields {
  const name = path || 'The outcome';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${name} is ${describe(value)}: expected an object`);
  const extra = Object.keys(value).find((key) => FORBIDDEN_KEYS.has(key) || !keys.includes(key));
  if (extra !== undefined) fail(`${join(path, extra.slice(0, 40))} is not a field of an exercise outcome`);
  const missing = keys.find((key) => !Object.hasOwn(value, key));
  if (missing !== undefined) fail(`${join(path, missing)} is missing`);
  return value as Fields;
}

function speedup(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_SPEEDUP) {
    fail(`${path} is ${describe(value)}: a speedup is a number above 0 and at most ${MAX_SPEEDUP}`);
  }
  return value;
}

function outcomeSize(value: unknown, path: string): OutcomeSize {
  const read = fields(value, path, ['size', 'draft', 'reference']);
  if (!DEFAULT_SIZES.includes(read.size as number)) fail(`${path}.size is ${describe(read.size)}: expected one of the bench's sizes in bytes (${DEFAULT_SIZES.join(', ')})`);
  const draft = fields(read.draft, `${path}.draft`, ['ratio', 'range']);
  const ratio = speedup(draft.ratio, `${path}.draft.ratio`);
  let range: [number, number] | null = null;
  if (draft.range !== null) {
    const bounds = list(draft.range, `${path}.draft.range`, 2, 'bounds');
    if (bounds.length !== 2) fail(`${path}.draft.range has ${bounds.length} bounds: expected null or two`);
    range = [speedup(bounds[0], `${path}.draft.range[0]`), speedup(bounds[1], `${path}.draft.range[1]`)];
    if (!(range[0] <= ratio && ratio <= range[1])) fail(`${path}.draft.range does not hold ${path}.draft.ratio: an interval holds its median`);
  }
  return { size: read.size as number, draft: { ratio, range }, reference: speedup(read.reference, `${path}.reference`) };
}

function outcome(value: unknown): ExerciseOutcome {
  const read = fields(value, '', ['exercise', 'passed', 'status', 'sizes']);
  const exercise = read.exercise;
  if (typeof exercise !== 'number' || !Number.isInteger(exercise) || exercise < 1 || exercise > LAST_EXERCISE) {
    fail(`exercise is ${describe(exercise)}: exercises are numbered 1 to ${LAST_EXERCISE}`);
  }
  const passed = bool(read.passed, 'passed');
  const status = read.status === null ? null : oneOf(read.status, 'status', EXERCISE_STATUSES);
  const sizes = list(read.sizes, 'sizes', DEFAULT_SIZES.length, 'sizes').map((size, i) => outcomeSize(size, `sizes[${i}]`));
  // Only a draft that passed the check is measured, and only a measured draft has a verdict with figures.
  if (status !== null && !passed) fail('status is set though passed is false: only a draft that passes the check is judged');
  if ((status === null) !== (sizes.length === 0)) fail(status === null ? 'sizes has figures though status is null: only a verdict has figures' : 'sizes is empty though status is set: a verdict has a figure at each size it judged');
  if (sizes.some((s, i) => i > 0 && s.size <= sizes[i - 1].size)) fail('sizes must be in ascending order, each size once');
  return { exercise, passed, status, sizes };
}

export type OutcomeCheck = { ok: true; outcome: ExerciseOutcome } | { ok: false; error: string };

/** Checks an outcome from outside (a student's page) and returns a fresh copy of it. */
export function checkExerciseOutcome(value: unknown): OutcomeCheck {
  try {
    return { ok: true, outcome: outcome(value) };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, error: error.message };
    throw error;
  }
}

/** A machine's record of an exercise once one more attempt is in. */
export function withAttempt(record: ExerciseRecord | undefined, latest: ExerciseOutcome, at: number): ExerciseRecord {
  return { attempts: (record?.attempts ?? 0) + 1, solved: (record?.solved ?? 0) + (latest.status === 'met' ? 1 : 0), latest, at };
}

/** "Exercise 5 (Precomputed message schedule)": an exercise named after the stage it makes. */
export function exerciseName(exercise: number): string {
  return `exercise ${exercise} (${STAGES[exercise]?.title ?? 'unknown'})`;
}
