// What the results pages show, computed once per result set: throughput per contestant
// and size in MB/s, each stage against the one before it, everything against the WASM
// build of the Rust reference, and every run that did not finish cleanly with its reason.
// The statistics themselves (medians, intervals, U test, Holm) come from stage-report.ts and
// comparison.ts, the same code the command line uses, so the page and `npm run compare` agree.
import { STAGES } from '../../../../steps/index.ts';
import { BLAKE3_WASM } from '../../../../steps/baseline-info.ts';
import type { ContestantInfo, Results, RunStatus } from '../../bench/results.ts';
import type { Comparison } from '../../stats/ab-test.ts';
import { holm } from '../../stats/aggregate.ts';
import { NATIVE_REFERENCE_ID } from '../../bench/native-results.ts';
import type { CellSummary } from './comparison.ts';
import { compareStages, type StageReport, type StepComparison } from './stage-report.ts';

/** The article's yardstick: every "x times WASM" figure is relative to it. */
export const BASELINE_ID = BLAKE3_WASM.id;

/** A median with its 95% interval, in MB/s (bounds are ±Infinity when there are too few samples for one). */
export type Estimate = CellSummary;

export interface RunNote {
  contestant: string;
  title: string;
  status: Exclude<RunStatus, 'ok'>;
  reason: string;
  /** Sizes this note applies to, ascending. */
  sizes: number[];
}

export interface ResultsModel {
  results: Results;
  sizes: number[];
  /** Stages in lesson order, then baselines and peers in the document's order. */
  contestants: ContestantInfo[];
  /** Throughput by cellKey(contestant, size); only pairs with trusted samples. */
  throughput: Map<string, Estimate>;
  notes: RunNote[];
  report: StageReport;
}

export interface StepRow {
  contestant: string;
  title: string;
  previous: string;
  previousTitle: string;
  size: number;
  old: Estimate;
  new: Estimate;
  /** This stage's median throughput over the previous stage's. */
  speedup: number;
  /** Widest ratio the two 95% intervals allow; null when either interval is unbounded. */
  range: [number, number] | null;
  /** On throughput samples: a positive delta is faster. */
  comparison: Comparison;
  adjustedP: number;
  holmSignificant: boolean;
  /** The article's speedup for the same step(s), multiplied over skipped stages; null where it gave none. */
  article: number | null;
  warnings: string[];
}

export interface BaselineRow {
  contestant: string;
  title: string;
  kind: ContestantInfo['kind'];
  size: number;
  estimate: Estimate;
  /** Median throughput over blake3-wasm's: "2.21x". */
  ratio: number;
  /** Median throughput over native-sse41's, when the run has native rows (`--native`); null otherwise. */
  timesNative: number | null;
  range: [number, number] | null;
  /** Null for the baseline itself. */
  comparison: Comparison | null;
  adjustedP: number | null;
  holmSignificant: boolean;
  warnings: string[];
}

export function cellKey(contestant: string, size: number): string {
  return `${contestant}\u0000${size}`;
}

/** A throughput estimate in B/s (as the statistics keep it) in MB/s (as the page shows it). */
export function inMBps(cell: CellSummary): Estimate {
  return { center: cell.center / 1e6, lo: cell.lo / 1e6, hi: cell.hi / 1e6, n: cell.n, warnings: cell.warnings };
}

/** The ratio of two estimates at its widest, or null when either has no finite interval. */
export function ratioRange(numerator: Estimate, denominator: Estimate): [number, number] | null {
  const bounds = [numerator.lo, numerator.hi, denominator.lo, denominator.hi];
  if (!bounds.every((x) => Number.isFinite(x) && x > 0)) return null;
  return [numerator.lo / denominator.hi, numerator.hi / denominator.lo];
}

const stageIndex = new Map(STAGES.map((stage) => [stage.id, stage.index]));

/** The article's figure for going from stage `from` to stage `to`: the product of the steps between, if it gave all of them. */
export function articleSpeedupBetween(from: string, to: string): number | null {
  const a = stageIndex.get(from);
  const b = stageIndex.get(to);
  if (a === undefined || b === undefined || b <= a) return null;
  let product = 1;
  for (const stage of STAGES.slice(a + 1, b + 1)) {
    if (stage.articleSpeedup === null) return null;
    product *= stage.articleSpeedup;
  }
  return product;
}

function collectNotes(results: Results, titles: Map<string, string>): RunNote[] {
  const notes = new Map<string, RunNote>();
  for (const run of results.runs) {
    if (run.status === 'ok') continue;
    const reason = run.reason ?? defaultReason(run.status);
    const key = `${run.contestant}\u0000${run.status}\u0000${reason}`;
    let note = notes.get(key);
    if (!note) {
      note = { contestant: run.contestant, title: titles.get(run.contestant) ?? run.contestant, status: run.status, reason, sizes: [] };
      notes.set(key, note);
    }
    if (!note.sizes.includes(run.size)) note.sizes.push(run.size);
  }
  for (const note of notes.values()) note.sizes.sort((a, b) => a - b);
  return [...notes.values()];
}

function defaultReason(status: Exclude<RunStatus, 'ok'>): string {
  switch (status) {
    case 'timeboxed':
      return 'stopped by the time box; the samples taken so far are kept';
    case 'failed':
      return 'failed; no samples are trusted';
    case 'cancelled':
      return 'cancelled; the samples taken so far are kept';
    case 'unavailable':
      return 'not available in this browser';
  }
}

export function buildModel(results: Results): ResultsModel {
  const stages = results.contestants.filter((c) => c.kind === 'stage').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const others = results.contestants.filter((c) => c.kind !== 'stage');
  const contestants = [...stages, ...others];
  const titles = new Map(contestants.map((c) => [c.id, c.title]));
  const sizes = [...new Set([...results.config.sizes, ...results.runs.map((r) => r.size)])].sort((a, b) => a - b);
  const report = compareStages(results, { unit: 'B/s', baseline: BASELINE_ID, native: NATIVE_REFERENCE_ID });
  const throughput = new Map<string, Estimate>();
  for (const row of report.rows) throughput.set(cellKey(row.contestant, row.size), inMBps(row.summary));
  return { results, sizes, contestants, throughput, notes: collectNotes(results, titles), report };
}

export function titleOf(model: ResultsModel, id: string): string {
  return model.contestants.find((c) => c.id === id)?.title ?? id;
}

function warningsOf(...lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}

/** One step as a sentence states it: its row at one size, with the p-value corrected over the step's own sizes. */
export interface StepFinding {
  row: StepRow;
  /** Holm over this stage's step at every size it was measured at, not over the whole ladder. */
  adjustedP: number;
  significant: boolean;
  /** How many sizes the correction is over. */
  family: number;
}

/**
 * A stage's step at every size, each p-value corrected over those sizes: the family of
 * any sentence about one step (a stage page, an experiment, the engines page's words on
 * one step), whatever else the run holds, so a step measured again alone says what it
 * said in the ladder. A table of every step at one size keeps the ladder's family
 * (StepRow.adjustedP) and says so.
 */
export function stepFindings(model: ResultsModel, stageId: string, alpha = 0.05): StepFinding[] {
  const rows = model.sizes.flatMap((size) => stepRows(model, size).filter((r) => r.contestant === stageId));
  const adjusted = holm(rows.map((r) => r.comparison.p));
  return rows.map((row, i) => ({ row, adjustedP: adjusted[i], significant: !(adjusted[i] > alpha), family: rows.length }));
}

/** Every stage against the nearest earlier stage measured at `size`. */
export function stepRows(model: ResultsModel, size: number): StepRow[] {
  const rows: StepRow[] = [];
  for (const row of model.report.rows) {
    if (row.size !== size || !row.vsPrevious) continue;
    const step: StepComparison = row.vsPrevious;
    const old = model.throughput.get(cellKey(step.against, size));
    const neu = model.throughput.get(cellKey(row.contestant, size));
    if (!old || !neu) continue;
    rows.push({
      contestant: row.contestant,
      title: titleOf(model, row.contestant),
      previous: step.against,
      previousTitle: titleOf(model, step.against),
      size,
      old,
      new: neu,
      speedup: neu.center / old.center,
      range: ratioRange(neu, old),
      comparison: step.comparison,
      adjustedP: step.adjustedP,
      holmSignificant: step.holmSignificant,
      article: articleSpeedupBetween(step.against, row.contestant),
      warnings: warningsOf(old.warnings, neu.warnings, step.comparison.warnings),
    });
  }
  return rows;
}

/** Every contestant measured at `size` against blake3-wasm at the same size; empty when the baseline was not measured there. */
export function baselineRows(model: ResultsModel, size: number): BaselineRow[] {
  const base = model.throughput.get(cellKey(BASELINE_ID, size));
  if (!base) return [];
  const rows: BaselineRow[] = [];
  for (const contestant of model.contestants) {
    const estimate = model.throughput.get(cellKey(contestant.id, size));
    if (!estimate) continue;
    const reportRow = model.report.rows.find((r) => r.contestant === contestant.id && r.size === size);
    const vs = reportRow?.vsBaseline ?? null;
    rows.push({
      contestant: contestant.id,
      title: contestant.title,
      kind: contestant.kind,
      size,
      estimate,
      ratio: estimate.center / base.center,
      timesNative: reportRow?.timesNative ?? null,
      range: contestant.id === BASELINE_ID ? null : ratioRange(estimate, base),
      comparison: vs?.comparison ?? null,
      adjustedP: vs?.adjustedP ?? null,
      holmSignificant: vs?.holmSignificant ?? false,
      warnings: warningsOf(estimate.warnings, vs?.comparison.warnings ?? []),
    });
  }
  return rows;
}

/**
 * The size a per-size chart opens at: the one where the most rows can be drawn (stage 0
 * is time-boxed at the large sizes), the largest of those on a tie, since large inputs
 * show the steady state the article measured.
 */
export function defaultSize(model: Pick<ResultsModel, 'sizes'>, count: (size: number) => number): number | null {
  let best: number | null = null;
  let bestCount = 0;
  for (const size of model.sizes) {
    const n = count(size);
    if (n > 0 && n >= bestCount) {
      best = size;
      bestCount = n;
    }
  }
  return best;
}

/** A logarithmic axis when the values span more than this factor; a linear one reads better below it. */
export const LOG_SCALE_SPAN = 20;

export function needsLogScale(values: number[]): boolean {
  const positive = values.filter((v) => Number.isFinite(v) && v > 0);
  if (positive.length < 2) return false;
  return Math.max(...positive) / Math.min(...positive) > LOG_SCALE_SPAN;
}
