// The story of each Go stage in our own words, joined to the track's list (go/index.ts).
// The words are in content/go/<id>.md; the code is go/<id>/blake2s.go and the compiler's
// evidence go/<id>/evidence.json (generated). Text in `backticks` is shown as code; `lead`
// (a part's first paragraph) is the sentence presenter mode shows.

import { GO_TRACK, type GoStageInfo } from '../../../go/index.ts';
import type { MarkdownDoc } from '../../core/content/markdown.ts';
import { askOf, readersByName } from '../ui/lesson/content.ts';
import type { AskTheClass, Part } from '../ui/lesson/story-types.ts';

export interface GoStage extends GoStageInfo {
  change: Part;
  why: Part;
  cost: Part;
  /** Which benchmarks this step should move, and why: read beside the measured table. */
  expect: string;
  /** Why a size did not move, by section ("quiet", or a variant), with {placeholders} for the evidence's figures. */
  quiet: Record<string, string>;
  /** A question for the room from the step's evidence, and its answer. */
  ask: AskTheClass;
}

const FILES = readersByName(import.meta.glob<MarkdownDoc>('/content/go/*.md', { eager: true, import: 'default' }));

export const GO_STAGES: GoStage[] = GO_TRACK.map((info) => {
  const file = FILES.get(info.id);
  if (!file) throw new Error(`go/index.ts lists ${info.id}, which has no story: write content/go/${info.id}.md`);
  const quiet = Object.fromEntries(Object.keys(file.doc.sections).filter((name) => name.startsWith('quiet')).map((name) => [name, file.text(name)]));
  return { ...info, change: file.part('change'), why: file.part('why'), cost: file.part('cost'), expect: file.text('expect'), quiet, ask: askOf(file) };
});

export const goStageById = (id: string): GoStage | undefined => GO_STAGES.find((stage) => stage.id === id);
