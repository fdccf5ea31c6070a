// What the article says, beyond the per-step speedups in the stage registry
// (steps/index.ts, `articleSpeedup`). The story may attribute a figure or a quoted phrase
// to the article only when it is here or in the registry: tests/story-content.test.ts
// reads every clause of the narrative that names the article and fails on anything else.
// The article measured on an Apple M1 Max in V8; its figures are ratios to the previous
// step unless `fact` says otherwise.
import { STAGES } from '../../../../steps/index.ts';

export interface ArticleFact {
  /** The name the Markdown writes it by, as `{article-<id>}`. */
  id: string;
  /** The number as the article gives it, or null for a fact without one. */
  figure: number | null;
  /** A phrase quoted word for word, when the story quotes one. */
  quote?: string;
  /** What the figure or phrase says, in our words. */
  fact: string;
  /** Where in the article it is. */
  section: string;
}

export const ARTICLE_FACTS: ArticleFact[] = [
  {
    id: 'reference-vs-wasm',
    figure: 2000,
    fact: 'the reference port ran about 2000x slower than the Rust reference compiled to WebAssembly',
    section: 'step 0, the reference port',
  },
  {
    id: 'great-win',
    figure: null,
    quote: 'definitely a great win',
    fact: 'the full-block word reader gets this phrase and no figure',
    section: 'step 1, readLittleEndianWordsFull',
  },
  {
    id: 'steps-2-3',
    figure: 1.98,
    fact: 'steps 2 and 3 together',
    section: 'step 3, inlining round into compress',
  },
  {
    id: 'stage5-vs-wasm',
    figure: 0.75,
    fact: 'after step 5, about three quarters of the speed of Rust WASM',
    section: 'step 5, no copies',
  },
  {
    id: 'stage7-before',
    figure: 425,
    fact: 'MB/s before reusing the buffers',
    section: 'step 7, reusing internal buffers',
  },
  {
    id: 'stage7-after',
    figure: 435,
    fact: 'MB/s after reusing the buffers',
    section: 'step 7, reusing internal buffers',
  },
  {
    id: 'stage8-vs-wasm',
    figure: 1.6,
    fact: 'after step 8, times the speed of Rust WASM',
    section: 'step 8, the little-endian fast path',
  },
  {
    id: 'stage9-vs-wasm',
    figure: 2.21,
    fact: 'after step 9, times the speed of Rust WASM',
    section: 'step 9, SIMD WebAssembly',
  },
];

/**
 * The article's figures by the `{name}` the lesson's Markdown writes in their place: one
 * `{article-<id>}` per fact above, and `{article-step}`, the registry's speedup for the
 * stage being read (steps/index.ts), so each figure is typed once.
 */
export function articleFigures(stepSpeedup: number | null = null): Record<string, string | number> {
  const figures: Record<string, string | number> = {};
  for (const fact of ARTICLE_FACTS) if (fact.figure !== null) figures[`article-${fact.id}`] = fact.figure;
  if (stepSpeedup !== null) figures['article-step'] = stepSpeedup;
  return figures;
}

/**
 * The article's figure for a stage as a guess reads it (src/core/predict/guess.ts): the
 * step's speedup from the registry, or for stage 0 its ratio to Rust WASM; null where it
 * gives none (stage 1, and past the article).
 */
export function articleRatio(stage: number): number | null {
  if (stage === 0) {
    const slower = ARTICLE_FACTS.find((fact) => fact.id === 'reference-vs-wasm')?.figure;
    return slower ? 1 / slower : null;
  }
  return STAGES[stage]?.articleSpeedup ?? null;
}
