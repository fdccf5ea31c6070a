// The words of "Every engine", from content/engines.md (see page-prose.ts for the rules),
// with the figures of the committed run in two engines (data/engines/) filled in, and the
// findings the page lists between the paragraphs. A new run is a new file in data/engines/
// and engine-figures.ts, and every figure and list follows it.

import type { MarkdownDoc } from '../../core/content/markdown.ts';
import { runtimesOf } from '../../core/bench/runtimes.ts';
import { formatRatio, formatSize } from '../../core/format.ts';
import { BLAKE3_WASM } from '../../../steps/baseline-info.ts';
import { enginesRun } from './engine-figures.ts';
import { PAYS, READER_STEP, fullLadderSize, standing, stepFindings, type StepFinding } from './engine-findings.ts';
import { pageProse } from './page-prose.ts';

const LARGE = 1024 * 1024;
const SMALL = 1024;
const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven'];

export const ratioText = (x: number | null) => (x === null ? 'not measured' : formatRatio(x));

/** One step in each engine: "Chromium 2.1x, Firefox 1.05x (not significant)". */
export const stepText = (finding: StepFinding) =>
  finding.perRuntime
    .map((e) => `${e.runtime.name} ${ratioText(e.speedup)}${e.pays || e.speedup === null ? '' : e.significant ? ' (under the bar)' : ' (not significant)'}`)
    .join(', ');

function enginesPage() {
  const { results: run, models } = enginesRun();
  // Steps are judged where every stage ran in every engine, so the first step counts too.
  const stepsAt = fullLadderSize(models) ?? LARGE;
  const findings = stepFindings(models, stepsAt);
  const reader = findings.find((f) => f.contestant === READER_STEP);
  const readerSmall = stepFindings(models, SMALL).find((f) => f.contestant === READER_STEP);
  if (!reader || !readerSmall) throw new Error(`data/engines: the run has no ${READER_STEP} step to quote`);
  const every = findings.filter((f) => f.verdict === 'every');
  const figures = {
    date: run.env.date.slice(0, 10),
    os: run.env.os,
    cores: run.env.cores,
    'steps-at': formatSize(stepsAt),
    small: formatSize(SMALL),
    large: formatSize(LARGE),
    pays: formatRatio(PAYS),
    'reader-at-steps': stepText(reader),
    'reader-at-small': stepText(readerSmall),
    'every-count': COUNT_WORDS[every.length] ?? String(every.length),
  };
  const prose = pageProse(import.meta.glob<MarkdownDoc>('/content/engines.md', { eager: true, import: 'default' }), 'engines', figures, '"Every engine"', (file) => ({
    engines: file.section('engines', { level: 1, paragraphs: 1, items: true }),
    measured: file.section('measured', { level: 1, paragraphs: 1 }),
    /** The first paragraph comes before the lists, the second after them. */
    paid: file.section('paid', { level: 1, paragraphs: 2 }),
    /** The first paragraph comes before each engine's figures, the second after them. */
    simd: file.section('simd', { level: 1, paragraphs: 2 }),
    moral: file.section('moral', { level: 1, paragraphs: 1 }),
    lists: { every: file.string('lists.every'), some: file.string('lists.some') },
    empty: { every: file.string('empty.every'), some: file.string('empty.some') },
    cta: { measure: file.string('cta.measure'), then: file.string('cta.then') },
  }));
  return {
    prose,
    run,
    runtimes: runtimesOf(run),
    every,
    some: findings.filter((f) => f.verdict === 'some'),
    simd: standing(models, '09-simd-wasm', LARGE),
    simdSmall: standing(models, '09-simd-wasm', SMALL),
    wasm: standing(models, BLAKE3_WASM.id, LARGE),
    bestJs: standing(models, '08-little-endian', LARGE),
    large: LARGE,
    small: SMALL,
  };
}

export const ENGINES_PAGE = enginesPage();
