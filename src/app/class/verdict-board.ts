// What the board says about each step at one input size: every machine's own verdict
// (its speedup, interval and whether it can tell the step from noise, computed by the
// server from its samples: src/core/class/verdicts.ts), the room's spread of those
// speedups beside the article's figure, and the count in words. The title's claim,
// stage 9 against Rust WASM, is a row of its own. Pure functions, tested in Node.
import { STAGES } from '../../../steps/index.ts';
import { BLAKE3_WASM } from '../../../steps/baseline-info.ts';
import type { ClassPlan } from '../../core/class/plan.ts';
import type { EntrySummary } from '../../core/class/summary.ts';
import { callOf, TITLE_STAGE, type Verdict } from '../../core/class/verdicts.ts';
import { ARTICLE_FACTS } from '../ui/lesson/article-facts.ts';
import { articleSpeedupBetween } from '../../core/results/analysis/model.ts';
import { boardColumns, spread, throughputOf, type Spread } from './board.ts';

export interface MachineVerdict {
  entry: EntrySummary;
  /** Null for a machine whose summary was stored before the board kept verdicts: its medians' ratio only. */
  verdict: Verdict | null;
  /** Its speedup: the verdict's, or the ratio of its two medians. */
  ratio: number;
}

export interface StepBoard {
  id: string;
  against: string;
  /** "Stage 7 against stage 6", "Stage 9 against Rust WASM". */
  label: string;
  /** "7 vs 6", "9 vs Rust WASM": the ladder's row heading. */
  short: string;
  /** The title's claim rather than a step of the ladder. */
  title: boolean;
  machines: MachineVerdict[];
  faster: number;
  slower: number;
  unsure: number;
  /** Machines with medians only (stored before verdicts). */
  mediansOnly: number;
  /** The room's spread of the machines' speedups. */
  spread: Spread | null;
  article: number | null;
}

const stageIndex = new Map(STAGES.map((stage) => [stage.id, stage.index]));
const nameOf = (id: string) => (id === BLAKE3_WASM.id ? 'Rust WASM' : `stage ${stageIndex.get(id) ?? id}`);
const TITLE_ARTICLE = ARTICLE_FACTS.find((fact) => fact.id === 'stage9-vs-wasm')?.figure ?? null;

function findVerdict(list: Verdict[] | undefined, id: string, against: string, size: number): Verdict | undefined {
  return list?.find((v) => v.id === id && v.against === against && v.size === size);
}

function stepBoard(entries: EntrySummary[], id: string, against: string, size: number, title: boolean): StepBoard {
  const machines: MachineVerdict[] = [];
  for (const entry of entries) {
    const now = throughputOf(entry, id, size);
    const before = throughputOf(entry, against, size);
    if (now === undefined || before === undefined) continue;
    const verdict = entry.verdicts ? (findVerdict(title ? entry.verdicts.title : entry.verdicts.steps, id, against, size) ?? null) : null;
    machines.push({ entry, verdict, ratio: verdict?.ratio ?? now / before });
  }
  const calls = machines.flatMap((m) => (m.verdict ? [callOf(m.verdict)] : []));
  const count = (call: string) => calls.filter((c) => c === call).length;
  const label = `${nameOf(id).replace(/^s/, 'S')} against ${nameOf(against)}`;
  return {
    id,
    against,
    label,
    short: `${stageIndex.get(id) ?? id} vs ${id === TITLE_STAGE && title ? 'Rust WASM' : (stageIndex.get(against) ?? against)}`,
    title,
    machines,
    faster: count('faster'),
    slower: count('slower'),
    unsure: count('unsure'),
    mediansOnly: machines.filter((m) => !m.verdict).length,
    spread: spread(machines.map((m) => m.ratio)),
    article: title ? TITLE_ARTICLE : articleSpeedupBetween(against, id),
  };
}

/** Each step of the plan at `size` (each stage against the one before it in the plan), then the title's claim when the plan has both. */
export function stepBoards(entries: EntrySummary[], plan: ClassPlan, size: number): StepBoard[] {
  const stages = boardColumns(plan).filter((c) => c.kind === 'stage').map((c) => c.id);
  const boards = stages.slice(1).map((id, i) => stepBoard(entries, id, stages[i], size, false));
  if (plan.contestants.includes(TITLE_STAGE) && plan.contestants.includes(BLAKE3_WASM.id)) boards.push(stepBoard(entries, TITLE_STAGE, BLAKE3_WASM.id, size, true));
  return boards;
}

const machines = (n: number) => `${n} ${n === 1 ? 'machine' : 'machines'}`;

/** "14 of 20 machines see stage 7 faster than stage 6; 6 cannot tell." */
export function countWords(step: StepBoard): string {
  const total = step.machines.length;
  if (total === 0) return `No machine has measured ${nameOf(step.id)} and ${nameOf(step.against)} yet.`;
  const [a, b] = [nameOf(step.id), nameOf(step.against)];
  if (step.mediansOnly === total) return `${machines(total)} measured ${a} and ${b}, with medians only (posted before the board kept verdicts).`;
  const parts: string[] = [];
  const lead = step.faster > 0 || step.slower === 0 ? { n: step.faster, word: 'faster' } : { n: step.slower, word: 'slower' };
  parts.push(`${lead.n} of ${machines(total)} ${lead.n === 1 ? 'sees' : 'see'} ${a} ${lead.word} than ${b}`);
  if (lead.word === 'faster' && step.slower > 0) parts.push(`${step.slower} ${step.slower === 1 ? 'sees' : 'see'} it slower`);
  if (step.unsure > 0) parts.push(`${step.unsure} cannot tell`);
  if (step.mediansOnly > 0) parts.push(`${step.mediansOnly} ${step.mediansOnly === 1 ? 'has' : 'have'} medians only`);
  return `${parts.join('; ')}.`;
}
