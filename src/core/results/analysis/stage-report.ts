// The bench CLI's view of one run: every stage against the stage before it and against
// the WebAssembly baseline, with Holm over each family. Text layout lives in
// text/report-text.ts.

import type { ContestantInfo, Results } from '../../bench/results.ts';
import { geomean, holm } from '../../stats/aggregate.ts';
import { compareSamples, type Comparison } from '../../stats/ab-test.ts';
import { summarize } from '../../stats/median.ts';
import { benchmarkName } from '../io/benchfmt-write.ts';
import { samplesFromResults, type CellSummary, type CompareOptions } from './comparison.ts';
import { BLAKE3_WASM } from '../../../../steps/baseline-info.ts';

export interface StepComparison {
  /** The contestant this one is compared against. */
  against: string;
  comparison: Comparison;
  /** Holm-adjusted p within its family (all vs-previous steps, or all vs-baseline comparisons). */
  adjustedP: number;
  /** adjustedP <= alpha: the claim that survives looking at the whole family. */
  holmSignificant: boolean;
}

export interface StageRow {
  contestant: string;
  kind: ContestantInfo['kind'];
  size: number;
  name: string;
  summary: CellSummary;
  vsPrevious: StepComparison | null;
  vsBaseline: StepComparison | null;
  /** Median throughput over the native reference's at this size ("x native"); null without native rows (see StageOptions.native). */
  timesNative?: number | null;
  /** Median throughput over the ceiling's at this size ("x read-only"); see StageOptions.ceiling. */
  timesCeiling?: number | null;
}

export interface StageGeomean {
  contestant: string;
  /** Geomean over sizes of this stage's median / the previous stage's, as a change in percent. */
  vsPreviousPct: number | null;
  vsBaselinePct: number | null;
}

export interface StageReport {
  unit: string;
  baseline: string;
  /** The native contestant rows have an "x native" ratio against, when asked for. */
  native?: string;
  /** The contestant rows have an "x ceiling" ratio against, when asked for. */
  ceiling?: string;
  alpha: number;
  sizes: number[];
  rows: StageRow[];
  geomeans: StageGeomean[];
}

export interface StageOptions extends CompareOptions {
  /** Contestant every stage is also compared with. */
  baseline?: string;
  /** Native contestant every row gets an "x native" ratio against, when the document has its samples. */
  native?: string;
  /** Another contestant every row gets a ratio against, the most the stages could do (bench --file's "read-only"). */
  ceiling?: string;
  unit?: 'sec/op' | 'B/s';
}

/** How many times the reference's throughput a median is, from medians in either unit. */
function timesOf(center: number, reference: number | null, unit: string): number | null {
  if (reference === null || !(center > 0) || !(reference > 0)) return null;
  return unit === 'sec/op' ? reference / center : center / reference;
}

/** StageOptions with their defaults filled in. */
interface StageSettings {
  alpha: number;
  confidence: number;
  baseline: string;
  unit: 'sec/op' | 'B/s';
  native?: string;
  ceiling?: string;
}

/**
 * One run seen as the lesson tells it (of one runtime: split a document of several with
 * splitByRuntime first): each stage against the stage before it (the
 * family for Holm is every such step at every size) and against the baseline (a second
 * family). Stages are taken in id order ("00-..." to "09-..."); the previous stage is the
 * nearest earlier one that has samples at that size. Baselines and peers get rows with
 * their summary and the comparison with the baseline.
 */
export function compareStages(results: Results, options: StageOptions = {}): StageReport {
  const settings: StageSettings = {
    alpha: options.alpha ?? 0.05,
    confidence: options.confidence ?? 0.95,
    baseline: options.baseline ?? BLAKE3_WASM.id,
    unit: options.unit ?? 'sec/op',
    native: options.native,
    ceiling: options.ceiling,
  };
  const { alpha, baseline, unit } = settings;
  const stages = results.contestants.filter((c) => c.kind === 'stage').map((c) => c.id).sort();
  const others = results.contestants.filter((c) => c.kind !== 'stage').map((c) => c.id);
  const sizes = [...new Set(results.runs.map((r) => r.size))].sort((a, b) => a - b);
  const { rows, steps, vsBase } = stageRows(results, [...stages, ...others], sizes, settings);
  for (const family of [steps, vsBase]) {
    holm(family.map((s) => s.comparison.p)).forEach((adjusted, i) => {
      family[i].adjustedP = adjusted;
      family[i].holmSignificant = !(adjusted > alpha);
    });
  }
  return {
    unit,
    baseline,
    alpha,
    sizes,
    rows,
    geomeans: stageGeomeans([...stages, ...others], rows),
    ...(options.native !== undefined && { native: options.native }),
    ...(options.ceiling !== undefined && { ceiling: options.ceiling }),
  };
}

/**
 * A row per contestant (in `order`) and size with samples; each stage compared with the
 * previous stage that has samples at that size, every contestant but the baseline with
 * the baseline. The two families of comparisons come back for Holm to adjust.
 */
function stageRows(results: Results, order: string[], sizes: number[], settings: StageSettings) {
  const { alpha, confidence, baseline, unit } = settings;
  const set = samplesFromResults(results, 'results');
  const samples = (contestant: string, size: number) =>
    set.rows.find((r) => r.unit === unit && r.contestant === contestant && r.size === size)?.values;
  const kinds = new Map(results.contestants.map((c) => [c.id, c.kind]));
  const rows: StageRow[] = [];
  const steps: StepComparison[] = [];
  const vsBase: StepComparison[] = [];
  const step = (a: number[], b: number[], against: string, family: StepComparison[]): StepComparison => {
    const s: StepComparison = { against, comparison: compareSamples(a, b, alpha), adjustedP: NaN, holmSignificant: false };
    family.push(s);
    return s;
  };
  const centerOf = (id: string | undefined, size: number): number | null => {
    const values = id === undefined ? undefined : samples(id, size);
    return values ? summarize(values, confidence).center : null;
  };
  for (const size of sizes) {
    const base = samples(baseline, size);
    const native = centerOf(settings.native, size);
    const ceiling = centerOf(settings.ceiling, size);
    let previous: { id: string; values: number[] } | null = null;
    for (const id of order) {
      const values = samples(id, size);
      if (!values) continue;
      const isStage = kinds.get(id) === 'stage';
      rows.push({
        contestant: id,
        kind: kinds.get(id) ?? 'stage',
        size,
        name: benchmarkName(id, size),
        summary: summarize(values, confidence),
        vsPrevious: isStage && previous ? step(previous.values, values, previous.id, steps) : null,
        vsBaseline: base && id !== baseline ? step(base, values, baseline, vsBase) : null,
        ...(settings.native !== undefined && { timesNative: timesOf(summarize(values, confidence).center, native, unit) }),
        ...(settings.ceiling !== undefined && { timesCeiling: timesOf(summarize(values, confidence).center, ceiling, unit) }),
      });
      if (isStage) previous = { id, values };
    }
  }
  return { rows, steps, vsBase };
}

/** Each contestant's geomean over sizes of its ratios to the previous stage and to the baseline, as a change in percent. */
function stageGeomeans(order: string[], rows: StageRow[]): StageGeomean[] {
  const ratioGeomean = (list: (StepComparison | null)[]): number | null => {
    const ratios = list.filter((s): s is StepComparison => s !== null).map((s) => s.comparison.newCenter / s.comparison.oldCenter);
    const gm = geomean(ratios);
    return Number.isNaN(gm) ? null : (gm - 1) * 100;
  };
  return order.map((contestant) => {
    const mine = rows.filter((r) => r.contestant === contestant);
    return {
      contestant,
      vsPreviousPct: ratioGeomean(mine.map((r) => r.vsPrevious)),
      vsBaselinePct: ratioGeomean(mine.map((r) => r.vsBaseline)),
    };
  });
}
