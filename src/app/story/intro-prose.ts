// The front page's words, from content/intro.md (see page-prose.ts for the rules). The
// page keeps the stage list, the tree's diagram, the code of g and the links' addresses.

import { STAGES } from '../../../steps/index.ts';
import type { MarkdownDoc } from '../../core/content/markdown.ts';
import { pageProse } from './page-prose.ts';
import { articleFigures } from '../ui/lesson/article-facts.ts';

// Counted, not typed: the sentence stays true when a stage is added.
const WORDS = ['Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve', 'Thirteen', 'Fourteen'];

// BLAKE3's sizes: a block is 64 bytes, a chunk 16 blocks; 1 MiB is 1024 chunks, and a
// binary tree over n leaves has n - 1 parents, each one more compression.
const MIB_BLOCKS = (1024 * 1024) / 64;
const MIB_PARENTS = (1024 * 1024) / 1024 - 1;

/** The front page's figures: how many stages there are, in words, and what 1 MiB costs in compressions. */
export const introFigures = (): Record<string, string | number> => ({
  count: WORDS[STAGES.length] ?? String(STAGES.length),
  'mib-blocks': MIB_BLOCKS.toLocaleString('en-US'),
  'mib-parents': MIB_PARENTS.toLocaleString('en-US'),
  ...articleFigures(),
});

export const INTRO = pageProse(import.meta.glob<MarkdownDoc>('/content/intro.md', { eager: true, import: 'default' }), 'intro', introFigures(), 'the front page', (file) => ({
  blake3: file.section('blake3', { level: 1, paragraphs: 1 }),
  chunks: file.section('chunks', { level: 2, paragraphs: 1 }),
  /** The first paragraph comes before the code of g, the rest after it. */
  compression: file.section('compression', { level: 2, paragraphs: 2 }),
  chaining: file.section('chaining', { level: 2, paragraphs: 1 }),
  tree: file.section('tree', { level: 2, paragraphs: 1 }),
  lesson: file.section('lesson', { level: 1, paragraphs: 1 }),
  /** The stage list's heading and line: the presenter deck's last slide. */
  map: file.section('map', { level: 2, paragraphs: 1 }),
  use: file.section('use', { level: 1, paragraphs: 0, items: true }),
}));
