// Comparison reports as text, in benchstat's layout: per unit a table with the median
// ± interval of each side, "vs base" with the delta or "~" and "(p=… n=…)", a geomean
// row, and warnings as numbered footnotes. Without the Holm extra, a two-file report
// prints exactly as benchstat prints it (tests/stats-golden.test.ts checks this).

import { formatDelta, formatP, formatPlusMinus, formatPValue, formatSigned } from '../../stats/format.ts';
import { TextTable, superscript } from '../../stats/text-layout.ts';
import { commonScale, formatScaled, formatScaledValue, unitClass } from '../../stats/benchunit.ts';
import type { ComparisonReport, ComparisonTable } from '../analysis/comparison.ts';
import type { StageReport, StepComparison } from '../analysis/stage-report.ts';
import { sizeLabel } from '../io/benchfmt-write.ts';

export interface TextOptions {
  /** Add the Holm-adjusted p beside the raw one: "(p=0.002 n=10 holm=0.012)". */
  holm?: boolean;
}

/** Numbers each distinct warning once per table and hands out footnote marks. */
class Footnotes {
  private list: string[] = [];

  marks(warnings: readonly string[]): string {
    return warnings
      .map((w) => {
        let i = this.list.indexOf(w);
        if (i < 0) i = this.list.push(w) - 1;
        return superscript(i + 1);
      })
      .join(' ');
  }

  toString(): string {
    return this.list.map((w, i) => `${superscript(i + 1)} ${w}\n`).join('');
  }
}

// Column groups as in benchstat: a label column, then per side <center> <± range>
// <footnotes>, and for the new side also <delta> <(p n)> <footnotes>.
const CENTER_COLS = 3;
const DELTA_COLS = 3;
const startCol = (side: number) => (side === 0 ? 1 : 1 + CENTER_COLS + (side - 1) * (CENTER_COLS + DELTA_COLS));

function formatTable(table: ComparisonTable, labels: [string, string], options: TextOptions): string {
  const t = new TextTable();
  const notes = new Footnotes();
  const rightEdge = startCol(3);
  t.row();
  labels.forEach((label, side) => {
    t.col(startCol(side)).span(startCol(side + 1) - startCol(side), label, { align: 'center', margin: ' │ ' });
  });
  t.col(rightEdge).cell('', { margin: ' │' });
  t.row();
  for (const side of [0, 1]) {
    const l = startCol(side);
    t.col(l).span(CENTER_COLS, table.unit, { align: 'center', margin: ' │ ' });
    if (side > 0) t.span(DELTA_COLS, 'vs base', { align: 'left', margin: '  ' });
    for (let j = l + 1; j < t.column; j++) t.setShrink(j);
  }
  t.col(rightEdge).cell('', { margin: ' │' });

  const cls = unitClass(table.unit);
  for (const row of table.rows) {
    t.row().cell(row.name);
    const scale = commonScale([row.old, row.new].filter((c) => c !== null).map((c) => c.center), cls);
    [row.old, row.new].forEach((c, side) => {
      if (!c) return;
      t.col(startCol(side));
      t.cell(formatScaled(c.center, scale), { align: 'right' });
      t.cell(formatPlusMinus(c), { align: 'right', margin: ' ± ' });
      t.cell(notes.marks(c.warnings));
      if (side > 0 && row.comparison) {
        const cmp = row.comparison;
        t.cell(formatDelta(cmp), { align: 'right' });
        const holm = options.holm && row.adjustedP !== null ? ` holm=${formatPValue(row.adjustedP)}` : '';
        t.cell(`(${formatP(cmp)}${holm})`);
        t.cell(notes.marks(cmp.warnings));
      }
    });
  }

  if (table.rows.length > 1) {
    const g = table.geomean;
    t.row().cell('geomean');
    if (g.old !== null) t.col(startCol(0)).cell(formatScaledValue(g.old, cls), { align: 'right' });
    t.col(startCol(1) - 1).cell(notes.marks(g.oldWarnings));
    if (g.new !== null) t.col(startCol(1)).cell(formatScaledValue(g.new, cls), { align: 'right' });
    t.col(startCol(1) + CENTER_COLS);
    if (g.deltaPct !== null) t.cell(`${formatSigned(g.deltaPct, 2)}%`, { align: 'right' });
    else t.cell('?');
    t.col(startCol(2) - 1).cell(notes.marks(g.newWarnings));
  }
  return t.toString() + notes.toString();
}

/** The whole report: configuration lines, then one table per unit separated by blank lines. */
export function formatComparisonReport(report: ComparisonReport, options: TextOptions = {}): string {
  const config = report.config.map(({ key, old, new: neu }) =>
    old === neu ? `${key}: ${old}` : `${key}: ${old ?? '(none)'} → ${neu ?? '(none)'}`,
  );
  const tables = report.tables.map((table) => formatTable(table, [report.oldLabel, report.newLabel], options));
  return (config.length > 0 ? `${config.join('\n')}\n` : '') + tables.join('\n');
}

function stepCells(t: TextTable, notes: Footnotes, s: StepComparison | null): void {
  if (!s) {
    t.cell('').cell('').cell('');
    return;
  }
  // Within one run the claim is about the family, so "~" follows the Holm-adjusted p.
  t.cell(formatDelta({ ...s.comparison, significant: s.holmSignificant }), { align: 'right' });
  t.cell(`(${formatP(s.comparison)} holm=${formatPValue(s.adjustedP)})`);
  t.cell(notes.marks(s.comparison.warnings));
}

/**
 * The bench CLI's table: per size, each contestant's median ± interval, its change from
 * the previous stage and from the baseline ("~" unless significant after Holm), then the
 * geomean of those changes over all sizes.
 */
export function formatStageReport(report: StageReport): string {
  const out: string[] = [];
  const notes = new Footnotes();
  const cls = unitClass(report.unit);
  for (const size of report.sizes) {
    const rows = report.rows.filter((r) => r.size === size);
    if (rows.length === 0) continue;
    const t = new TextTable();
    t.row().cell(`size=${sizeLabel(size)}`);
    t.col(1).span(3, report.unit, { align: 'center', margin: ' │ ' });
    t.span(3, 'vs previous stage', { align: 'left', margin: ' │ ' });
    t.span(3, `vs ${report.baseline}`, { align: 'left', margin: ' │ ' });
    const native = report.native !== undefined && rows.some((r) => r.timesNative != null);
    if (native) t.cell(`x ${report.native}`, { margin: ' │ ' });
    const ceiling = report.ceiling !== undefined && rows.some((r) => r.timesCeiling != null);
    if (ceiling) t.cell(`x ${report.ceiling}`, { margin: ' │ ' });
    for (const j of [2, 3, 5, 6, 8, 9]) t.setShrink(j);
    for (const r of rows) {
      t.row().cell(r.contestant);
      // Each value gets its own prefix: stage 0 and the baseline are thousands of times
      // apart, and "63754.3n" beside "128.8n" reads worse than "63.75µ".
      t.col(1).cell(formatScaledValue(r.summary.center, cls), { align: 'right' });
      t.cell(formatPlusMinus(r.summary), { align: 'right', margin: ' ± ' });
      t.cell(notes.marks(r.summary.warnings));
      stepCells(t, notes, r.vsPrevious);
      stepCells(t, notes, r.vsBaseline);
      if (native) t.cell(r.timesNative == null ? '' : `${r.timesNative.toFixed(2)}x`, { align: 'right', margin: ' │ ' });
      if (ceiling) t.cell(r.timesCeiling == null ? '' : `${r.timesCeiling.toFixed(2)}x`, { align: 'right', margin: ' │ ' });
    }
    out.push(t.toString());
  }
  const t = new TextTable();
  t.row().cell(`geomean over sizes`);
  t.col(1).cell('vs previous stage', { margin: ' │ ' });
  t.cell(`vs ${report.baseline}`, { margin: ' │ ' });
  for (const g of report.geomeans) {
    if (g.vsPreviousPct === null && g.vsBaselinePct === null) continue;
    t.row().cell(g.contestant);
    t.col(1).cell(g.vsPreviousPct === null ? '' : `${formatSigned(g.vsPreviousPct, 2)}%`, { align: 'right', margin: '   ' });
    t.cell(g.vsBaselinePct === null ? '' : `${formatSigned(g.vsBaselinePct, 2)}%`, { align: 'right', margin: '   ' });
  }
  out.push(t.toString());
  return out.join('\n') + notes.toString();
}
