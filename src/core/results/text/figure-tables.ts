// The tables beside the charts, as plain data: the same numbers a chart draws, in the
// notation benchstat prints ("312 ± 2%", "+41.20%", "~", "n=10", but "p<0.001" where
// benchstat's "p=0.000" reads as impossible), with every
// warning as a numbered footnote. They are the charts' text alternative too, so nothing
// a chart shows is missing here.
import { formatSize, formatRatio, formatSig, formatVersus } from '../../format.ts';
import type { RunStatus } from '../../bench/results.ts';
import type { Comparison } from '../../stats/ab-test.ts';
import { formatDelta, formatPlusMinus } from '../../stats/format.ts';
import { readerP, readerPEquals } from '../../stats/plain-words.ts';
import { superscript } from '../../stats/text-layout.ts';
import type { ComparisonTable } from '../analysis/comparison.ts';
import type { StageLadder } from '../analysis/stage-ladder.ts';
import { stageNumber, stepName } from '../analysis/step-label.ts';
import { guessLabel, type Guesses } from '../../predict/guess.ts';
import type { RuntimeLadder } from '../analysis/runtime-ladder.ts';
import { cellKey, inMBps, type BaselineRow, type Estimate, type ResultsModel, type StepRow } from '../analysis/model.ts';

export type Tone = 'good' | 'bad' | 'muted' | 'warn';

export interface TableCell {
  text: string;
  /** Footnote marks ("¹²") after the text. */
  mark?: string;
  tone?: Tone;
  /** Longer explanation, shown on hover. */
  title?: string;
}

export interface TableColumn {
  label: string;
  numeric: boolean;
  title?: string;
  /** On a phone each row is a card; these columns come first in it (the answer before its evidence). */
  lead?: boolean;
}

export interface TableData {
  caption: string;
  columns: TableColumn[];
  /** The first cell of each row names it (a row header). */
  rows: TableCell[][];
  /** Footnote texts; the mark of notes[i] is superscript(i + 1). */
  notes: string[];
}

/** Numbers each distinct warning once, in order of first use. */
export class Footnotes {
  readonly notes: string[] = [];

  mark(warnings: readonly string[]): string {
    let marks = '';
    for (const warning of warnings) {
      let index = this.notes.indexOf(warning);
      if (index < 0) index = this.notes.push(warning) - 1;
      marks += superscript(index + 1);
    }
    return marks;
  }
}

/** "312 ± 2%": the median and the larger side of its 95% interval, as benchstat prints it. */
export function estimateText(estimate: Estimate): string {
  return `${formatSig(estimate.center)} ± ${formatPlusMinus(estimate)}`;
}

const STATUS_TEXT: Record<Exclude<RunStatus, 'ok'>, string> = {
  timeboxed: 'time-boxed',
  failed: 'failed',
  cancelled: 'cancelled',
  unavailable: 'unavailable',
};

/** The "vs base" cell: "~" for noise, else the signed change of the throughput medians, toned by direction. */
function deltaCell(comparison: Comparison | null): TableCell {
  if (!comparison) return { text: '' };
  const text = formatDelta(comparison);
  if (text === '~') return { text, tone: 'muted', title: 'no significant difference (p > 0.05): noise' };
  return { text, tone: comparison.newCenter > comparison.oldCenter ? 'good' : 'bad' };
}

/** "p<0.001 n=10", "p=0.31 n=10": benchstat's cell, with a p a reader does not take for zero. */
function pCell(comparison: Comparison | null): TableCell {
  if (!comparison) return { text: '' };
  const n = comparison.n1 === comparison.n2 ? `n=${comparison.n1}` : `n=${comparison.n1}+${comparison.n2}`;
  return { text: `${readerPEquals(comparison.p)} ${n}` };
}

function holmCell(adjustedP: number | null, comparison: Comparison | null): TableCell {
  if (adjustedP === null || !comparison) return { text: '' };
  const text = readerP(adjustedP);
  // The lesson of stage 7: a raw p under 0.05 that does not survive the correction is not a finding.
  if (comparison.significant && adjustedP > comparison.alpha) {
    return { text, tone: 'warn', title: 'significant alone, but not after correcting for the number of comparisons made' };
  }
  return { text };
}

/** MB/s of every contestant at every size; cells without trusted samples say why. */
export function throughputTable(model: ResultsModel, live = false): TableData {
  const notes = new Footnotes();
  const rows: TableCell[][] = [];
  for (const contestant of model.contestants) {
    const row: TableCell[] = [{ text: contestant.title }];
    for (const size of model.sizes) {
      const estimate = model.throughput.get(cellKey(contestant.id, size));
      const runs = model.results.runs.filter((r) => r.contestant === contestant.id && r.size === size);
      const problem = runs.find((r) => r.status !== 'ok');
      if (estimate) {
        const cell: TableCell = { text: estimateText(estimate), mark: notes.mark(estimate.warnings) };
        if (problem && !live) {
          const status = STATUS_TEXT[problem.status as Exclude<RunStatus, 'ok'>];
          const reason = problem.reason ?? 'partial samples';
          // "cancelled after 2 of 10 samples" says its status already.
          cell.mark += notes.mark([reason.startsWith(status) ? reason : `${status}: ${reason}`]);
        }
        row.push(cell);
      } else if (problem && !(live && problem.status === 'cancelled')) {
        const status = problem.status as Exclude<RunStatus, 'ok'>;
        row.push({ text: STATUS_TEXT[status], tone: status === 'failed' ? 'bad' : 'warn', title: problem.reason });
      } else {
        row.push({ text: live ? '…' : '–', tone: 'muted', title: live ? 'not measured yet' : 'not measured' });
      }
    }
    rows.push(row);
  }
  return {
    caption: 'Throughput, MB/s: median ± 95% confidence interval',
    columns: [{ label: 'contestant', numeric: false }, ...model.sizes.map((size) => ({ label: formatSize(size), numeric: true }))],
    rows,
    notes: notes.notes,
  };
}

/** Each stage against the one before it at one size, with the article's figure. */
export function stepTable(rows: StepRow[], size: number): TableData {
  const notes = new Footnotes();
  return {
    caption: `Each step against the stage before it that was measured, at ${formatSize(size)}: MB/s, change of the median, U-test p and Holm-adjusted p`,
    columns: [
      { label: 'step', numeric: false },
      { label: 'before', numeric: true, title: 'previous stage, MB/s ± 95% CI' },
      { label: 'after', numeric: true, title: 'this stage, MB/s ± 95% CI' },
      { label: 'vs before', numeric: true, title: 'change of the median throughput; ~ when not significant' },
      { label: 'p', numeric: true, title: 'Mann-Whitney U test, two-sided' },
      { label: 'Holm p', numeric: true, title: 'p adjusted for all steps at all sizes (Holm-Bonferroni)' },
      { label: 'speedup', numeric: true, lead: true },
      { label: 'article', numeric: true, title: "the article's figure (Apple M1 Max, V8), multiplied over the steps a row spans", lead: true },
    ],
    rows: rows.map((row) => [
      { text: stepName(row), mark: notes.mark(row.warnings), title: `${row.previousTitle} → ${row.title}` },
      { text: estimateText(row.old) },
      { text: estimateText(row.new) },
      deltaCell(row.comparison),
      pCell(row.comparison),
      holmCell(row.adjustedP, row.comparison),
      { text: formatRatio(row.speedup), tone: row.comparison.significant ? undefined : 'muted' },
      { text: row.article === null ? '–' : formatRatio(row.article), tone: 'muted' },
    ]),
    notes: notes.notes,
  };
}

/** Everything against blake3-wasm at one size. */
export function baselineTable(rows: BaselineRow[], size: number): TableData {
  const notes = new Footnotes();
  // With native rows (npm run bench -- --native), every row also says how far from native code it is.
  const native = rows.some((row) => row.timesNative !== null);
  return {
    caption: `Against blake3-wasm (the Rust reference compiled to WebAssembly) at ${formatSize(size)}`,
    columns: [
      { label: 'contestant', numeric: false },
      { label: 'MB/s', numeric: true, title: 'median ± 95% CI' },
      { label: '× blake3-wasm', numeric: true, lead: true },
      { label: 'vs blake3-wasm', numeric: true, title: 'change of the median throughput; ~ when not significant' },
      { label: 'p', numeric: true },
      { label: 'Holm p', numeric: true, title: 'p adjusted for all comparisons with blake3-wasm (Holm-Bonferroni)' },
      ...(native ? [{ label: '× native', numeric: true, title: 'over the blake3 crate compiled natively, one thread, SSE4.1 (measured in the same run)' }] : []),
    ],
    rows: rows.map((row) => [
      { text: row.title, mark: notes.mark(row.warnings) },
      { text: estimateText(row.estimate) },
      // Greyed like the step table's speedup when the difference is noise (or this is the baseline itself).
      { text: formatRatio(row.ratio), tone: row.comparison?.significant ? undefined : 'muted' },
      row.comparison ? deltaCell(row.comparison) : { text: 'baseline', tone: 'muted' },
      pCell(row.comparison),
      holmCell(row.adjustedP, row.comparison),
      ...(native ? [row.timesNative === null ? { text: '–', tone: 'muted' as const } : { text: formatRatio(row.timesNative) }] : []),
    ]),
    notes: notes.notes,
  };
}

/** Two result sets, benchstat's old/new table on throughput, with its geomean row. */
export function twoSetTable(table: ComparisonTable, labels: [string, string], titleOf: (contestant: string) => string, size: number | null): TableData {
  const notes = new Footnotes();
  const chosen = table.rows.filter((row) => size === null || row.size === size);
  const rows: TableCell[][] = chosen.map((row) => {
    const a = row.old && inMBps(row.old);
    const b = row.new && inMBps(row.new);
    const name = row.contestant ? `${titleOf(row.contestant)}${size === null && row.size ? ` · ${formatSize(row.size)}` : ''}` : row.name;
    return [
      { text: name, mark: notes.mark(row.warnings) },
      a ? { text: estimateText(a) } : { text: 'not measured', tone: 'muted' },
      b ? { text: estimateText(b) } : { text: 'not measured', tone: 'muted' },
      deltaCell(row.comparison),
      pCell(row.comparison),
      holmCell(row.adjustedP, row.comparison),
    ];
  });
  const gm = table.geomean;
  rows.push([
    { text: 'geomean (all sizes)', mark: notes.mark([...gm.oldWarnings, ...gm.newWarnings]) },
    { text: gm.old === null ? '' : formatSig(gm.old / 1e6) },
    { text: gm.new === null ? '' : formatSig(gm.new / 1e6) },
    gm.deltaPct === null ? { text: '' } : { text: `${gm.deltaPct >= 0 ? '+' : ''}${gm.deltaPct.toFixed(2)}%`, tone: 'muted' },
    { text: '' },
    { text: '' },
  ]);
  return {
    caption: `${labels[0]} vs ${labels[1]}${size === null ? '' : ` at ${formatSize(size)}`}: MB/s, change of the median, U-test p and Holm-adjusted p`,
    columns: [
      { label: 'contestant', numeric: false },
      { label: labels[0], numeric: true, title: 'MB/s ± 95% CI' },
      { label: labels[1], numeric: true, title: 'MB/s ± 95% CI' },
      { label: 'vs first', numeric: true, title: 'change of the median throughput; ~ when not significant' },
      { label: 'p', numeric: true },
      { label: 'Holm p', numeric: true, title: 'p adjusted for all rows (Holm-Bonferroni)' },
    ],
    rows,
    notes: notes.notes,
  };
}

/** The runtimes side by side at one size: per runtime, MB/s and the multiple of blake3-wasm in that runtime. */
export function ladderTable(ladder: RuntimeLadder): TableData {
  const notes = new Footnotes();
  return {
    caption: `Each engine at ${formatSize(ladder.size)}: MB/s (median ± 95% CI) and × blake3-wasm measured in the same engine`,
    columns: [
      { label: 'contestant', numeric: false },
      ...ladder.runtimes.flatMap((runtime) => [
        { label: `${runtime.name} MB/s`, numeric: true, title: `${runtime.name} ${runtime.version} (${runtime.jsEngine}): median ± 95% CI` },
        { label: `× wasm`, numeric: true, title: `over blake3-wasm in ${runtime.name}` },
      ]),
    ],
    rows: ladder.rows.map((row) => [
      { text: row.title },
      ...row.cells.flatMap((cell): TableCell[] =>
        cell?.estimate
          ? [{ text: estimateText(cell.estimate), mark: notes.mark(cell.estimate.warnings) }, { text: formatRatio(cell.ratio) }]
          : [cell ? { text: cell.reason.split(':')[0], tone: 'warn', mark: notes.mark([cell.reason]) } : { text: '–', tone: 'muted', title: 'not measured in this engine' }, { text: '–', tone: 'muted' }],
      ),
    ]),
    notes: notes.notes,
  };
}

/** Your ladder: every stage measured so far at one size, each against the one below it and against Rust WASM. */
export function stageLadderTable(ladder: StageLadder, guesses: Guesses = {}): TableData {
  const notes = new Footnotes();
  const guessOf = (contestant: string) => {
    const stage = stageNumber(contestant);
    return stage === null ? undefined : guesses[String(stage)];
  };
  // The learner's guesses (one per stage, made before measuring it), when they made any.
  const guessed = ladder.rungs.some((rung) => guessOf(rung.contestant) !== undefined);
  return {
    caption: `Every stage measured so far in this browser, at ${formatSize(ladder.size)}: MB/s, the step from the stage below it, ${guessed ? 'your guess, ' : ''}and Rust WASM`,
    columns: [
      { label: 'stage', numeric: false },
      { label: 'MB/s', numeric: true, title: 'median ± 95% CI' },
      { label: 'step', numeric: true, title: 'speedup over the stage below it on the ladder; ~ when the difference is noise', lead: true },
      ...(guessed ? [{ label: 'your guess', numeric: true, title: 'what you guessed before measuring: over the stage before it (stage 0: against Rust WASM)' }] : []),
      { label: 'vs Rust WASM', numeric: true, title: 'against blake3-wasm at the same size', lead: true },
    ],
    rows: ladder.rungs.map((rung) => {
      const guess = guessOf(rung.contestant);
      const stage = stageNumber(rung.contestant);
      return [
        { text: rung.title, mark: notes.mark(rung.mbps.warnings) },
        { text: estimateText(rung.mbps) },
        rung.step
          ? { text: rung.step.comparison.significant ? formatRatio(rung.step.speedup) : '~', tone: rung.step.comparison.significant ? undefined : 'muted', title: `against ${rung.step.previousTitle}` }
          : { text: '–', tone: 'muted' },
        ...(guessed ? [guess !== undefined && stage !== null ? { text: guessLabel(stage, guess) } : { text: '–', tone: 'muted' as const }] : []),
        rung.versus ? { text: formatVersus(rung.versus.ratio), tone: rung.versus.comparison?.significant ? undefined : 'muted' } : { text: rung.kind === 'stage' ? '–' : 'yardstick', tone: 'muted' },
      ];
    }),
    notes: notes.notes,
  };
}
