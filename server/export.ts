// A class as files: a CSV of the board (one row per machine, one column per contestant
// and size, then one per stage guessed, then each exercise's attempts) and a zip holding that CSV plus every machine's results document, each a
// file the compare page imports as it is. The CSV comes from the summaries the board
// reads; the zip reads one document at a time and is streamed as it is written.
import type { Results } from '../src/core/bench/results.ts';
import { CONTESTANT_LABELS } from '../src/core/bench/contestant-labels.ts';
import { formatSize } from '../src/core/format.ts';
import type { ClassPlan } from '../src/core/class/plan.ts';
import { runState, type EntrySummary } from '../src/core/class/summary.ts';
import { againstName } from '../src/core/predict/guess.ts';
import { STAGES } from '../steps/index.ts';
import { suggestedFileName } from '../src/core/results/io/io.ts';
import { zipStream, type ZipFile } from './zip.ts';


const titles = new Map(CONTESTANT_LABELS.map((c) => [c.id, c.title]));

/**
 * One CSV field (RFC 4180 quoting). Text a student typed that starts like a formula
 * (= + - @) gets a leading apostrophe, so a spreadsheet shows it instead of running it.
 */
function field(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function classCsv(plan: ClassPlan, entries: EntrySummary[]): string {
  const cells = plan.contestants.flatMap((id) => plan.sizes.map((size) => ({ id, size })));
  const header = ['nickname', 'browser', 'engine', 'os', 'cores', 'finished', 'hidden', 'updated'];
  header.push(...cells.map(({ id, size }) => `${titles.get(id) ?? id} at ${formatSize(size)} (MB/s)`));
  // The guesses, for the stages any machine guessed: a ratio, as the guess's choice gives it.
  const guessed = STAGES.map((stage) => String(stage.index)).filter((stage) => entries.some((e) => e.guesses?.[stage] !== undefined));
  header.push(...guessed.map((stage) => `guess for stage ${stage} (x ${againstName(Number(stage))})`));
  const exercises = exerciseColumns(entries);
  header.push(...exercises.map((column) => column.header));
  const rows = entries.map((summary) => [
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
    ...guessed.map((stage) => summary.guesses?.[stage] ?? ''),
    ...exercises.map((column) => column.cell(summary)),
  ]);
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

interface Column {
  header: string;
  cell(summary: EntrySummary): string | number;
}

const LATEST_WORDS = { met: 'met', short: 'short', unclear: 'cannot tell' } as const;

/**
 * For each exercise any machine attempted: its attempts, those that met the goal, the
 * latest one's verdict, and the latest draft's speedup over the stage before at each size
 * any machine measured.
 */
function exerciseColumns(entries: EntrySummary[]): Column[] {
  const records = (exercise: string) => entries.flatMap((e) => (e.exercises?.[exercise] ? [e.exercises[exercise]] : []));
  const numbers = [...new Set(entries.flatMap((e) => Object.keys(e.exercises ?? {})))].sort((a, b) => Number(a) - Number(b));
  return numbers.flatMap((exercise): Column[] => {
    const record = (summary: EntrySummary) => summary.exercises?.[exercise];
    const before = Number(exercise) - 1;
    const sizes = [...new Set(records(exercise).flatMap((r) => r.latest.sizes.map((s) => s.size)))].sort((a, b) => a - b);
    return [
      { header: `exercise ${exercise} attempts`, cell: (summary) => record(summary)?.attempts ?? '' },
      { header: `exercise ${exercise} attempts that met the goal`, cell: (summary) => record(summary)?.solved ?? '' },
      {
        header: `exercise ${exercise} latest verdict`,
        cell: (summary) => {
          const latest = record(summary)?.latest;
          return !latest ? '' : latest.status !== null ? LATEST_WORDS[latest.status] : latest.passed ? 'no verdict' : 'check failed';
        },
      },
      ...sizes.map((size) => ({
        header: `exercise ${exercise} latest draft at ${formatSize(size)} (x stage ${before})`,
        cell: (summary: EntrySummary) => {
          const ratio = record(summary)?.latest.sizes.find((s) => s.size === size)?.draft.ratio;
          return ratio === undefined ? '' : Number(ratio.toPrecision(4));
        },
      })),
    ];
  });
}

/** One results file per machine, labelled with its nickname, read as the zip asks for it. */
function* resultsFiles(entries: EntrySummary[], readResults: (id: string) => string | null | undefined): Generator<ZipFile> {
  for (const [i, summary] of entries.entries()) {
    const stored = readResults(summary.id);
    if (!stored) continue; // removed by the teacher while the export ran
    const results = JSON.parse(stored) as Results;
    const labelled: Results = { ...results, env: { ...results.env, label: summary.nickname } };
    const number = String(i + 1).padStart(3, '0');
    yield { name: `${number}-${suggestedFileName(labelled)}`, data: Buffer.from(JSON.stringify(labelled, null, 2) + '\n') };
  }
}

/** The class as a zip: the CSV, then one results file per machine. */
export function classZip(code: string, plan: ClassPlan, entries: EntrySummary[], readResults: (id: string) => string | null | undefined) {
  const csv: ZipFile = { name: `class-${code}.csv`, data: Buffer.from(classCsv(plan, entries)) };
  return zipStream(
    (function* () {
      yield csv;
      yield* resultsFiles(entries, readResults);
    })(),
  );
}
