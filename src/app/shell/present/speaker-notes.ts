// Speaker notes. A stage's are part of its story, in content/stages/<id>.md (a Go stage's
// in content/go/<id>.md), under "# Speaker notes: <words> {#notes}"; a part of its page
// may have its own under "## Part 2: <words> {#notes-2}". The pages that are not a
// stage's (the introduction, "How we measure", "Every engine") keep theirs in
// content/speaker-notes.md, one section per slide: {#intro-3}, {#measure}, {#measure-2}.
// A note is found by its slide's page and part; a part without its own note shows its
// page's. The notes are read at build time like the lesson's other prose, and every
// section must name a slide that exists, so a typo fails the tests instead of leaving a
// note nowhere.
import type { MarkdownDoc, Section } from '../../../core/content/markdown.ts';
import { readersByName, type ContentReader } from '../../ui/lesson/content.ts';
import { proseSegments } from '../../ui/lesson/inline.ts';
import type { Route } from '../../ui/nav/routes.ts';
import { STAGES } from '../../../../steps/index.ts';
import { GO_TRACK } from '../../../../go/index.ts';

export interface SpeakerNote {
  heading: string;
  items: string[];
}

/**
 * The page's part of a note's name: "stage/09-simd-wasm", "go/04-memclr", "intro",
 * "measure"; null for a page that has no notes (the bench, results).
 */
export function notePage(route: Route): string | null {
  switch (route.page) {
    case 'intro':
      return 'intro';
    case 'stage': {
      const stage = STAGES[route.index];
      return stage ? `stage/${stage.id}` : null;
    }
    case 'go': {
      const stage = GO_TRACK[route.index];
      return stage ? `go/${stage.id}` : null;
    }
    case 'measure':
    case 'engines':
      return route.page;
    default:
      return null;
  }
}

/** The names a note may have, most particular first: "stage/09-simd-wasm/2", then "stage/09-simd-wasm". The intro's parts are all numbered. */
export function noteNames(route: Route, part: number): string[] {
  const page = notePage(route);
  if (page === null) return [];
  return page === 'intro' ? [`intro/${part}`] : [`${page}/${part}`, page];
}

/** The pages whose notes are in content/speaker-notes.md. */
const SHARED_PAGES = ['intro', 'measure', 'engines'];

/** A section as a note: a list of "- " items, each with marks the slide can show. */
function noteOf(section: Section, heading: string, file: string): SpeakerNote {
  if (section.paragraphs.length || !section.items.length) throw new Error(`${file}: "${section.heading}": a note is a list of "- " items`);
  for (const item of section.items) proseSegments(item); // refuses a broken mark now, not on the projector
  return { heading, items: section.items };
}

/** Reads content/speaker-notes.md into notes by name; throws on a note that names no slide or is not a list. */
export function readNotes(doc: MarkdownDoc, file: string): Map<string, SpeakerNote> {
  const notes = new Map<string, SpeakerNote>();
  for (const [name, section] of Object.entries(doc.sections)) {
    const slide = /^([a-z]+)(?:-(\d{1,2}))?$/.exec(name);
    if (!slide || !SHARED_PAGES.includes(slide[1]) || name === 'intro') {
      const where = /^(stage|go)-\d/.test(name) ? ` (a stage's notes are in its own file, under "# Speaker notes: … {#notes}")` : '';
      throw new Error(`${file}: "${section.heading}" is {#${name}}, which names no slide${where}`);
    }
    notes.set(slide[2] ? `${slide[1]}/${slide[2]}` : slide[1], noteOf(section, section.heading, file));
  }
  return notes;
}

/**
 * Reads a stage's notes from its story: "# Speaker notes: <words> {#notes}", shown as
 * "<label>: <words>", and "## Part 2: <words> {#notes-2}" for a part with a note of its
 * own, shown as "<label>, part 2: <words>". `page` is the notes' page name
 * ("stage/03-inline-round"), `label` the slide's name with its number from the registry
 * ("Stage 3").
 */
export function readStageNotes(doc: MarkdownDoc, file: string, page: string, label: string): Map<string, SpeakerNote> {
  const notes = new Map<string, SpeakerNote>();
  for (const [name, section] of Object.entries(doc.sections)) {
    if (name === 'notes') {
      const words = /^Speaker notes: (\S.*)$/.exec(section.heading);
      if (!words || section.level !== 1) throw new Error(`${file}: a stage's notes are "# Speaker notes: <what the slide is> {#notes}", not "${section.heading}"`);
      notes.set(page, noteOf(section, `${label}: ${words[1]}`, file));
    } else if (name.startsWith('notes-')) {
      const part = /^notes-(\d{1,2})$/.exec(name)?.[1];
      const words = /^Part (\d{1,2}): (\S.*)$/.exec(section.heading);
      if (part === undefined || !words || words[1] !== part || section.level !== 2) {
        throw new Error(`${file}: "${section.heading}" is {#${name}}: a part's note is "## Part 2: <words> {#notes-2}", under "# Speaker notes"`);
      }
      notes.set(`${page}/${part}`, noteOf(section, `${label}, part ${part}: ${words[2]}`, file));
    }
  }
  return notes;
}

function storyOf(files: Map<string, ContentReader>, id: string, folder: string): ContentReader {
  const file = files.get(id);
  if (!file) throw new Error(`the stage ${id} has no story, content/${folder}/${id}.md, for its speaker notes`);
  return file;
}

/** Every note of the lesson by name: the shared file's, then each stage's and each Go stage's, read from their stories by id. */
export function allNotes(shared: ContentReader, stories: Map<string, ContentReader>, goStories: Map<string, ContentReader>): Map<string, SpeakerNote> {
  const notes = new Map(readNotes(shared.doc, shared.file));
  for (const stage of STAGES) {
    const file = storyOf(stories, stage.id, 'stages');
    for (const [name, note] of readStageNotes(file.doc, file.file, `stage/${stage.id}`, `Stage ${stage.index}`)) notes.set(name, note);
  }
  for (const stage of GO_TRACK) {
    const file = storyOf(goStories, stage.id, 'go');
    for (const [name, note] of readStageNotes(file.doc, file.file, `go/${stage.id}`, `Go stage ${stage.index}`)) notes.set(name, note);
  }
  return notes;
}

const shared = readersByName(import.meta.glob<MarkdownDoc>('/content/speaker-notes.md', { eager: true, import: 'default' })).get('speaker-notes');
if (!shared) throw new Error('presenter mode reads the notes of the introduction and the other pages from content/speaker-notes.md, which is missing');

export const NOTES = allNotes(
  shared,
  readersByName(import.meta.glob<MarkdownDoc>('/content/stages/*.md', { eager: true, import: 'default' })),
  readersByName(import.meta.glob<MarkdownDoc>('/content/go/*.md', { eager: true, import: 'default' })),
);

/** The note for a slide: the part's own, else its page's; null when there is none. */
export function noteFor(route: Route, part: number, notes = NOTES): SpeakerNote | null {
  for (const name of noteNames(route, part)) {
    const note = notes.get(name);
    if (note) return note;
  }
  return null;
}
