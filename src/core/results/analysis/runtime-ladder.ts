// The same ladder in several runtimes: for one input size, every contestant's throughput
// in each runtime (a browser and its JavaScript engine), and its multiple of blake3-wasm
// measured in that same runtime. Each runtime's numbers come from its own single-runtime
// document (splitByRuntime) through the same model as the rest of the results pages, so a
// figure here is the figure the runtime's own tables show.
import { measuringRuntimes, splitByRuntime } from '../../bench/runtimes.ts';
import type { ContestantInfo, RuntimeInfo, Results } from '../../bench/results.ts';
import { BASELINE_ID, buildModel, cellKey, type Estimate, type ResultsModel } from './model.ts';

export interface RuntimeModel {
  runtime: RuntimeInfo;
  model: ResultsModel;
}

export type LadderCell =
  /** ratio: median over the same runtime's blake3-wasm median at this size; null without one. */
  | { estimate: Estimate; ratio: number | null }
  /** No trusted samples in this runtime: why ("needs WebAssembly SIMD ..."). */
  | { estimate: null; reason: string };

export interface LadderRow {
  contestant: string;
  title: string;
  kind: ContestantInfo['kind'];
  /** One per runtime, in the order of RuntimeLadder.runtimes; null where it was not part of that runtime's run. */
  cells: (LadderCell | null)[];
}

export interface RuntimeLadder {
  runtimes: RuntimeInfo[];
  size: number;
  rows: LadderRow[];
}

/** One model per runtime, in the document's order. */
export function runtimeModels(results: Results): RuntimeModel[] {
  const runtimes = measuringRuntimes(results);
  return splitByRuntime(results).map((part, i) => ({ runtime: runtimes[i], model: buildModel(part) }));
}

/** Sizes any runtime measured, ascending. */
export function ladderSizes(models: RuntimeModel[]): number[] {
  return [...new Set(models.flatMap((m) => m.model.sizes))].sort((a, b) => a - b);
}

/** Every contestant measured in some runtime at `size`, in lesson order (stages, then the rest). */
export function runtimeLadder(models: RuntimeModel[], size: number): RuntimeLadder {
  const order: ContestantInfo[] = [];
  for (const { model } of models) for (const c of model.contestants) if (!order.some((o) => o.id === c.id)) order.push(c);
  const stages = order.filter((c) => c.kind === 'stage').sort((a, b) => (a.id < b.id ? -1 : 1));
  const rows: LadderRow[] = [];
  for (const contestant of [...stages, ...order.filter((c) => c.kind !== 'stage')]) {
    const cells = models.map(({ model }): LadderCell | null => {
      const estimate = model.throughput.get(cellKey(contestant.id, size));
      if (!estimate) {
        const note = model.notes.find((n) => n.contestant === contestant.id && n.sizes.includes(size));
        return note ? { estimate: null, reason: `${note.status}: ${note.reason}` } : null;
      }
      const base = model.throughput.get(cellKey(BASELINE_ID, size));
      return { estimate, ratio: base ? estimate.center / base.center : null };
    });
    if (cells.some((cell) => cell?.estimate)) rows.push({ contestant: contestant.id, title: contestant.title, kind: contestant.kind, cells });
  }
  return { runtimes: models.map((m) => m.runtime), size, rows };
}
