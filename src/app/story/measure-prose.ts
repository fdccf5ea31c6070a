// The words of "How we measure", from content/measure.md (see page-prose.ts for the
// rules). The page keeps the schedules, the false-alarm slider and Holm's table; the
// figures in its prose are the engine's own settings and arithmetic, filled in here, so
// the page cannot drift from the engine.

import { DEFAULT_ROUNDS, DEFAULT_SAMPLE_TARGET_MS, DEFAULT_TIME_BOX_MS, WARMUP_MS } from '../../core/bench/plan.ts';
import type { MarkdownDoc } from '../../core/content/markdown.ts';
import { holm, minSamplesToDetect } from '../../core/stats/index.ts';
import { medianOrders, minSamplesForInterval } from '../../core/stats/median.ts';
import { pageProse } from './page-prose.ts';
import { DEFAULT_CLEAR_PERCENT } from '../../core/results/analysis/until-clear.ts';
import { engineFigures } from './engine-figures.ts';
import { articleFigures } from '../ui/lesson/article-facts.ts';

/** The significance level and confidence the page explains. */
export const ALPHA = 0.05;
export const CONFIDENCE = 0.95;

/** An example family of comparisons, as the results page might show for one input size: Holm's table and the words under it. */
export const HOLM_FAMILY = [
  { label: 'stage 1 vs 0', p: 0.0001 },
  { label: 'stage 2 vs 1', p: 0.0004 },
  { label: 'stage 4 vs 3', p: 0.002 },
  { label: 'stage 3 vs 2', p: 0.011 },
  { label: 'stage 7 vs 6', p: 0.03 },
  { label: 'stage 8 vs 7', p: 0.048 },
];

const FAMILY_WORDS = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/**
 * The figures of the words under Holm's table: the family's size and its last two
 * p-values, which the words say pass 0.05 alone and fail once adjusted. Throws when the
 * example stops showing that, so the words cannot go wrong with the table.
 */
function holmFigures(): Record<string, string | number> {
  const p = HOLM_FAMILY.map((row) => row.p);
  const adjusted = holm(p);
  const last = p.length - 1;
  if (![last - 1, last].every((i) => p[i] < ALPHA && adjusted[i] >= ALPHA)) {
    throw new Error('HOLM_FAMILY: its last two p-values must pass 0.05 alone and fail once adjusted, as content/measure.md says');
  }
  return { 'family-size': FAMILY_WORDS[p.length] ?? p.length, 'near-misses': `${p[last - 1]} and ${p[last]}`, 'last-p': p[last] };
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** The page's figures. `{tests}` follows the page's slider, so it is left for the page to fill. */
export function measureFigures(): Record<string, string | number> {
  const orders = medianOrders(DEFAULT_ROUNDS, CONFIDENCE);
  return {
    'warmup-ms': WARMUP_MS,
    'sample-ms': DEFAULT_SAMPLE_TARGET_MS,
    'time-box-s': DEFAULT_TIME_BOX_MS / 1000,
    rounds: DEFAULT_ROUNDS,
    lo: ordinal(orders.lo),
    hi: ordinal(orders.hi),
    coverage: (orders.confidence * 100).toFixed(1),
    'min-interval': minSamplesForInterval(CONFIDENCE).replace('>= ', ''),
    detect: minSamplesToDetect(ALPHA).n,
    tests: '{tests}',
    'clear-percent': DEFAULT_CLEAR_PERCENT,
    ...holmFigures(),
    ...engineFigures(),
    ...articleFigures(),
  };
}

export const MEASURE = pageProse(import.meta.glob<MarkdownDoc>('/content/measure.md', { eager: true, import: 'default' }), 'measure', measureFigures(), '"How we measure"', (file) => ({
  noise: file.section('noise', { level: 1, paragraphs: 0, items: true }),
  samples: file.section('samples', { level: 1, paragraphs: 1 }),
  interleave: file.section('interleave', { level: 1, paragraphs: 1 }),
  ci: file.section('ci', { level: 1, paragraphs: 1 }),
  p: file.section('p', { level: 1, paragraphs: 1 }),
  clear: file.section('clear', { level: 1, paragraphs: 1 }),
  /** The first paragraph comes before the slider, the last is the note under Holm's table, the rest come before the table. */
  multiple: file.section('multiple', { level: 1, paragraphs: 3 }),
  heat: file.section('heat', { level: 1, paragraphs: 1 }),
  captions: { schedule: file.string('captions.schedule'), trap: file.string('captions.trap'), holm: file.string('captions.holm') },
}));
