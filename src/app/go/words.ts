// Says in words what a run measured for one step, what the compiler's report shows
// about that step, and how both stand against the talk's published figures. Every
// number in these sentences comes from the run or the evidence passed in.

import type { GoEvidence } from '../../core/evidence/go-evidence.ts';
import { formatDelta, formatP } from '../../core/stats/index.ts';
import { GO_BENCHMARKS, stepRows, type GoBenchmark, type GoMetric, type GoRun, type StepRow } from './measured.ts';
import { GO_STAGES } from './stages.ts';
import { fill } from '../ui/lesson/content.ts';
import { TALK_STEPS, TALK_SUMMARY, type PublishedRow } from './published.ts';

const SIZE_WORDS: Record<GoBenchmark, string> = { Hash8Bytes: '8 bytes', Hash1K: '1 KiB', Hash8K: '8 KiB' };

/** "8 bytes −51.20% (p=0.000 n=10), 1 KiB ~ (p=0.280 n=10)". */
export function describeRows(rows: StepRow[]): string {
  return rows.map((row) => `${SIZE_WORDS[row.benchmark]} ${formatDelta(row.comparison)} (${formatP(row.comparison)})`).join(', ');
}

function verdict(rows: StepRow[]): string {
  const faster = rows.filter((r) => r.comparison.significant && r.comparison.newCenter < r.comparison.oldCenter);
  const slower = rows.filter((r) => r.comparison.significant && r.comparison.newCenter > r.comparison.oldCenter);
  const same = rows.filter((r) => !r.comparison.significant);
  const list = (some: StepRow[]) => some.map((r) => SIZE_WORDS[r.benchmark]).join(' and ');
  const parts = [];
  if (faster.length) parts.push(`faster at ${faster.length === rows.length ? 'every size' : list(faster)}`);
  if (slower.length) parts.push(`slower at ${list(slower)}`);
  if (same.length) parts.push(`no significant change at ${same.length === rows.length ? 'any size' : list(same)}`);
  return parts.join(', ');
}

const countIn = <T extends { line: number }>(entries: T[], from: number, to: number) =>
  entries.filter((e) => e.line >= from && e.line < to).length;

/** The line range of a function: from its declaration to the next declaration the report names. */
function lines(evidence: GoEvidence, name: string): [number, number] {
  const decls = [...evidence.inlining].sort((a, b) => a.line - b.line);
  const at = decls.findIndex((d) => d.function === name);
  return [decls[at].line, decls[at + 1]?.line ?? Infinity];
}

/** What the compiler's report shows changed at this step, one sentence. */
export function compilerChange(index: number, before: GoEvidence, after: GoEvidence): string {
  const fn = (e: GoEvidence, name: string) => e.inlining.find((d) => d.function === name);
  switch (index) {
    case 1: {
      const [old, now] = [fn(before, 'g'), fn(after, 'g')];
      const calls = after.inlinedCalls.filter((c) => c.callee === 'g').length;
      return `The compiler’s report: \`g\` went from cost ${old?.cost} (over the budget of ${old?.budget}, not inlined) to cost ${now?.cost}, and is inlined on all ${calls} lines of \`compress\` that call it.`;
    }
    case 2: {
      const [b, a] = [lines(before, 'compress'), lines(after, 'compress')];
      return `The compiler’s report: bounds checks left in \`compress\` went from ${countIn(before.boundsChecks, ...b)} to ${countIn(after.boundsChecks, ...a)} (the two reslices at its top), and from ${before.boundsChecks.length} to ${after.boundsChecks.length} in the whole file.`;
    }
    case 3:
      return `The compiler’s report: ${after.boundsChecks.length} bounds checks left in the whole file (stage 2: ${before.boundsChecks.length}), none in \`compress\`; \`compress\`’s inlining cost went from ${fn(before, 'compress')?.cost} to ${fn(after, 'compress')?.cost}.`;
    case 4:
      return after.memclr.length > 0
        ? `The compiler’s report: line ${after.memclr.map((m) => m.line).join(', ')} now calls \`${after.memclr[0].routine}\`; stage 3’s listing has ${before.memclr.length === 0 ? 'no such call' : 'it too'}.`
        : 'The compiler’s report shows no memclr call: the idiom was not recognised.';
    case 5: {
      const [b, a] = [lines(before, '(*Digest).Reset'), lines(after, '(*Digest).Reset')];
      const heapIn = (e: GoEvidence, range: [number, number]) => e.heap.filter((h) => h.line >= range[0] && h.line < lines(e, '(*Digest).Sum')[0]).length;
      return `The compiler’s report: values moved to the heap in \`Reset\` and \`Write\` went from ${heapIn(before, b)} to ${heapIn(after, a)}; what is left is \`New\`’s one-time \`make\`s and \`Sum\`’s \`append\`, which only allocates when the caller’s slice is full.`;
    }
    default:
      return '';
  }
}

const bytesOf = (e: GoEvidence, name: string) => e.machineCode.find((c) => c.function === name)?.bytes;

/**
 * Why a step did not move a size significantly, from the compiler's report: the
 * reasons differ per step, the numbers come from the evidence. Null when every size
 * moved.
 */
export function whyNoChange(index: number, rows: StepRow[], before: GoEvidence, after: GoEvidence): string | null {
  const still = rows.filter((r) => !r.comparison.significant).map((r) => SIZE_WORDS[r.benchmark]);
  if (still.length === 0) return null;
  const where = still.length === rows.length ? 'at any size' : `at ${still.join(' and ')}`;
  const [from, to] = lines(before, 'compress');
  const heapInCompress = before.heap.filter((h) => h.line >= from && h.line < to).length;
  const stage = GO_STAGES[index];
  // Stage 3's words depend on whether stage 2 still moved something to the heap.
  const section = index === 3 && heapInCompress > 0 ? 'quiet, heap' : 'quiet';
  const template = stage.quiet[section];
  if (!template) return `No significant change ${where}: compare the compiler’s report with the stage before for what changed in the code the processor runs.`;
  const values = {
    where,
    'compress-before': bytesOf(before, 'compress'),
    'compress-after': bytesOf(after, 'compress'),
    'memclr-lines': after.memclr.map((m) => m.line).join(', '),
    'heap-in-compress': heapInCompress,
  };
  return fill(template, values, `content/go/${stage.id}.md`);
}

export interface StepWords {
  measured: string;
  compiler: string;
  /** Why some size did not move, from the compiler's report; null when all moved. */
  explain: string | null;
  talk: string;
}

/** The words for stage `index` (1 to 5) in `run`, or null when the run lacks the stage. */
const METRIC_WORDS: Record<GoMetric, string> = { cpu: 'CPU time per hash', wall: 'wall time per hash' };

export function stepWords(run: GoRun, index: number, evidence: GoEvidence[], metric: GoMetric): StepWords | null {
  const [previous, stage] = [GO_STAGES[index - 1], GO_STAGES[index]];
  const rows = stepRows(run, previous.id, stage.id, metric);
  if (rows.length === 0) return null;
  const allocs = rows.find((r) => r.allocs && r.allocs.old !== r.allocs.new)?.allocs;
  const measured =
    `Measured here (${METRIC_WORDS[metric]}), against stage ${index - 1}: ${verdict(rows)} (${describeRows(rows)}).` +
    (allocs ? ` Allocations per hash: ${allocs.old} → ${allocs.new}.` : '');
  const [before, after] = [evidence[index - 1], evidence[index]];
  return { measured, compiler: compilerChange(index, before, after), explain: whyNoChange(index, rows, before, after), talk: talkWords(stage.id, rows) };
}

type Direction = 'faster' | 'slower' | 'no significant change';
const ours = (row: StepRow): Direction =>
  !row.comparison.significant ? 'no significant change' : row.comparison.newCenter < row.comparison.oldCenter ? 'faster' : 'slower';
/** "8 bytes, 1 KiB and 8 KiB". */
const andList = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
const theirs = (row: PublishedRow): Direction => (row.delta === '~' ? 'no significant change' : row.delta.startsWith('-') ? 'faster' : 'slower');

/** The talk's verdict for a Go stage's step (by the stage's id) beside this run's, size by size (the talk's rows are 8 bytes, 1 KiB, 8 KiB). */
export function talkWords(id: string, rows: StepRow[]): string {
  const table = TALK_STEPS[id];
  if (!table) return '';
  const printed = `The talk’s table for this step (\`${table.command}\`, time/op): ${table.time.map((r) => `${r.name} ${r.delta} (${r.p})`).join(', ')}.`;
  const pairs = rows.flatMap((row) => {
    const talkRow = table.time[GO_BENCHMARKS.indexOf(row.benchmark)];
    return talkRow ? [{ size: SIZE_WORDS[row.benchmark], here: ours(row), talk: theirs(talkRow) }] : [];
  });
  const same = pairs.filter((pair) => pair.here === pair.talk);
  // Sizes where the verdicts part, grouped: "at 1 KiB and 8 KiB the talk found faster, this run no significant change".
  const differ = new Map<string, string[]>();
  for (const pair of pairs) {
    if (pair.here === pair.talk) continue;
    const key = `the talk found ${pair.talk}, this run ${pair.here}`;
    differ.set(key, [...(differ.get(key) ?? []), pair.size]);
  }
  const parted = [...differ].map(([key, sizes]) => `at ${andList(sizes)} ${key}`).join('; ');
  const agree =
    differ.size === 0
      ? ' This run reaches the same verdict at every size.'
      : same.length === 0
        ? ` ${parted[0].toUpperCase()}${parted.slice(1)}.`
        : ` Same verdict at ${andList(same.map((pair) => pair.size))}; ${parted}.`;
  return printed + agree + (table.discontinuity ? ` ${table.discontinuity}` : '');
}

/** The whole track on this run (stage 0 to the last) beside the talk's summary table. */
export function overallWords(run: GoRun, metric: GoMetric): { rows: StepRow[]; text: string } | null {
  const rows = stepRows(run, GO_STAGES[0].id, GO_STAGES[GO_STAGES.length - 1].id, metric);
  if (rows.length === 0) return null;
  const talkDeltas = TALK_SUMMARY.time.map((r) => `${r.name.replace(/-4$/, '')} ${r.delta}`).join(', ');
  const allSignificant = rows.every((r) => r.comparison.significant && r.comparison.newCenter < r.comparison.oldCenter);
  const ratio = (r: StepRow) => (r.comparison.oldCenter / r.comparison.newCenter).toFixed(1);
  const text =
    `From the first stage to the last, in ${METRIC_WORDS[metric]}, this run is ${verdict(rows)} (${describeRows(rows)}; ` +
    `${rows.map((r) => `${ratio(r)}× at ${SIZE_WORDS[r.benchmark]}`).join(', ')}). ` +
    `The talk’s summary (${TALK_SUMMARY.where}) reports every size significantly faster: ${talkDeltas}. ` +
    (allSignificant
      ? 'Both agree in direction and significance at every size; the sizes of the gains differ, as they must between a 2018 compiler and this one, and between machines.'
      : 'They do not agree at every size: see the rows marked ~ or slower, and the compiler’s report on each stage for the reason.');
  return { rows, text };
}

