// `npm run bench -- --exercise N` (or `all`): keeps each exercise's goal honest on this
// machine. One interleaved run of the starting point (stage N-1) and the reference
// (stage N) at the exercise's own sizes, then the page's own rule (judgeExercise) twice:
// once with the reference as the draft, which must meet the goal, and once with the
// starting point as the draft, which must not. Speed stays out of `npm test`; this is
// where an exercise whose step does not pay here shows up.
import { readFileSync } from 'node:fs';
import { STAGES } from '../../steps/index.ts';
import { parseMarkdown } from '../core/content/markdown.ts';
import { readExercise } from '../core/content/exercise.ts';
import { judgeExercise, type ExerciseCell, type ExerciseVerdict } from '../core/exercise/goal.ts';
import type { BenchPlan } from '../core/bench/plan.ts';
import type { Results } from '../core/bench/results.ts';
import { formatSize } from '../core/format.ts';

const ROOT = new URL('../../', import.meta.url);

/** The sizes exercise `index` is judged at, from its stage's Markdown. */
export function exerciseSizes(index: number): number[] {
  const stage = STAGES[index];
  if (!stage || index < 1) throw new RangeError(`there is no exercise ${index}: they are numbered 1 to ${STAGES.length - 1}`);
  const file = `content/stages/${stage.id}.md`;
  const text = readExercise(parseMarkdown(readFileSync(new URL(file, ROOT), 'utf8'), file), file);
  if (!text) throw new Error(`${file} has no "# Exercise {#exercise}"`);
  return text.sizes;
}

/** The run one exercise needs: the stage before and the stage, at the exercise's sizes. */
export function exercisePlan(index: number, base: Omit<BenchPlan, 'contestants' | 'sizes'>): BenchPlan {
  return { ...base, contestants: [STAGES[index - 1].id, STAGES[index].id], sizes: exerciseSizes(index) };
}

export interface ExerciseCheck {
  index: number;
  /** Where it ran: node, or the browser's id. */
  where: string;
  /** The reference judged as the draft: it must meet the goal. */
  reference: ExerciseVerdict;
  /** The starting point judged as the draft: it must not. */
  start: ExerciseVerdict;
  /** Both as they should be. */
  sound: boolean;
}

/** Both judgements from one run of `exercisePlan(index)`; null when a size has no samples of one side. */
export function checkExercise(index: number, results: Results, where = 'node'): ExerciseCheck | null {
  const [before, after] = [STAGES[index - 1].id, STAGES[index].id];
  // A time-boxed size keeps the rounds it took (stage 0's quadratic reader at 64 KiB, or a long run).
  const samples = (id: string, size: number) => results.runs.find((r) => r.contestant === id && r.size === size && (r.status === 'ok' || r.status === 'timeboxed'))?.nsPerOp;
  const cells = exerciseSizes(index).map((size) => ({ size, previous: samples(before, size), reference: samples(after, size) }));
  if (cells.some((c) => !c.previous?.length || !c.reference?.length)) return null;
  const judge = (draftIs: 'previous' | 'reference') =>
    judgeExercise(cells.map((c): ExerciseCell => ({ size: c.size, previous: c.previous!, reference: c.reference!, draft: c[draftIs]! })));
  const reference = judge('reference');
  const start = judge('previous');
  return { index, where, reference, start, sound: reference.status === 'met' && start.status !== 'met' };
}

const times = (x: number) => `${x.toFixed(2)}x`;

/** One row per exercise: the reference's speedup and the goal at each size, and both verdicts. */
export function formatExerciseTable(checks: readonly (ExerciseCheck | { index: number; where: string; missing: string })[]): string {
  const header = ['exercise', 'in', 'size', 'reference / start', 'goal', 'reference as draft', 'start as draft', 'as it should be'];
  const rows = checks.flatMap((check): string[][] => {
    if ('missing' in check) return [[String(check.index), check.where, '', '', '', '', '', `no: ${check.missing}`]];
    return check.reference.sizes.map((size, i) => [
      i === 0 ? String(check.index) : '',
      i === 0 ? check.where : '',
      formatSize(size.size),
      size.reference.range ? `${times(size.reference.ratio)} [${times(size.reference.range[0])}, ${times(size.reference.range[1])}]` : times(size.reference.ratio),
      size.goal === null ? 'none (no clear gain)' : times(size.goal),
      i === 0 ? check.reference.status : '',
      i === 0 ? check.start.status : '',
      i === 0 ? (check.sound ? 'yes' : 'no') : '',
    ]);
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

/** "2", "2,5" or "all": the exercises asked for, by stage index. */
export function parseExercises(text: string): number[] {
  if (text.trim() === 'all') return STAGES.slice(1).map((s) => s.index);
  return text.split(',').map((part) => {
    const n = Number(part.trim());
    if (!Number.isInteger(n) || n < 1 || n >= STAGES.length) throw new RangeError(`--exercise takes exercise numbers 1 to ${STAGES.length - 1}, or all, not "${part.trim()}"`);
    return n;
  });
}
