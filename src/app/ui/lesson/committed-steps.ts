// What the committed run in two engines (data/engines/, the run of the "Every engine"
// page) says of one step, a stage against the stage before it: its median over the
// previous stage's, its p-value, and whether it survives Holm's correction over the sizes
// that step was measured at in that engine, as the stage pages judge a step. The lesson's words
// for what a run showed ("faster", "no measurable difference") and the experiments'
// expected effects are computed here, so a new run that says otherwise changes them.

import { readEnginesRun } from '../results/engines-run.ts';
import { runtimeModels, type RuntimeModel } from '../../../core/results/analysis/runtime-ladder.ts';
import { stepFindings } from '../../../core/results/analysis/model.ts';
import { formatSize } from '../../../core/format.ts';

export interface StepEffect {
  stage: string;
  previous: string;
  runtime: string;
  size: number;
  /** The stage's median MB/s over the previous stage's. */
  ratio: number;
  /** Mann-Whitney's two-sided p-value of the two sets of samples. */
  p: number;
  /** The difference survives Holm's correction over the sizes the step was measured at in that engine. */
  measurable: boolean;
  /** How many sizes that correction is over. */
  family: number;
}

let committed: RuntimeModel[] | undefined;

/** One model per engine of the run in `data`, the committed run unless given. */
export function engineStepModels(data?: unknown): RuntimeModel[] {
  if (data !== undefined) return runtimeModels(readEnginesRun(data));
  return (committed ??= runtimeModels(readEnginesRun()));
}

/** A stage's step in one engine at one size; throws when the run did not measure it. */
export function stepEffect(models: RuntimeModel[], runtime: string, stage: string, size: number): StepEffect {
  const model = models.find((m) => m.runtime.id === runtime)?.model;
  const finding = model && stepFindings(model, stage).find((f) => f.row.size === size);
  if (!finding) throw new Error(`data/engines: no step of ${stage} at ${formatSize(size)} in ${runtime}`);
  const { row } = finding;
  return { stage, previous: row.previous, runtime, size, ratio: row.speedup, p: row.comparison.p, measurable: finding.significant, family: finding.family };
}

/** "measurably faster", "measurably slower" or "not measurably faster or slower": what the step was, in words. */
export function effectWords(effect: StepEffect): string {
  if (!effect.measurable) return effect.p < 0.05 ? `not measurably faster or slower once its p-value is corrected over the ${effect.family} sizes the step was measured at` : 'not measurably faster or slower';
  return effect.ratio > 1 ? 'measurably faster' : 'measurably slower';
}

/** "0.99× stage 6 at 96 B (p = 0.91)": the step's figures as the lesson quotes them. */
export function effectFigures(effect: StepEffect): string {
  const p = effect.p < 0.001 ? 'p < 0.001' : `p = ${effect.p.toFixed(effect.p < 0.01 ? 3 : 2)}`;
  return `${effect.ratio.toFixed(2)}× stage ${Number.parseInt(effect.previous, 10)} at ${formatSize(effect.size)} (${p})`;
}
