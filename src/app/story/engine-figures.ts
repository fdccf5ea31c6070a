// Figures the stories quote from the committed run in two engines (data/engines/, the
// run the "Every engine" page shows), computed here so the prose never types them: stage
// 0's times and the bench's estimates where it skipped a size, and stages 8 and 9 against
// blake3-wasm. A new run is a new file here, and every figure follows it.

import { readEnginesRun } from '../ui/results/engines-run.ts';
import { effectFigures, effectWords, engineStepModels, stepEffect } from '../ui/lesson/committed-steps.ts';
import type { RuntimeModel } from '../../core/results/analysis/runtime-ladder.ts';
import { cellKey } from '../../core/results/analysis/model.ts';
import { formatDuration, formatSize } from '../../core/format.ts';
import type { Results } from '../../core/bench/results.ts';
import { standing } from './engine-findings.ts';
import { loadTimedIn } from './native-figures.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

export function enginesRun(data?: unknown): { results: Results; models: RuntimeModel[] } {
  // The committed run's models are built once, for these figures and the experiments alike.
  return { results: readEnginesRun(data), models: engineStepModels(data) };
}

function model(models: RuntimeModel[], runtime: string) {
  const found = models.find((m) => m.runtime.id === runtime);
  if (!found) throw new Error(`data/engines: the run has no ${runtime}`);
  return found.model;
}

/** The median time of one hash, from the median MB/s. */
export function medianTime(models: RuntimeModel[], runtime: string, contestant: string, size: number): string {
  const cell = model(models, runtime).throughput.get(cellKey(contestant, size));
  if (!cell) throw new Error(`data/engines: no ${contestant} at ${formatSize(size)} in ${runtime}`);
  return formatDuration(size / cell.center / 1000);
}

/** What the bench said a skipped size would take ("about 3 min"), from its reason. */
export function skippedEstimate(results: Results, runtime: string, contestant: string, size: number): string {
  const run = results.runs.find((r) => r.runtime === runtime && r.contestant === contestant && r.size === size && r.status === 'timeboxed');
  const estimate = /would take about ([^(]+?) \(/.exec(run?.reason ?? '')?.[1];
  if (!estimate) throw new Error(`data/engines: ${contestant} was not skipped at ${formatSize(size)} in ${runtime}, or does not say why`);
  return estimate;
}

/** The exponent the bench extrapolated stage 0's time with ("2.7"), from its reason. */
export function skippedExponent(results: Results, runtime: string, contestant: string, size: number): string {
  const run = results.runs.find((r) => r.runtime === runtime && r.contestant === contestant && r.size === size && r.status === 'timeboxed');
  const exponent = /size\^([\d.]+)/.exec(run?.reason ?? '')?.[1];
  if (!exponent) throw new Error(`data/engines: the bench gives no exponent for ${contestant} at ${formatSize(size)}`);
  return exponent;
}

/** A contestant's multiples of blake3-wasm in one runtime over some sizes, lowest to highest: "0.67–0.76×". */
export function ratioRange(models: RuntimeModel[], runtime: string, contestant: string, sizes: number[]): string {
  const ratios = sizes.map((size) => {
    const ratio = standing(models, contestant, size).find((s) => s.runtime.id === runtime)?.ratio;
    if (ratio === null || ratio === undefined) throw new Error(`data/engines: no ratio for ${contestant} at ${formatSize(size)} in ${runtime}`);
    return ratio;
  });
  return range(ratios);
}

/** One stage's median MB/s over another's in one runtime, over some sizes, lowest to highest: "1.12–1.61×". */
export function stepRange(models: RuntimeModel[], runtime: string, from: string, to: string, sizes: number[]): string {
  const throughput = model(models, runtime).throughput;
  const ratios = sizes.map((size) => {
    const [before, after] = [throughput.get(cellKey(from, size)), throughput.get(cellKey(to, size))];
    if (!before || !after) throw new Error(`data/engines: no ${from} or ${to} at ${formatSize(size)} in ${runtime}`);
    return after.center / before.center;
  });
  return range(ratios);
}

/**
 * Which side of the other stage's median a stage's fell on, size by size, in words:
 * "above it at every size", "below it at 96 B, above it at the other sizes". The words
 * beside a range of ratios, so a sentence never calls a range faster that is not.
 */
export function sidesWords(models: RuntimeModel[], runtime: string, from: string, to: string, sizes: number[]): string {
  const throughput = model(models, runtime).throughput;
  const below = sizes.filter((size) => throughput.get(cellKey(to, size))!.center < throughput.get(cellKey(from, size))!.center);
  const above = sizes.filter((size) => !below.includes(size));
  const list = (some: number[]) => some.map(formatSize).join(', ');
  if (below.length === 0) return 'above it at every size';
  if (above.length === 0) return 'below it at every size';
  return below.length <= above.length ? `below it at ${list(below)}, above it at the other sizes` : `above it at ${list(above)}, below it at the other sizes`;
}

function range(ratios: number[]): string {
  const [lo, hi] = [Math.min(...ratios), Math.max(...ratios)].map((r) => r.toFixed(2));
  return lo === hi ? `${lo}×` : `${lo}–${hi}×`;
}

/** Every figure the stories quote from the engines run, by the `{name}` their Markdown writes. */
export function engineFigures(data?: unknown): Record<string, string | number> {
  const { results, models } = enginesRun(data);
  const large = [KiB, 32 * KiB, 64 * KiB, 256 * KiB, MiB];
  const all = [96, 512, ...large];
  // A merged run keeps its first engine's notes (mergeRuntimeResults): the stories call them Chromium's.
  if (results.runtimes?.[0]?.id !== 'chromium') throw new Error('data/engines: the run must measure Chromium first, whose notes it keeps');
  const load = loadTimedIn(results, 'data/engines');
  const step7 = stepEffect(models, 'chromium', '07-reuse-buffers', 96);
  return {
    'engines-date': results.env.date.slice(0, 10),
    // As the run records it: no processor model, only the system and the cores.
    'engines-machine': `${results.env.os} with ${results.env.cores} cores`,
    'engines-chromium': `Chromium ${results.runtimes?.find((r) => r.id === 'chromium')?.version.split('.')[0] ?? ''}`.trim(),
    'stage0-1k': medianTime(models, 'chromium', '00-reference', KiB),
    'stage0-32k': medianTime(models, 'chromium', '00-reference', 32 * KiB),
    'stage0-64k': medianTime(models, 'chromium', '00-reference', 64 * KiB),
    'stage0-256k': medianTime(models, 'chromium', '00-reference', 256 * KiB),
    'stage0-1m-estimate': skippedEstimate(results, 'chromium', '00-reference', MiB),
    'stage0-1m-estimate-firefox': skippedEstimate(results, 'firefox', '00-reference', MiB),
    'stage0-exponent': skippedExponent(results, 'chromium', '00-reference', MiB),
    'stage1-1m': medianTime(models, 'chromium', '01-read-words-full', MiB),
    'stage8-vs-wasm-chromium': ratioRange(models, 'chromium', '08-little-endian', large),
    'stage8-vs-wasm-firefox': ratioRange(models, 'firefox', '08-little-endian', large),
    'stage5-vs-stage4-chromium': stepRange(models, 'chromium', '04-state-locals', '05-no-copies', all),
    'stage5-vs-stage4-chromium-word': sidesWords(models, 'chromium', '04-state-locals', '05-no-copies', all),
    'stage7-vs-stage6-96b': effectFigures(step7),
    'stage7-vs-stage6-96b-word': effectWords(step7),
    'engines-load-rows-ns': load.rows,
    'engines-load-words-ns': load.words,
    'engines-load-kept': load.kept,
    'stage9-vs-stage8-chromium': stepRange(models, 'chromium', '08-little-endian', '09-simd-wasm', [64 * KiB, 256 * KiB, MiB]),
    'stage9-vs-wasm-large': ratioRange(models, 'chromium', '09-simd-wasm', [64 * KiB, 256 * KiB, MiB]),
    'stage9-vs-wasm-1k': ratioRange(models, 'chromium', '09-simd-wasm', [KiB]),
  };
}
