// "Measure this step" from a stage page: the stage and the one before it (stage 0 against
// blake3-wasm, its yardstick), at the default sizes that fit in about ten seconds here,
// then blake3-wasm alone at 1 KiB and 64 KiB, so every stage also says how it stands
// against Rust compiled to WebAssembly, the article's yardstick ("x times WASM").
// A whole default run takes over a minute; a teacher in front of a class wants one step.
import { STAGES } from '../../../../steps/index.ts';
import type { Results } from '../../../core/bench/results.ts';
import { DEFAULT_ROUNDS, DEFAULT_SIZES } from '../../../core/bench/plan.ts';
import { estimatePlanMs } from '../../../core/bench/estimate.ts';
import { BLAKE3_WASM } from '../../../../steps/baseline-info.ts';

/** What a step run may take, by the estimate: long enough for ten rounds at several sizes. */
export const STEP_BUDGET_MS = 12_000;
/** Stage 0 reads words quadratically: above this size one hash outlasts the whole budget. */
const QUADRATIC_MAX_SIZE = 65536;
/** Where a step run also measures blake3-wasm: a small input and a large one every stage reaches. */
export const YARDSTICK_SIZES: readonly number[] = [1024, 65536];

export interface PlanPart {
  contestants: string[];
  sizes: number[];
  rounds: number;
}

export interface StepPlan extends PlanPart {
  /** blake3-wasm at YARDSTICK_SIZES, run after the step; null for stage 0, whose step is against it already. */
  yardstick: PlanPart | null;
  /** Both parts together. */
  estimateMs: number;
}

export function stepPlan(index: number, earlier: Results | null = null): StepPlan {
  const stage = STAGES[index];
  const contestants = index === 0 ? [stage.id, BLAKE3_WASM.id] : [STAGES[index - 1].id, stage.id];
  const yardstick = index === 0 ? null : { contestants: [BLAKE3_WASM.id], sizes: [...YARDSTICK_SIZES], rounds: DEFAULT_ROUNDS };
  const yardstickMs = yardstick ? estimatePlanMs(yardstick, earlier).ms : 0;
  const sizes = DEFAULT_SIZES.filter((size) => index > 1 || size <= QUADRATIC_MAX_SIZE);
  const estimate = (sizes: number[]) => estimatePlanMs({ contestants, sizes, rounds: DEFAULT_ROUNDS }, earlier).ms + yardstickMs;
  // Sizes leave from the upper middle: the smallest and the largest stay, where steps differ
  // most, and so do the yardstick's, where the stage is set against blake3-wasm.
  const removable = (): number => {
    for (let i = sizes.length - 2; i > 0; i--) if (!YARDSTICK_SIZES.includes(sizes[i])) return i;
    return -1;
  };
  while (estimate(sizes) > STEP_BUDGET_MS && removable() > 0) sizes.splice(removable(), 1);
  return { contestants, sizes, rounds: DEFAULT_ROUNDS, yardstick, estimateMs: estimate(sizes) };
}
