// The story of each stage, told for a reader who has the diff open beside it. The words
// are in content/stages/<stage id>.md, one file per stage, and the Go side notes in
// content/notes/; this reads them into StageStory, whose fields the front matter and
// the sections fill. Text in `backticks` is shown as code. Each part has a `lead` (its
// first paragraph: one sentence, all that presenter mode shows on the projector) and
// `more` (the rest, for a student reading alone).

import { STAGES } from '../../../steps/index.ts';
import type { MarkdownDoc } from '../../core/content/markdown.ts';
import { readersByName, type ContentReader } from '../ui/content.ts';
import type { SideNote, StageStory } from '../ui/story-types.ts';

const STAGE_FILES = import.meta.glob<MarkdownDoc>('/content/stages/*.md', { eager: true, import: 'default' });
const NOTE_FILES = import.meta.glob<MarkdownDoc>('/content/notes/*.md', { eager: true, import: 'default' });

const notes = readersByName(NOTE_FILES);

function sideNote(id: string, from: string): SideNote {
  const note = notes.get(id);
  if (!note) throw new Error(`${from} names the side note "${id}", which has no file content/notes/${id}.md`);
  const goStage = note.value('goStage');
  return { title: note.string('title'), text: note.intro(), ...(typeof goStage === 'number' ? { goStage } : {}) };
}

function storyOf(file: ContentReader): StageStory {
  const story: StageStory = { change: file.part('change'), why: file.part('why'), cost: file.part('cost') };
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

const stories = readersByName(STAGE_FILES);

/** One story per registered stage, in the lesson's order. */
export const STORIES: StageStory[] = STAGES.map((stage) => {
  const file = stories.get(stage.id);
  if (!file) throw new Error(`stage ${stage.id} has no story: write content/stages/${stage.id}.md`);
  return storyOf(file);
});
