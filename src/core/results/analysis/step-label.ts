// How a step is named where it is compared: "8 vs 0" says which two stages the figure
// is between, which matters when the stages in between were not measured.
import { STAGES } from '../../../../steps/index.ts';

const NUMBERS = new Map(STAGES.map((stage) => [stage.id, stage.index]));

/** The stage's number in the lesson, or null for anything that is not a registered stage. */
export function stageNumber(id: string): number | null {
  return NUMBERS.get(id) ?? null;
}


/** "8 vs 0 · Little-endian fast path": the step first, then what the stage did. */
export function stepName(row: { contestant: string; previous: string; title: string; previousTitle: string }): string {
  const a = stageNumber(row.contestant);
  const b = stageNumber(row.previous);
  if (a === null || b === null) return `${row.title} vs ${row.previousTitle}`;
  return `${a} vs ${b} · ${row.title.replace(/^\d+\.\s*/, '')}`;
}

/** True when a step spans stages that were not measured: "8 vs 0" rather than "8 vs 7". */
export function skipsStages(row: { contestant: string; previous: string }): boolean {
  const a = stageNumber(row.contestant);
  const b = stageNumber(row.previous);
  return a !== null && b !== null && a - b > 1;
}
