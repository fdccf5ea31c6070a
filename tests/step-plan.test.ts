// "Measure this step" on a stage page: two contestants, the sizes that fit the budget,
// blake3-wasm at 1 KiB and 64 KiB, and an estimate near ten seconds for every stage
// (both parts together), so a class waits seconds, not minutes.
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { DEFAULT_SIZES } from '../src/core/bench/plan.ts';
import { STEP_BUDGET_MS, stepPlan } from '../src/app/ui/run/step-plan.ts';
import { fullResults } from './fixtures/full-results.ts';

describe('a step plan', () => {
  for (const stage of STAGES) {
    it(`stage ${stage.index}: the stage and the one before, in about ten seconds`, () => {
      const plan = stepPlan(stage.index);
      expect(plan.contestants).toEqual(stage.index === 0 ? [stage.id, 'blake3-wasm'] : [STAGES[stage.index - 1].id, stage.id]);
      expect(plan.estimateMs).toBeLessThanOrEqual(STEP_BUDGET_MS);
      expect(plan.estimateMs).toBeGreaterThan(5000);
      expect(plan.sizes[0]).toBe(DEFAULT_SIZES[0]);
      expect(plan.sizes.length).toBeGreaterThanOrEqual(3);
      // Every stage is also set against Rust WASM, and the stage itself is measured where blake3-wasm is.
      if (stage.index === 0) expect(plan.yardstick).toBeNull();
      else {
        expect(plan.yardstick).toEqual({ contestants: ['blake3-wasm'], sizes: [1024, 65536], rounds: plan.rounds });
        for (const size of plan.yardstick!.sizes) expect(plan.sizes).toContain(size);
      }
    });
  }

  it('keeps stage 0 off the sizes where one hash of it outlasts the budget', () => {
    expect(Math.max(...stepPlan(1).sizes)).toBeLessThanOrEqual(65536);
    expect(Math.max(...stepPlan(9).sizes)).toBe(DEFAULT_SIZES.at(-1));
  });

  it('uses an earlier run’s hash times, and still fits the budget', () => {
    for (const stage of STAGES) expect(stepPlan(stage.index, fullResults()).estimateMs).toBeLessThanOrEqual(STEP_BUDGET_MS);
  });
});
