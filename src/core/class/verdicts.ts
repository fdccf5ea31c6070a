// Each machine's verdict on each step of the class plan, as the board shows it: the
// speedup with its interval and whether the machine can tell the step from noise. The
// server computes it from the samples of the results document it has validated, with
// the bench's own statistics (buildModel: medians and intervals, the U test, Holm over
// every step of the run), so a machine's row on the board says what its Results page says.
import { STAGES } from '../../../steps/index.ts';
import type { Results } from '../bench/results.ts';
import { baselineRows, buildModel, stepRows } from '../results/analysis/model.ts';
import { minimumUTestP, minSamplesToDetect } from '../stats/ab-test.ts';
import { minSamplesForInterval } from '../stats/median.ts';
import { formatPValue } from '../stats/format.ts';

/** The bench's significance level (compareStages' default): a verdict is sure at a Holm-adjusted p at or below it. */
export const ALPHA = 0.05;

/** Stage 9, the lesson's title ("stage 9 against Rust WASM"): its comparison with the yardstick is kept beside the steps. */
export const TITLE_STAGE = STAGES[9].id;

/** One comparison on one machine at one size. */
export interface Verdict {
  /** The contestant measured, and the one it is compared with (the previous stage measured, or Rust WASM). */
  id: string;
  against: string;
  size: number;
  /** Its median throughput over the other's. */
  ratio: number;
  /** The widest ratio the two 95% intervals allow; null when either side has too few samples for an interval. */
  range: [number, number] | null;
  /** The U test's p-value, Holm-adjusted over its family (every step of the run; or every comparison with Rust WASM). */
  p: number;
  /** Whether the adjusted p is at or below ALPHA: the bench's holmSignificant. */
  sure: boolean;
  /** Samples on the smaller side. */
  n: number;
}

export interface MachineVerdicts {
  /** Each stage of the plan against the stage before it that was measured, at every size. */
  steps: Verdict[];
  /** The title's stage against Rust WASM, at every size both were measured. */
  title: Verdict[];
}

/** The verdicts of one results document (of one browser, as a class takes). */
export function machineVerdicts(results: Results): MachineVerdicts {
  const model = buildModel(results);
  const steps: Verdict[] = [];
  const title: Verdict[] = [];
  for (const size of model.sizes) {
    for (const row of stepRows(model, size)) {
      steps.push(verdict(row.contestant, row.previous, size, row.speedup, row.range, row.adjustedP, row.holmSignificant, Math.min(row.comparison.n1, row.comparison.n2)));
    }
    const versus = baselineRows(model, size).find((row) => row.contestant === TITLE_STAGE);
    if (versus?.comparison && versus.adjustedP !== null) {
      title.push(verdict(versus.contestant, model.report.baseline, size, versus.ratio, versus.range, versus.adjustedP, versus.holmSignificant, Math.min(versus.comparison.n1, versus.comparison.n2)));
    }
  }
  return { steps, title };
}

function verdict(id: string, against: string, size: number, ratio: number, range: [number, number] | null, p: number, sure: boolean, n: number): Verdict {
  return { id, against, size, ratio, range, p, sure, n };
}

/** What a machine's verdict says: faster, slower, or it cannot tell. */
export type Call = 'faster' | 'slower' | 'unsure';

export function callOf(v: Verdict): Call {
  return !v.sure ? 'unsure' : v.ratio >= 1 ? 'faster' : 'slower';
}

/** Fewest samples a side for any p at or below ALPHA (4), and for a finite 95% interval (6). */
export const SAMPLES_TO_TELL = minSamplesToDetect(ALPHA).n;
export const SAMPLES_FOR_INTERVAL = Number(minSamplesForInterval(0.95).replace(/\D/g, ''));

/** A p-value as the board prints it: three decimals, "< 0.001" below what those show. */
export function pText(p: number): string {
  return p < 0.0005 ? '< 0.001' : formatPValue(p);
}

/** Why a machine cannot tell a step from noise, in words; null when it can. */
export function whyUnsure(v: Verdict): string | null {
  if (v.sure) return null;
  if (v.n < SAMPLES_TO_TELL) {
    return `${v.n} ${v.n === 1 ? 'sample' : 'samples'} a side: the smallest p the test can give is ${Number(minimumUTestP(v.n).toPrecision(2))}, above ${ALPHA}, whatever was measured (it takes ${SAMPLES_TO_TELL} rounds)`;
  }
  return `the difference is within this machine's noise (p = ${pText(v.p)} after Holm over the run's steps)`;
}
