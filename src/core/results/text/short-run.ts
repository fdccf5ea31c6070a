// What a short run can and cannot tell, in one sentence: with fewer samples than a 95%
// interval needs, every ± is infinite; with fewer than the U test needs, no difference
// can be significant. The numbers come from the statistics code, not from a constant.
import type { Results } from '../../bench/results.ts';
import { minSamplesToDetect } from '../../stats/ab-test.ts';
import { minSamplesForInterval } from '../../stats/median.ts';

/** 6: the fewest samples whose order statistics bracket the median with 95% confidence. */
export const MIN_ROUNDS_FOR_INTERVAL = Number(minSamplesForInterval(0.95).replace(/\D/g, ''));
/** The fewest samples per side for which the U test can reach p < 0.05. */
export const MIN_ROUNDS_TO_DETECT = minSamplesToDetect(0.05).n;

/** The fewest samples any measured contestant and size has, or null when nothing was measured. */
export function fewestSamples(results: Results): number | null {
  const counts = results.runs.filter((run) => run.nsPerOp.length > 0).map((run) => run.nsPerOp.length);
  return counts.length === 0 ? null : Math.min(...counts);
}

/** The sentence shown above the tables when the samples are too few, or null when they are enough. */
export function shortRunSentence(results: Results): string | null {
  const fewest = fewestSamples(results);
  if (fewest === null || fewest >= MIN_ROUNDS_FOR_INTERVAL) return null;
  const samples = `${fewest} ${fewest === 1 ? 'sample' : 'samples'}`;
  const detect = fewest < MIN_ROUNDS_TO_DETECT ? ', and no difference can be called real' : '';
  return `With ${samples} per contestant and size these figures are single guesses: no confidence interval can be computed (every ± reads ∞)${detect}. Run at least ${MIN_ROUNDS_FOR_INTERVAL} rounds for an interval, 10 for solid statistics.`;
}
