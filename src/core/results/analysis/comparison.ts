// Turning result sets into benchstat-style comparison rows: old vs new per benchmark and
// unit (sec/op and B/s, as benchstat tidies ns/op and MB/s), a geomean row, and
// Holm-adjusted p-values beside benchstat's raw ones. The bench CLI's view of one run is
// in stage-report.ts; text layout lives in text/report-text.ts.

import { runtimesOf } from '../../bench/runtimes.ts';
import type { Results } from '../../bench/results.ts';
import { geomean, holm } from '../../stats/aggregate.ts';
import { compareSamples, percentChange, type Comparison } from '../../stats/ab-test.ts';
import { summarize, type Summary } from '../../stats/median.ts';
import { tidy } from '../../stats/benchunit.ts';
import { mbPerSec } from '../../stats/benchunit.ts';
import { benchmarkName, goConfig, nameRuntime, parseSizeLabel } from '../io/benchfmt-write.ts';
import { looksLikeBenchfmt, nameKeys, parseBenchfmt, rowName, type BenchfmtFile } from '../io/benchfmt-read.ts';
import { parseResultsJson } from '../io/validate.ts';

export interface SampleRow {
  /** Benchmark name without "Benchmark" (and for ours without -GOMAXPROCS, see rowName): "BLAKE3/stage=04-state-locals/size=1KiB". */
  name: string;
  /** Tidied unit: "sec/op", "B/s", or whatever else the Go text had. */
  unit: string;
  values: number[];
  contestant?: string;
  size?: number;
}

/** Samples from one file, in order of first appearance. */
export interface SampleSet {
  label: string;
  config: Record<string, string>;
  rows: SampleRow[];
}

/** One side of a row, as benchstat prints it: the median, its interval, n and warnings. */
export type CellSummary = Summary;

export interface ComparisonRow {
  name: string;
  unit: string;
  contestant?: string;
  size?: number;
  old: CellSummary | null;
  new: CellSummary | null;
  /** Change of the median in percent; null when not significant (benchstat's "~") or undefined. */
  deltaPct: number | null;
  rawDeltaPct: number | null;
  p: number | null;
  /** Holm-Bonferroni adjusted p over all rows of this unit's table. */
  adjustedP: number | null;
  /** benchstat's rule on the raw p: p <= alpha. */
  significant: boolean;
  comparison: Comparison | null;
  /** Every warning of this row: both cells' and the comparison's. */
  warnings: string[];
}

export interface GeomeanRow {
  name: 'geomean';
  unit: string;
  old: number | null;
  new: number | null;
  /** Geomean of the per-row ratios new/old, as a change in percent (all rows count, significant or not, as in benchstat). */
  deltaPct: number | null;
  oldWarnings: string[];
  newWarnings: string[];
}

export interface ComparisonTable {
  unit: string;
  rows: ComparisonRow[];
  geomean: GeomeanRow;
}

export interface ComparisonReport {
  oldLabel: string;
  newLabel: string;
  /** Configuration keys of both files: equal values once, differing ones as a pair. */
  config: { key: string; old?: string; new?: string }[];
  alpha: number;
  confidence: number;
  tables: ComparisonTable[];
}

export interface CompareOptions {
  alpha?: number;
  confidence?: number;
}

function addRow(rows: SampleRow[], index: Map<string, SampleRow>, row: Omit<SampleRow, 'values'>, value: number): void {
  const key = `${row.unit}\u0000${row.name}`;
  let existing = index.get(key);
  if (!existing) {
    existing = { ...row, values: [] };
    index.set(key, existing);
    rows.push(existing);
  }
  existing.values.push(value);
}

/** Samples of a results document: sec/op and B/s per contestant and size; runs with untrusted samples are left out. */
export function samplesFromResults(results: Results, label: string): SampleSet {
  const rows: SampleRow[] = [];
  const index = new Map<string, SampleRow>();
  for (const unit of ['sec/op', 'B/s']) {
    for (const run of results.runs) {
      if (run.status === 'failed' || run.status === 'unavailable') continue;
      const row = { name: benchmarkName(run.contestant, run.size, nameRuntime(results, run)), unit, contestant: run.contestant, size: run.size };
      for (const ns of run.nsPerOp) {
        const value = unit === 'sec/op' ? tidy(ns, 'ns/op').value : tidy(mbPerSec(run.size, ns), 'MB/s').value;
        addRow(rows, index, row, value);
      }
    }
  }
  return { label, config: Object.fromEntries(goConfig(results.env, runtimesOf(results))), rows };
}

/** Samples of Go benchmark text, each value tidied as benchstat does (ns/op -> sec/op, MB/s -> B/s). */
export function samplesFromBenchfmt(file: BenchfmtFile, label: string): SampleSet {
  const rows: SampleRow[] = [];
  const index = new Map<string, SampleRow>();
  const byUnit = new Map<string, { result: BenchfmtFile['results'][number]; value: number }[]>();
  for (const result of file.results) {
    for (const v of result.values) {
      const t = tidy(v.value, v.unit);
      if (!byUnit.has(t.unit)) byUnit.set(t.unit, []);
      byUnit.get(t.unit)!.push({ result, value: t.value });
    }
  }
  for (const [unit, entries] of byUnit) {
    for (const { result, value } of entries) {
      const keys = nameKeys(result.name);
      const size = keys.size === undefined ? null : parseSizeLabel(keys.size);
      const row: Omit<SampleRow, 'values'> = { name: rowName(result.name), unit };
      if (keys.stage !== undefined) row.contestant = keys.stage;
      if (size !== null) row.size = size;
      addRow(rows, index, row, value);
    }
  }
  return { label, config: { ...(file.results[0]?.config ?? {}) }, rows };
}

/**
 * Samples from a file's text, whichever kind it is: a results document (JSON) or Go
 * benchmark text. `label` names the file in messages; unreadable lines of Go text go to
 * `warn` (benchstat also skips them with a warning); anything else unusable throws.
 */
export function samplesFromText(label: string, text: string, warn: (message: string) => void = () => {}): SampleSet {
  if (text.trim() === '') throw new Error(`${label}: the file is empty`);
  if (/^\s*[{[]/.test(text)) {
    const check = parseResultsJson(text);
    if (!check.ok) throw new Error(`${label}: not a valid results file: ${check.error}`);
    const set = samplesFromResults(check.results, label);
    if (set.rows.length === 0) throw new Error(`${label}: the results hold no usable samples (every run failed or was unavailable)`);
    return set;
  }
  if (!looksLikeBenchfmt(text)) {
    throw new Error(`${label}: neither a results file (JSON) nor Go benchmark text (no "BenchmarkName  N  value unit" lines)`);
  }
  const file = parseBenchfmt(text);
  for (const e of file.errors) warn(`${label}:${e.line}: ${e.message}`);
  const set = samplesFromBenchfmt(file, label);
  if (set.rows.length === 0) throw new Error(`${label}: no benchmark line could be read`);
  return set;
}

const unique = (xs: string[]) => [...new Set(xs)];

function geomeanRow(unit: string, rows: ComparisonRow[]): GeomeanRow {
  const oldWarnings: string[] = [];
  const newWarnings: string[] = [];
  // benchstat's check: every baseline benchmark must have a partner, or the geomeans
  // summarize different sets of benchmarks.
  if (rows.some((r) => r.old && !r.new)) newWarnings.push('benchmark set differs from baseline; geomeans may not be comparable');
  const gmOld = geomean(rows.filter((r) => r.old).map((r) => r.old!.center));
  const gmNew = geomean(rows.filter((r) => r.new).map((r) => r.new!.center));
  if (Number.isNaN(gmOld)) oldWarnings.push('summaries must be >0 to compute geomean');
  if (Number.isNaN(gmNew)) newWarnings.push('summaries must be >0 to compute geomean');
  // The geomean of the ratios, not the ratio of the geomeans: the same when the sets
  // match, and still a fair summary of the new column when they do not.
  const ratios: number[] = [];
  let badRatio = false;
  for (const r of rows) {
    if (!r.old || !r.new) continue;
    if (r.new.center === r.old.center) ratios.push(1);
    else if (r.old.center === 0) badRatio = true;
    else ratios.push(r.new.center / r.old.center);
  }
  let deltaPct: number | null = null;
  if (!badRatio) {
    const ratio = geomean(ratios);
    if (Number.isNaN(ratio)) newWarnings.push('ratios must be >0 to compute geomean');
    else deltaPct = (ratio - 1) * 100;
  }
  return {
    name: 'geomean',
    unit,
    old: Number.isNaN(gmOld) ? null : gmOld,
    new: Number.isNaN(gmNew) ? null : gmNew,
    deltaPct,
    oldWarnings,
    newWarnings,
  };
}

function compareTable(unit: string, oldRows: SampleRow[], newRows: SampleRow[], alpha: number, confidence: number): ComparisonTable {
  const names = unique([...oldRows, ...newRows].map((r) => r.name));
  const rows: ComparisonRow[] = names.map((name) => {
    const a = oldRows.find((r) => r.name === name);
    const b = newRows.find((r) => r.name === name);
    const old = a ? summarize(a.values, confidence) : null;
    const neu = b ? summarize(b.values, confidence) : null;
    const comparison = a && b ? compareSamples(a.values, b.values, alpha) : null;
    const info = a ?? b!;
    const row: ComparisonRow = {
      name,
      unit,
      old,
      new: neu,
      deltaPct: comparison ? comparison.deltaPct : null,
      rawDeltaPct: comparison ? comparison.rawDeltaPct : old && neu ? percentChange(old.center, neu.center) : null,
      p: comparison ? comparison.p : null,
      adjustedP: null,
      significant: comparison ? comparison.significant : false,
      comparison,
      warnings: unique([...(old?.warnings ?? []), ...(neu?.warnings ?? []), ...(comparison?.warnings ?? [])]),
    };
    if (info.contestant !== undefined) row.contestant = info.contestant;
    if (info.size !== undefined) row.size = info.size;
    return row;
  });
  const tested = rows.filter((r) => r.p !== null);
  holm(tested.map((r) => r.p!)).forEach((adjusted, i) => (tested[i].adjustedP = adjusted));
  return { unit, rows, geomean: geomeanRow(unit, rows) };
}

/** Compare two sample sets: one table per unit, rows in order of first appearance (old file first). */
export function compareSampleSets(oldSet: SampleSet, newSet: SampleSet, options: CompareOptions = {}): ComparisonReport {
  const alpha = options.alpha ?? 0.05;
  const confidence = options.confidence ?? 0.95;
  const units = unique([...oldSet.rows, ...newSet.rows].map((r) => r.unit));
  const tables = units.map((unit) =>
    compareTable(
      unit,
      oldSet.rows.filter((r) => r.unit === unit),
      newSet.rows.filter((r) => r.unit === unit),
      alpha,
      confidence,
    ),
  );
  const keys = unique([...Object.keys(oldSet.config), ...Object.keys(newSet.config)]);
  const config = keys.map((key) => ({ key, old: oldSet.config[key], new: newSet.config[key] }));
  return { oldLabel: oldSet.label, newLabel: newSet.label, config, alpha, confidence, tables };
}

/** Compare two results documents (old is the baseline). */
export function compareResults(oldResults: Results, newResults: Results, options: CompareOptions & { oldLabel?: string; newLabel?: string } = {}): ComparisonReport {
  return compareSampleSets(
    samplesFromResults(oldResults, options.oldLabel ?? 'old'),
    samplesFromResults(newResults, options.newLabel ?? 'new'),
    options,
  );
}
