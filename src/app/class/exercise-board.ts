// What the board says about each exercise a class plan named: how many of the machines
// on the board solved it (an attempt met the goal), attempted it without solving it, or
// have not started, and the spread of the draft's speedups over the stage before at each
// size, from every machine's latest measured attempt, beside the reference's on the same
// machines. Counts and figures only: no code ever reaches the server. Pure functions,
// tested in Node.
import type { ClassPlan } from '../../core/class/plan.ts';
import type { EntrySummary } from '../../core/class/summary.ts';
import { spread, type Spread } from './board.ts';

export interface ExerciseSizeBoard {
  size: number;
  /** The drafts' speedups over the stage before, one per machine. */
  draft: Spread | null;
  /** The reference's speedups over the stage before, on the same machines. */
  reference: Spread | null;
}

export interface ExerciseBoard {
  exercise: number;
  /** The machines on the board (silent ones too). */
  machines: number;
  solved: number;
  /** Attempted and not solved (yet). */
  attempted: number;
  notStarted: number;
  /** Every attempt of every machine. */
  attempts: number;
  sizes: ExerciseSizeBoard[];
}

/** The exercises to show: the plan's, then any other the class attempted under an earlier plan, in order. */
function exercisesOf(entries: EntrySummary[], plan: ClassPlan): number[] {
  const numbers = new Set(entries.flatMap((e) => Object.keys(e.exercises ?? {}).map(Number)));
  if (plan.exercise !== undefined) numbers.add(plan.exercise);
  return [...numbers].sort((a, b) => a - b);
}

function exerciseBoard(entries: EntrySummary[], exercise: number): ExerciseBoard {
  const records = entries.flatMap((e) => e.exercises?.[String(exercise)] ?? []);
  const solved = records.filter((r) => r.solved > 0).length;
  const measured = records.flatMap((r) => r.latest.sizes);
  const sizes = [...new Set(measured.map((s) => s.size))].sort((a, b) => a - b);
  return {
    exercise,
    machines: entries.length,
    solved,
    attempted: records.length - solved,
    notStarted: entries.length - records.length,
    attempts: records.reduce((sum, r) => sum + r.attempts, 0),
    sizes: sizes.map((size) => {
      const at = measured.filter((s) => s.size === size);
      return { size, draft: spread(at.map((s) => s.draft.ratio)), reference: spread(at.map((s) => s.reference)) };
    }),
  };
}

/** A board per exercise: the plan's and every one the class attempted. */
export function exerciseBoards(entries: EntrySummary[], plan: ClassPlan): ExerciseBoard[] {
  return exercisesOf(entries, plan).map((exercise) => exerciseBoard(entries, exercise));
}

/** "7 of 12 machines solved exercise 5; 3 attempted; 2 not started." */
export function exerciseWords(board: ExerciseBoard): string {
  const { machines, solved, attempted, notStarted, exercise } = board;
  if (machines === 0) return `No machine is on the board yet to try exercise ${exercise}.`;
  const parts = [`${solved} of ${machines} ${machines === 1 ? 'machine' : 'machines'} solved exercise ${exercise}`];
  if (attempted > 0) parts.push(`${attempted} attempted`);
  if (notStarted > 0) parts.push(`${notStarted} not started`);
  return `${parts.join('; ')}.`;
}
