// The one-sentence answer a stage page gives after "Measure this step": how much faster
// this stage was than the one before (at the largest size where that is a finding), with its p-values,
// how it stands against Rust compiled to WebAssembly, and what the article measured.
// "Stage 5 is 1.27x stage 4 at 1 MiB here (p=0.006) and 1.3x slower than Rust WASM at
// 64 KiB; the article measured 3× and about 0.75× the speed of Rust WASM."
// When the step is noise it says so, and what the run could have seen (stats/plain-words.ts).
// Every figure of a step here is corrected over that step's own sizes (stepFindings), so
// the line under the title, this answer and the card agree whatever else the ladder holds.
import { STAGES } from '../../../steps/index.ts';
import type { Results } from '../../core/bench/results.ts';
import { formatSize, formatRatio, formatVersus } from '../../core/format.ts';
import { baselineRows, buildModel, stepFindings, type BaselineRow, type ResultsModel, type StepFinding } from '../../core/results/analysis/model.ts';
import { describePValues, detectableChangePct, moreRounds, noDifferenceAdvice } from '../../core/stats/plain-words.ts';
import type { StageStory } from '../ui/lesson/story-types.ts';

export interface StepAnswer {
  /** One sentence. */
  text: string;
  /** When the step could not be told from noise: how large a change this run could have seen, and what to try. */
  advice: string | null;
  /** The rounds the advice suggests measuring again with, or null when the step is a finding. */
  rounds: number | null;
}

/**
 * The step to speak of: at the largest size where it is a finding after the correction,
 * or, when it is one nowhere, at the largest size measured (where steps differ most).
 */
export function chosenStep(model: ResultsModel, stageId: string): StepFinding | null {
  const findings = stepFindings(model, stageId);
  const clear = findings.filter((f) => f.significant);
  return clear.at(-1) ?? findings.at(-1) ?? null;
}

/** Against blake3-wasm at 64 KiB (or the largest size both were measured at). */
function versusWasm(model: ResultsModel, stageId: string): BaselineRow | null {
  const sizes = [...model.sizes].sort((a, b) => (a === 65536 ? -1 : b === 65536 ? 1 : b - a));
  for (const size of sizes) {
    const row = baselineRows(model, size).find((r) => r.contestant === stageId);
    if (row) return row;
  }
  return null;
}

function samplesOf(results: Results, contestant: string, size: number): number[] {
  return results.runs.find((r) => r.contestant === contestant && r.size === size && r.nsPerOp.length > 0)?.nsPerOp ?? [];
}

/** The answer for stage `index` from the results of its step run; null when they hold no figure of it. */
export function stepAnswer(results: Results, index: number, story: Pick<StageStory, 'article'>): StepAnswer | null {
  const stage = STAGES[index];
  const model = buildModel(results);
  const wasm = versusWasm(model, stage.id);
  const versus = wasm ? `${formatVersus(wasm.ratio)} than Rust WASM at ${formatSize(wasm.size)}` : null;
  const article = story.article;
  if (index === 0) {
    if (!versus) return null;
    const p = wasm?.comparison ? ` (${describePValues(wasm.comparison.p, wasm.adjustedP ?? wasm.comparison.p, 1)})` : '';
    const said = article ? `; the article measured ${article.headline}` : '';
    return { text: `Stage 0 is ${versus} here${p}${said}.`, advice: null, rounds: null };
  }
  const step = chosenStep(model, stage.id);
  if (!step) return null;
  const { row, family } = step;
  const before = STAGES.find((s) => s.id === row.previous)?.index ?? index - 1;
  const where = `at ${formatSize(row.size)} here`;
  const ps = describePValues(row.comparison.p, step.adjustedP, family);
  const moved = step.significant;
  const claim = moved
    ? `Stage ${index} is ${formatRatio(row.speedup)} stage ${before} ${where} (${ps})`
    : `Stage ${index} is not measurably faster or slower than stage ${before} ${where} (median ${formatRatio(row.speedup)}, ${ps})`;
  const also = versus ? ` and ${versus}` : '';
  // Stage 1's headline is words, not a figure ("No figure"): the article gave none for it.
  const articleSaid = !article
    ? '; the article stops at stage 9'
    : /\d/.test(article.headline)
      ? `; the article measured ${article.headline}${article.vsWasm ? ` and ${article.vsWasm}` : ''}`
      : '; the article gives no figure for this step';
  const rounds = moved ? null : moreRounds(results.config.rounds);
  const advice = moved
    ? null
    : noDifferenceAdvice(
        detectableChangePct(samplesOf(results, row.previous, row.size), samplesOf(results, stage.id, row.size)),
        formatSize(row.size),
        results.config.rounds,
      );
  return { text: `${claim}${also}${articleSaid}.`, advice, rounds };
}

export interface MeasuredRatio {
  ratio: number;
  clear: boolean;
  range: [number, number] | null;
}

/** The model of `results` when they measured the stage, else null. */
function modelWith(results: Results | null, stageId: string): ResultsModel | null {
  return results?.contestants.some((c) => c.id === stageId) ? buildModel(results) : null;
}

/**
 * This machine's figure for the stage in a few words, for the line under its title:
 * "1.31x stage 4 at 1 MiB", "no measurable difference from stage 6 at 1 MiB",
 * "about 420x slower than Rust WASM at 64 KiB" (stage 0). Null when not measured here.
 */
export function hereFigure(results: Results | null, index: number): string | null {
  const stage = STAGES[index];
  const model = modelWith(results, stage.id);
  if (!model) return null;
  if (index === 0) {
    const wasm = versusWasm(model, stage.id);
    return wasm ? `${formatVersus(wasm.ratio)} than Rust WASM at ${formatSize(wasm.size)}` : null;
  }
  const step = chosenStep(model, stage.id);
  if (!step) return null;
  const { row } = step;
  const before = STAGES.find((s) => s.id === row.previous)?.index ?? index - 1;
  return step.significant
    ? `${formatRatio(row.speedup)} stage ${before} at ${formatSize(row.size)}`
    : `no measurable difference from stage ${before} at ${formatSize(row.size)} (median ${formatRatio(row.speedup)})`;
}

/**
 * This machine's figure for the stage as a guess reads it (predict/guess.ts): its ratio
 * over the stage before it (stage 0: over Rust WASM), whether that is a finding, and the
 * widest ratio its two 95% intervals allow (null when unbounded), at the size the title
 * line speaks of. Null when not measured so (a stage measured only against an older one
 * is not the step guessed).
 */
export function measuredRatio(results: Results | null, index: number): MeasuredRatio | null {
  const stage = STAGES[index];
  const model = modelWith(results, stage.id);
  if (!model) return null;
  if (index === 0) {
    const wasm = versusWasm(model, stage.id);
    return wasm ? { ratio: wasm.ratio, clear: true, range: wasm.range } : null;
  }
  const step = chosenStep(model, stage.id);
  return step && step.row.previous === STAGES[index - 1].id ? { ratio: step.row.speedup, clear: step.significant, range: step.row.range } : null;
}
