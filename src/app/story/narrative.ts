// The story of each stage, told for a reader who has the diff open beside it. The words
// are in content/stages/<stage id>.md, one file per stage, and the Go side notes in
// content/notes/; this reads them into StageStory, whose fields the front matter and
// the sections fill. Text in `backticks` is shown as code. Each part has a `lead` (its
// first paragraph: one sentence, all that presenter mode shows on the projector) and
// `more` (the rest, for a student reading alone). Figures from a committed run are
// `{placeholders}` in the Markdown, filled here from the runs (native-figures.ts,
// engine-figures.ts) and the article's figures (article-facts.ts). The sentence under
// `# What V8 reports {#v8-why}` is left as written: its `{then}` and `{now}` are the
// values of the row of V8's table it marks (`v8Why.row`), which the page fills in.

import { STAGES } from '../../../steps/index.ts';
import { GO_TRACK } from '../../../go/index.ts';
import type { MarkdownDoc } from '../../core/content/markdown.ts';
import { FIGURE_ROWS, type FigureRow, type V8Why } from '../../core/evidence/v8-why.ts';
import { askOf, fill, readersByName, type ContentReader } from '../ui/lesson/content.ts';
import type { ProfileFacts, SideNote, StageStory } from '../ui/lesson/story-types.ts';
import { storyFigures } from './native-figures.ts';
import { engineFigures } from './engine-figures.ts';
import { articleFigures } from '../ui/lesson/article-facts.ts';
import { profileFigures } from './profile-figures.ts';

const STAGE_FILES = import.meta.glob<MarkdownDoc>('/content/stages/*.md', { eager: true, import: 'default' });
const NOTE_FILES = import.meta.glob<MarkdownDoc>('/content/notes/*.md', { eager: true, import: 'default' });

const notes = readersByName(NOTE_FILES);

function sideNote(id: string, from: string): SideNote {
  const note = notes.get(id);
  if (!note) throw new Error(`${from} names the side note "${id}", which has no file content/notes/${id}.md`);
  // The Go stage a note links to is named by its id; its number is its place in go/index.ts.
  const goId = note.optionalString('goStage');
  const goStage = goId === undefined ? -1 : GO_TRACK.findIndex((stage) => stage.id === goId);
  if (goId !== undefined && goStage < 0) throw new Error(`content/notes/${id}.md: goStage is "${goId}", which go/index.ts does not list`);
  return { title: note.string('title'), text: note.intro(), ...(goStage >= 0 ? { goStage } : {}) };
}

/** What to read the stage's profile for: `profile:` in the front matter, `# Inlining` and `# Profile note` below. */
function profileOf(file: ContentReader): ProfileFacts {
  const profile: ProfileFacts = { changes: file.list('profile.changes'), watch: file.list('profile.watch') };
  if (file.value('profile.changesWasm') === true) profile.changesWasm = true;
  const size = file.value('profile.size');
  if (typeof size === 'number') profile.size = size;
  const says = file.optionalPart('inlining');
  if (says) profile.inlining = { callee: file.string('profile.inlining.callee'), caller: file.string('profile.inlining.caller'), says };
  const note = file.optionalText('profile note');
  if (note !== undefined) profile.note = note;
  return profile;
}

/** `v8Why:` in the front matter (the row it marks, and `same: true` when the point is that it does not move) and its sentence under `# What V8 reports {#v8-why}`. */
function v8WhyOf(file: ContentReader): V8Why {
  const says = file.text('v8-why');
  if (says.includes('\n\n')) throw new Error(`${file.file}: "What V8 reports" is one paragraph, the sentence that backs the why`);
  const why: V8Why = { says };
  const row = file.optionalString('v8Why.row');
  if (row !== undefined) {
    if (!(FIGURE_ROWS as readonly string[]).includes(row)) throw new Error(`${file.file}: v8Why.row is "${row}", not a row of V8's table (${FIGURE_ROWS.join(', ')})`);
    why.row = row as FigureRow;
  }
  const same = file.value('v8Why.same');
  if (same !== undefined && same !== true) throw new Error(`${file.file}: v8Why.same is true or left out`);
  if (same === true) why.same = true;
  return why;
}

function storyOf(file: ContentReader): Omit<StageStory, 'v8Why'> {
  const story: Omit<StageStory, 'v8Why'> = {
    change: file.part('change'),
    why: file.part('why'),
    cost: file.part('cost'),
    profile: profileOf(file),
    ask: askOf(file),
  };
  const tryIt = file.block('try')?.items;
  if (tryIt?.length) story.tryIt = tryIt;
  const headline = file.optionalString('article.headline');
  if (headline !== undefined) {
    const vsWasm = file.optionalString('article.vsWasm');
    story.article = { headline, relativeTo: file.string('article.relativeTo'), ...(vsWasm !== undefined ? { vsWasm } : {}) };
  }
  const past = file.optionalString('pastArticle.headline');
  if (past !== undefined) {
    story.pastArticle = {
      headline: past,
      relativeTo: file.string('pastArticle.relativeTo'),
      native: { figure: file.string('pastArticle.native.figure'), where: file.string('pastArticle.native.where') },
      rust: file.text('rust'),
    };
  }
  const caution = file.optionalPart('caution');
  if (caution) story.caution = caution;
  if (file.value('cautionAfter') === true) story.cautionAfter = true;
  const beyond = file.optionalPart('beyond');
  if (beyond) {
    const steps = file.block('beyond')!.items;
    story.beyond = steps.length ? { ...beyond, steps } : beyond;
  }
  const tried = file.optionalPart('tried');
  if (tried) story.tried = tried;
  const go = file.value('go');
  if (Array.isArray(go)) story.go = go.map((id) => sideNote(id, file.file));
  const elsewhere = file.optionalText('elsewhere');
  if (elsewhere !== undefined) story.elsewhere = elsewhere;
  return story;
}

/** Every string of a story with its `{placeholders}` filled; a placeholder without a figure is an error. */
function filled<T>(value: T, figures: Record<string, string | number>, file: string): T {
  if (typeof value === 'string') return fill(value, figures, file) as T;
  if (Array.isArray(value)) return value.map((item) => filled(item, figures, file)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, filled(item, figures, file)])) as T;
  return value;
}

const FIGURES = { ...storyFigures(), ...engineFigures(), ...profileFigures() };
const stories = readersByName(STAGE_FILES);

/** One story per registered stage, in the lesson's order. */
export const STORIES: StageStory[] = STAGES.map((stage) => {
  const file = stories.get(stage.id);
  if (!file) throw new Error(`stage ${stage.id} has no story: write content/stages/${stage.id}.md`);
  return { ...filled(storyOf(file), { ...FIGURES, ...articleFigures(stage.articleSpeedup) }, file.file), v8Why: v8WhyOf(file) };
});
