// The exercise's sentences: the goal before and after a run, and the verdict.
// Beside them, the comments a verdict calls for in every exercise (verdictComments).
import type { TurnKind } from '../../../core/content/exercise.ts';
import type { ExerciseVerdict, SizeVerdict, Speedup } from '../../../core/exercise/goal.ts';
import { formatSize } from '../../../core/format.ts';

const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const sizesText = (sizes: readonly number[]) => sizes.map(formatSize).join(' and ');

export const GOAL_RULE =
  "The goal: half the article's step on a log scale (a 2x step asks for 1.41x), in the same run on this machine. Met when your speedup's whole 95% interval reaches it wherever the reference clearly pays, missed only where it falls below and the run tells your draft from the reference.";

/**
 * Where the article's change clearly slows stage N-1 down in this browser (stage 3 in
 * SpiderMonkey, say) and pays nowhere, there is no goal to reach, and measuring again
 * cannot make one: the figures, or null when that is not the case.
 */
export function referenceSlowerHere(verdict: ExerciseVerdict): string | null {
  if (verdict.sizes.some((s) => s.goal !== null)) return null;
  const slower = verdict.sizes.filter((s) => s.reference.significant && s.reference.ratio < 1);
  return slower.length === 0 ? null : slower.map((s) => `${x(s.reference.ratio)} at ${formatSize(s.size)}`).join(', ');
}

export function goalSentence(previous: number, sizes: readonly number[], verdict: ExerciseVerdict | null): string {
  if (verdict === null) {
    return `Make it at least half of the article's step faster than stage ${previous} at ${sizesText(sizes)} (measured in the same run on this machine); the article's change gives what the same run measures here.`;
  }
  const withGoal = verdict.sizes.filter((s) => s.goal !== null);
  const slower = referenceSlowerHere(verdict);
  if (slower) return `No goal in this browser: here the article's change makes stage ${previous + 1} slower than stage ${previous} (${slower}), so there is nothing to reach; the Engines page shows where it pays.`;
  if (withGoal.length === 0) {
    return `Make it faster than stage ${previous} at ${sizesText(sizes)}; in this run the article's change itself did not clearly pay (${verdict.sizes.map((s) => `${x(s.reference.ratio)} at ${formatSize(s.size)}`).join(', ')}), so there is no goal yet: measure again.`;
  }
  return `Make it at least ${withGoal.map((s) => `${x(s.goal!)} at ${formatSize(s.size)}`).join(' and ')} faster than stage ${previous}; the article's change gives ${withGoal.map((s) => x(s.reference.ratio)).join(' and ')} here.`;
}

export function verdictSentence(previous: number, verdict: ExerciseVerdict): string {
  const goals = verdict.sizes.filter((s) => s.goal !== null);
  if (verdict.status === 'met') {
    const least = Math.min(...goals.map((s) => s.draft.ratio));
    return `Done: ${x(least)} faster than stage ${previous} at ${sizesText(goals.map((s) => s.size))}, the goal was ${goals.map((s) => x(s.goal!)).join(' and ')}.`;
  }
  if (verdict.status === 'short') {
    const short = verdict.sizes.filter((s) => s.status === 'short');
    const parts = short.map((s) => `${speed(s.draft, previous)} at ${formatSize(s.size)}, where ${s.goal === null ? `it must at least keep up with stage ${previous}` : `the goal is ${x(s.goal)}`}`);
    return `Not yet: your draft is ${parts.join('; ')}.`;
  }
  const slower = referenceSlowerHere(verdict);
  if (slower) return `No goal in this browser: the article's change is slower than stage ${previous} here (${slower}), so the exercise has nothing to judge; your draft was measured all the same (the table below).`;
  if (goals.length === 0) return "Cannot tell yet: in this run the article's change itself did not clearly pay, so there is no goal to judge against; measure again with more rounds.";
  return "Cannot tell yet: the run's noise is wider than the gap; measure again with more rounds.";
}

/**
 * The learner's prediction beside what was measured, size by size: within the draft's
 * 95% interval is "as you expected"; an interval wholly above or below it says which way
 * it was off; a run too short for an interval says so.
 */
export function predictionSentence(previous: number, predicted: number, verdict: ExerciseVerdict): string {
  const expected = predicted === 1 ? 'about the speed of' : predicted < 1 ? 'slower than' : `${predicted}x as fast as`;
  const parts = verdict.sizes.map((s) => {
    const { ratio, range } = s.draft;
    const how = range === null ? 'too few rounds to tell' : range[1] < predicted ? 'slower than you expected' : range[0] > predicted ? 'faster than you expected' : 'as you expected';
    return `${x(ratio)} at ${formatSize(s.size)} (${how})`;
  });
  return `You expected your draft to be ${expected} stage ${previous}; it measured ${parts.join(' and ')}.`;
}

function speed(s: Speedup, previous: number): string {
  return s.ratio >= 1 ? `${x(s.ratio)} as fast as stage ${previous}` : `slower than stage ${previous} (${x(s.ratio)} its speed)`;
}

export function rangeText(s: Speedup): string {
  return s.range === null ? `${x(s.ratio)} (interval: too few rounds)` : `${x(s.ratio)} (${s.range[0].toFixed(2)} to ${s.range[1].toFixed(2)})`;
}

/** A comment on an attempt that its verdict calls for, the same in every exercise; `kind` is as a wrong turn's. */
export interface VerdictComment {
  kind: TurnKind;
  text: string;
}

const speedupsAt = (sizes: readonly SizeVerdict[], of: (s: SizeVerdict) => Speedup) => sizes.map((s) => `${x(of(s).ratio)} at ${formatSize(s.size)}`).join(' and ');

/** What the verdict says beside the turns: where the draft beats the reference, and a clear gain that has not reached the goal yet. */
export function verdictComments(previous: number, verdict: ExerciseVerdict | null): VerdictComment[] {
  if (verdict === null) return [];
  const comments: VerdictComment[] = [];
  const ahead = verdict.sizes.filter((s) => s.draftVsReference.significant && s.draftVsReference.ratio > 1);
  if (ahead.length > 0) comments.push({ kind: 'celebratory', text: `Faster than the reference here (${speedupsAt(ahead, (s) => s.draftVsReference)}).` });
  const gained = verdict.sizes.filter((s) => s.draft.significant && s.draft.ratio > 1);
  if (verdict.status !== 'met' && gained.length > 0) comments.push({ kind: 'informative', text: `Measurably faster than stage ${previous} (${speedupsAt(gained, (s) => s.draft)}), but not yet at the goal.` });
  return comments;
}
