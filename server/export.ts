// A class as files: a CSV of the board (one row per machine, one column per contestant
// and size) and a zip holding that CSV plus every machine's results document, each a
// file the compare page imports as it is.
import type { Results } from '../src/bench/results.ts';
import { DEFAULT_CONTESTANTS } from '../src/bench/contestants.ts';
import { formatSize } from '../src/bench/plan.ts';
import type { ClassPlan } from '../src/class/plan.ts';
import { runState, type EntrySummary } from '../src/class/summary.ts';
import { suggestedFileName } from '../src/results/io/io.ts';
import { zip } from './zip.ts';

export interface ExportEntry {
  summary: EntrySummary;
  results: Results;
}

const titles = new Map(DEFAULT_CONTESTANTS.map((c) => [c.id, c.title]));

/**
 * One CSV field (RFC 4180 quoting). Text a student typed that starts like a formula
 * (= + - @) gets a leading apostrophe, so a spreadsheet shows it instead of running it.
 */
function field(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function classCsv(plan: ClassPlan, entries: ExportEntry[]): string {
  const cells = plan.contestants.flatMap((id) => plan.sizes.map((size) => ({ id, size })));
  const header = ['nickname', 'browser', 'engine', 'os', 'cores', 'finished', 'hidden', 'updated'];
  header.push(...cells.map(({ id, size }) => `${titles.get(id) ?? id} at ${formatSize(size)} (MB/s)`));
  const rows = entries.map(({ summary }) => [
    summary.nickname,
    summary.browser,
    summary.engine,
    summary.os,
    summary.cores,
    runState(summary) === 'finished',
    summary.hidden,
    new Date(summary.updatedAt).toISOString(),
    ...cells.map(({ id, size }) => {
      const value = summary.throughput[id]?.[String(size)];
      return value === undefined ? '' : Number(value.toPrecision(4));
    }),
  ]);
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

/** The class as a zip: the CSV and one results file per machine, labelled with its nickname. */
export function classZip(code: string, plan: ClassPlan, entries: ExportEntry[]): Buffer {
  const files = entries.map(({ summary, results }, i) => {
    const labelled: Results = { ...results, env: { ...results.env, label: summary.nickname } };
    const number = String(i + 1).padStart(3, '0');
    return { name: `${number}-${suggestedFileName(labelled)}`, data: Buffer.from(JSON.stringify(labelled, null, 2) + '\n') };
  });
  return zip([{ name: `class-${code}.csv`, data: Buffer.from(classCsv(plan, entries)) }, ...files]);
}
