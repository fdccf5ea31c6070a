// An exercise's goal and its verdict, on this machine, from one interleaved run of three
// contestants: the stage before (where the learner starts), the learner's draft, and the
// stage the article made (the reference). The goal is a ratio, never a time, so the same
// exercise is fair on a phone and on a workstation: at each of the exercise's sizes the
// draft must gain at least GOAL_SHARE of the reference's gain over the stage before, on a
// log scale (half of a 2x step is about 1.41x). Each side is a median with its 95%
// interval, the speedup's interval the widest ratio the two allow (as the results pages
// compute it), so a learner is never failed on noise: a size whose interval straddles
// the goal is "cannot tell yet", with a longer run to offer.
import { summarize, type Summary } from '../stats/median.ts';
import { compareSamples } from '../stats/ab-test.ts';
import { holm } from '../stats/aggregate.ts';

/** The share of the reference's log speedup a draft must reach: 0.5 is half the step, on a log scale. */
export const GOAL_SHARE = 0.5;
export const ALPHA = 0.05;

/** One size of the run: each contestant's ns per hash, one sample per round. */
export interface ExerciseCell {
  size: number;
  previous: readonly number[];
  draft: readonly number[];
  reference: readonly number[];
}

/** A speedup over another contestant: the medians' ratio, the widest ratio the intervals allow, and the U test after Holm. */
export interface Speedup {
  ratio: number;
  /** Null when either interval is unbounded (too few rounds for one). */
  range: [number, number] | null;
  /** Holm-adjusted over the sizes of this comparison. */
  p: number;
  significant: boolean;
}

export type SizeStatus = 'met' | 'short' | 'unclear' | 'no-goal';

export interface SizeVerdict {
  size: number;
  /** The draft over the stage before. */
  draft: Speedup;
  /** The reference over the stage before: what the article's change gives here. */
  reference: Speedup;
  /** The draft over the reference: above 1, faster than the article's change. */
  draftVsReference: Speedup;
  /** The speedup over the stage before that counts as done here; null when the reference itself did not clearly pay in this run. */
  goal: number | null;
  status: SizeStatus;
}

export interface ExerciseVerdict {
  status: 'met' | 'short' | 'unclear';
  sizes: SizeVerdict[];
}

/** The speedup a draft must reach when the reference gives `referenceSpeedup`. */
export const goalFor = (referenceSpeedup: number): number => referenceSpeedup ** GOAL_SHARE;

/** Throughput samples (hashes per second scaled by size do not matter for a ratio: 1/ns is enough). */
const rates = (nsPerOp: readonly number[]) => nsPerOp.map((ns) => 1 / ns);

function rangeOf(faster: Summary, slower: Summary): [number, number] | null {
  const bounds = [faster.lo, faster.hi, slower.lo, slower.hi];
  if (!bounds.every((x) => Number.isFinite(x) && x > 0)) return null;
  return [faster.lo / slower.hi, faster.hi / slower.lo];
}

/** `b` over `a` at every size, with Holm over the sizes. */
function speedups(pairs: { a: readonly number[]; b: readonly number[] }[]): Speedup[] {
  const compared = pairs.map(({ a, b }) => {
    const [sa, sb] = [summarize(rates(a)), summarize(rates(b))];
    return { ratio: sb.center / sa.center, range: rangeOf(sb, sa), p: compareSamples(a, b, ALPHA).p };
  });
  const adjusted = holm(compared.map((c) => c.p));
  return compared.map((c, i) => ({ ...c, p: adjusted[i], significant: adjusted[i] <= ALPHA && c.ratio !== 1 }));
}

/**
 * Where one size stands: the goal is met when the draft's whole interval reaches it;
 * missed when the whole interval falls short and the draft is also measurably slower
 * than the reference (a draft this run cannot tell from the reference is never failed:
 * on a busy machine the same code can land on both sides of a goal).
 */
function statusAt(draft: Speedup, reference: Speedup, versus: Speedup): { goal: number | null; status: SizeStatus } {
  const slowerThanBoth = draft.significant && draft.ratio < 1 && versus.significant && versus.ratio < 1;
  // Where the reference did not clearly pay there is no goal to reach, but a draft measurably
  // slower than where it started, and than the reference, has still missed.
  if (!reference.significant || reference.ratio <= 1) return { goal: null, status: slowerThanBoth ? 'short' : 'no-goal' };
  const goal = goalFor(reference.ratio);
  if (draft.range === null) return { goal, status: 'unclear' };
  if (draft.range[0] >= goal) return { goal, status: 'met' };
  if (draft.range[1] < goal && versus.significant && versus.ratio < 1) return { goal, status: 'short' };
  return { goal, status: 'unclear' };
}

/**
 * The verdict over the exercise's sizes. Met when every size with a goal is met (and at
 * least one has a goal); short when any size is clearly short (with a goal or, where
 * there is none, clearly slower than both stages); else it cannot tell yet,
 * which asks for more rounds, never a failure.
 */
export function judgeExercise(cells: readonly ExerciseCell[]): ExerciseVerdict {
  if (cells.length === 0) throw new RangeError('an exercise is judged on at least one size');
  const draft = speedups(cells.map((c) => ({ a: c.previous, b: c.draft })));
  const reference = speedups(cells.map((c) => ({ a: c.previous, b: c.reference })));
  const versus = speedups(cells.map((c) => ({ a: c.reference, b: c.draft })));
  const sizes = cells.map((cell, i): SizeVerdict => ({
    size: cell.size,
    draft: draft[i],
    reference: reference[i],
    draftVsReference: versus[i],
    ...statusAt(draft[i], reference[i], versus[i]),
  }));
  const goals = sizes.filter((s) => s.goal !== null);
  const status = sizes.some((s) => s.status === 'short')
    ? 'short'
    : goals.length > 0 && goals.every((s) => s.status === 'met')
      ? 'met'
      : 'unclear';
  return { status, sizes };
}
