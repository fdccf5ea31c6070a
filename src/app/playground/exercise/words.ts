// The exercise's sentences: the goal before and after a run, and the verdict.
import type { ExerciseVerdict, Speedup } from '../../../core/exercise/goal.ts';
import { formatSize } from '../../../core/format.ts';

const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const sizesText = (sizes: readonly number[]) => sizes.map(formatSize).join(' and ');

export const GOAL_RULE =
  "The goal: half the article's step on a log scale (a 2x step asks for 1.41x), in the same run on this machine. Met when your speedup's whole 95% interval reaches it wherever the reference clearly pays, missed only where it falls below and the run tells your draft from the reference.";

export function goalSentence(previous: number, sizes: readonly number[], verdict: ExerciseVerdict | null): string {
  if (verdict === null) {
    return `Make it at least half of the article's step faster than stage ${previous} at ${sizesText(sizes)} (measured in the same run on this machine); the article's change gives what the same run measures here.`;
  }
  const withGoal = verdict.sizes.filter((s) => s.goal !== null);
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
  if (goals.length === 0) return "Cannot tell yet: in this run the article's change itself did not clearly pay, so there is no goal to judge against; measure again with more rounds.";
  return "Cannot tell yet: the run's noise is wider than the gap; measure again with more rounds.";
}

function speed(s: Speedup, previous: number): string {
  return s.ratio >= 1 ? `${x(s.ratio)} as fast as stage ${previous}` : `slower than stage ${previous} (${x(s.ratio)} its speed)`;
}

export function rangeText(s: Speedup): string {
  return s.range === null ? `${x(s.ratio)} (interval: too few rounds)` : `${x(s.ratio)} (${s.range[0].toFixed(2)} to ${s.range[1].toFixed(2)})`;
}
