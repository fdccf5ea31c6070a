// What a run in several engines says about the lesson's steps, computed from the run
// itself so the engines page never quotes a figure its data does not hold: for each
// step (a stage against the stage before it), whether it paid in each engine, and where
// SIMD WebAssembly lands against blake3-wasm in each.
import type { RuntimeInfo } from '../../core/bench/results.ts';
import { cellKey, stepRows } from '../../core/results/analysis/model.ts';
import type { RuntimeModel } from '../../core/results/analysis/runtime-ladder.ts';
import { BLAKE3_WASM } from '../../../steps/baseline-info.ts';

/** Stage 1's step, the one that removes stage 0's quadratic scan. */
export const READER_STEP = '01-read-words-full';

/** A step "pays" when it is a significant gain after Holm's correction and at least this large. */
export const PAYS = 1.2;

export interface StepInRuntime {
  runtime: RuntimeInfo;
  /** This stage's median MB/s over the previous stage's; null where either had no samples. */
  speedup: number | null;
  /** The step's gain survives Holm's correction. */
  significant: boolean;
  pays: boolean;
}

export interface StepFinding {
  contestant: string;
  title: string;
  perRuntime: StepInRuntime[];
  /** 'every': paid in every engine; 'some': in some but not all; 'none': in none. */
  verdict: 'every' | 'some' | 'none';
}

/** Every stage against the one before it, in each engine, at one size. */
export function stepFindings(models: RuntimeModel[], size: number): StepFinding[] {
  const perModel = models.map(({ model }) => new Map(stepRows(model, size).map((row) => [row.contestant, row])));
  const ids = [...new Set(perModel.flatMap((rows) => [...rows.keys()]))].sort();
  return ids.map((id) => {
    const perRuntime = models.map(({ runtime }, i) => {
      const row = perModel[i].get(id);
      const speedup = row ? row.speedup : null;
      const significant = row !== undefined && row.holmSignificant && row.speedup > 1;
      return { runtime, speedup, significant, pays: significant && row.speedup >= PAYS };
    });
    const paying = perRuntime.filter((e) => e.pays).length;
    const title = models.map(({ model }) => model.contestants.find((c) => c.id === id)?.title).find(Boolean) ?? id;
    return { contestant: id, title, perRuntime, verdict: paying === models.length ? 'every' : paying > 0 ? 'some' : 'none' };
  });
}

/** A contestant's median MB/s in each engine at one size, and its multiple of blake3-wasm there. */
export function standing(models: RuntimeModel[], contestant: string, size: number): { runtime: RuntimeInfo; mbps: number | null; ratio: number | null }[] {
  return models.map(({ runtime, model }) => {
    const mine = model.throughput.get(cellKey(contestant, size));
    const base = model.throughput.get(cellKey(BLAKE3_WASM.id, size));
    return { runtime, mbps: mine?.center ?? null, ratio: mine && base ? mine.center / base.center : null };
  });
}

/**
 * The largest size at which every stage finished all its rounds in every engine: there
 * each step, the first one included, can be judged on full samples. (Stage 0 is cut short
 * by the time box at the large sizes; a few samples of it would leave its step too weak to
 * judge once the p-values are corrected for the number of steps.)
 */
export function fullLadderSize(models: RuntimeModel[]): number | null {
  const sizes = [...new Set(models.flatMap((m) => m.model.sizes))].sort((a, b) => b - a);
  return (
    sizes.find((size) =>
      models.every(({ model }) =>
        model.contestants
          .filter((c) => c.kind === 'stage')
          .every((c) => model.results.runs.some((run) => run.contestant === c.id && run.size === size && run.status === 'ok')),
      ),
    ) ?? null
  );
}
