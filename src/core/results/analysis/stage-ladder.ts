// Your ladder: every stage measured so far on this device at one input size, in the
// lesson's order, each against the stage below it that was measured and against Rust
// WASM, so a learner who measured step by step sees the whole climb at once.
import type { Results } from '../../bench/results.ts';
import { BASELINE_ID, baselineRows, buildModel, cellKey, stepRows, type BaselineRow, type ResultsModel, type StepRow } from './model.ts';

/** Where the ladder stands by default: every step run measures the stages and blake3-wasm at 64 KiB. */
export const LADDER_SIZE = 65536;

export interface LadderRung {
  contestant: string;
  title: string;
  kind: string;
  /** MB/s at the ladder's size. */
  mbps: BaselineRow['estimate'];
  /** Against the stage below it on the ladder; null for the lowest stage and for blake3-wasm. */
  step: StepRow | null;
  /** Against blake3-wasm at the same size; null when it was not measured there. */
  versus: BaselineRow | null;
}

export interface StageLadder {
  size: number;
  rungs: LadderRung[];
  /** The same results cut to the ladder's size, for its chart. */
  model: ResultsModel;
}

/** The size with the most stages measured: 64 KiB on a tie, then the largest. */
export function ladderSize(model: ResultsModel): number | null {
  let best: number | null = null;
  let count = 0;
  for (const size of model.sizes) {
    const n = model.contestants.filter((c) => c.kind === 'stage' && model.throughput.has(cellKey(c.id, size))).length;
    if (n > count || (n === count && n > 0 && size === LADDER_SIZE)) {
      best = size;
      count = n;
    }
  }
  return best;
}

/** The ladder at `size` (by default ladderSize); null when no stage was measured anywhere. */
export function stageLadder(results: Results, size?: number): StageLadder | null {
  const full = buildModel(results);
  const at = size ?? ladderSize(full);
  if (at === null) return null;
  const runs = results.runs.filter((r) => r.size === at);
  const measured = new Set(runs.map((r) => r.contestant));
  const model = buildModel({
    ...results,
    runs,
    config: { ...results.config, sizes: [at] },
    contestants: results.contestants.filter((c) => measured.has(c.id) && (c.kind === 'stage' || c.id === BASELINE_ID)),
  });
  const steps = stepRows(model, at);
  const versus = baselineRows(model, at);
  const rungs = model.contestants.flatMap((c): LadderRung[] => {
    const estimate = model.throughput.get(cellKey(c.id, at));
    if (!estimate) return [];
    return [{ contestant: c.id, title: c.title, kind: c.kind, mbps: estimate, step: steps.find((s) => s.contestant === c.id) ?? null, versus: c.id === BASELINE_ID ? null : (versus.find((v) => v.contestant === c.id) ?? null) }];
  });
  return rungs.some((r) => r.kind === 'stage') ? { size: at, rungs, model } : null;
}
