// What the class board shows, computed from the machines' summaries: at one input size,
// each contestant's throughput on every machine with the class median and its spread,
// and each step's guesses beside what the class measured (the ladder of steps and each
// machine's verdict on them are in verdict-board.ts). Pure functions, tested in Node.
import { STAGES } from '../../../steps/index.ts';
import { CONTESTANT_LABELS } from '../../core/bench/contestant-labels.ts';
import { baselineInfo } from '../../../steps/baseline-info.ts';
import { articleSpeedupBetween } from '../../core/results/analysis/model.ts';
import { quantileSorted } from '../../core/stats/median.ts';
import type { ClassPlan } from '../../core/class/plan.ts';
import { runState, type EntrySummary, type RunState } from '../../core/class/summary.ts';
import { guessAgainst, guessChoices, nearestChoice, type GuessChoice } from '../../core/predict/guess.ts';
import { guessStages, guessTally } from '../../core/class/guesses.ts';
import { articleRatio } from '../ui/lesson/article-facts.ts';

/** A class-wide figure: median, quartiles and extremes over the machines that have it. */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
  /** Machines it is computed from. */
  n: number;
}

export interface BoardColumn {
  id: string;
  title: string;
  kind: 'stage' | 'baseline' | 'peer';
}

const contestants = new Map(CONTESTANT_LABELS.map((c) => [c.id, c]));

export function spread(values: number[]): Spread | null {
  const sorted = values.filter((v) => Number.isFinite(v) && v > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return {
    median: quantileSorted(sorted, 0.5),
    q1: quantileSorted(sorted, 0.25),
    q3: quantileSorted(sorted, 0.75),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    n: sorted.length,
  };
}

/** The plan's contestants with their titles, in the plan's (the lesson's) order. */
export function boardColumns(plan: ClassPlan): BoardColumn[] {
  return plan.contestants.map((id) => {
    const c = contestants.get(id);
    return { id, title: c?.title ?? id, kind: c?.kind ?? 'peer' };
  });
}

const stageNumbers = new Map(STAGES.map((stage) => [stage.id, String(stage.index)]));

/** A column's short name under the chart and atop the table: the stage's number, or a short library name. */
export function columnLabel(column: BoardColumn): string {
  return stageNumbers.get(column.id) ?? baselineInfo(column.id)?.display.short ?? column.id;
}

/** One machine's median MB/s for a contestant at a size, if it has one. */
export function throughputOf(entry: EntrySummary, id: string, size: number): number | undefined {
  return entry.throughput[id]?.[String(size)];
}

/** Machines that have posted at least one figure. */
export function reported(entries: EntrySummary[]): number {
  return entries.filter((entry) => Object.keys(entry.throughput).length > 0).length;
}

/** The class median and quartiles of each contestant at `size`. */
export function contestantSpreads(entries: EntrySummary[], plan: ClassPlan, size: number): Map<string, Spread | null> {
  return new Map(plan.contestants.map((id) => [id, spread(entries.map((e) => throughputOf(e, id, size) ?? NaN))]));
}

/** Each machine's throughput of `id` over that of `against` at `size` (NaN where it lacks either). */
function ratiosOf(entries: EntrySummary[], id: string, against: string, size: number): number[] {
  return entries.map((e) => {
    const now = throughputOf(e, id, size);
    const before = throughputOf(e, against, size);
    return now !== undefined && before !== undefined ? now / before : NaN;
  });
}

/** One step of "guesses, then measured": how many guessed each choice, and how many machines measured near it. */
export interface GuessStep {
  stage: number;
  choices: readonly GuessChoice[];
  /** Guesses per choice. */
  guessed: number[];
  /** Machines whose own ratio at the board's size falls nearest each choice. */
  measured: number[];
  /** The class's measured ratio: median and quartiles over the machines. */
  step: Spread | null;
  /** The article's ratio, or null where it gives none. */
  article: number | null;
}

/** Every stage the class can guess, with its guesses and its measured answers at `size`. */
export function guessSteps(entries: EntrySummary[], plan: ClassPlan, size: number): GuessStep[] {
  return guessStages(plan).map((stage) => {
    const choices = guessChoices(stage);
    const measured = choices.map(() => 0);
    const ratios = ratiosOf(entries, STAGES[stage].id, guessAgainst(stage), size).filter((r) => Number.isFinite(r) && r > 0);
    for (const ratio of ratios) measured[nearestChoice(stage, ratio)]++;
    return { stage, choices, guessed: guessTally(entries, stage), measured, step: spread(ratios), article: articleRatio(stage) };
  });
}

export type SortKey = 'nickname' | 'browser' | 'os' | 'cores' | 'done' | { contestant: string };
export type SortDirection = 'ascending' | 'descending';

const RUN_ORDER: Record<RunState, number> = { silent: 0, running: 1, stopped: 2, finished: 3 };

function sortValue(entry: EntrySummary, key: SortKey, size: number): string | number | undefined {
  if (typeof key === 'object') return throughputOf(entry, key.contestant, size);
  if (key === 'cores') return entry.cores;
  if (key === 'done') return RUN_ORDER[runState(entry)];
  return entry[key].toLocaleLowerCase();
}

/** The board's table order; machines without a figure for the sorted column go last either way. */
export function sortEntries(entries: EntrySummary[], key: SortKey, direction: SortDirection, size: number): EntrySummary[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...entries].sort((a, b) => {
    const x = sortValue(a, key, size);
    const y = sortValue(b, key, size);
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    return x < y ? -sign : x > y ? sign : 0;
  });
}
