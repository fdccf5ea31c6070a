// "Measure this step" from a stage page: the stage and the one before it (stage 0 against
// blake3-wasm, its yardstick), at the default sizes that fit in about ten seconds here.
// A whole default run takes over a minute; a teacher in front of a class wants one step.
import { STAGES } from '../../../steps/index.ts';
import type { Results } from '../../core/bench/results.ts';
import { DEFAULT_ROUNDS, DEFAULT_SIZES } from '../../core/bench/plan.ts';
import { estimatePlanMs } from '../../core/bench/estimate.ts';
import { BLAKE3_WASM } from '../../../steps/baseline-info.ts';

/** What a step run may take, by the estimate: long enough for ten rounds at several sizes. */
export const STEP_BUDGET_MS = 12_000;
/** Stage 0 reads words quadratically: above this size one hash outlasts the whole budget. */
const QUADRATIC_MAX_SIZE = 65536;

export interface StepPlan {
  contestants: string[];
  sizes: number[];
  rounds: number;
  estimateMs: number;
}

export function stepPlan(index: number, earlier: Results | null = null): StepPlan {
  const stage = STAGES[index];
  const contestants = index === 0 ? [stage.id, BLAKE3_WASM.id] : [STAGES[index - 1].id, stage.id];
  const sizes = DEFAULT_SIZES.filter((size) => index > 1 || size <= QUADRATIC_MAX_SIZE);
  const estimate = (sizes: number[]) => estimatePlanMs({ contestants, sizes, rounds: DEFAULT_ROUNDS }, earlier).ms;
  // Sizes leave from the upper middle: the smallest and the largest stay, where steps differ most.
  while (sizes.length > 2 && estimate(sizes) > STEP_BUDGET_MS) sizes.splice(sizes.length - 2, 1);
  return { contestants, sizes, rounds: DEFAULT_ROUNDS, estimateMs: estimate(sizes) };
}
