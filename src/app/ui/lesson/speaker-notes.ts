// Speaker notes: content/speaker-notes.md, one section per slide, found by a name made
// from the slide's address and part ("stage-9", "intro-3", "go-2"). A page shown in parts
// may have a note per part ("stage-9-2"); a part without one shows its page's note. The
// notes are read at build time like the lesson's other prose, and every section must name
// a slide that exists, so a typo fails the tests instead of leaving a note nowhere.
import type { MarkdownDoc } from '../../../core/content/markdown.ts';
import { readersByName } from './content.ts';
import { proseSegments } from './inline.ts';
import type { Route } from '../nav/routes.ts';
import { STAGES } from '../../../../steps/index.ts';
import { GO_TRACK } from '../../../../go/index.ts';

export interface SpeakerNote {
  heading: string;
  items: string[];
}

/** The page's part of a note's name: null for a page that has no notes (the bench, results). */
export function notePage(route: Route): string | null {
  switch (route.page) {
    case 'intro':
      return 'intro';
    case 'stage':
      return `stage-${route.index}`;
    case 'go':
      return `go-${route.index}`;
    case 'measure':
    case 'engines':
      return route.page;
    default:
      return null;
  }
}

/** The names a note may have, most particular first: "stage-9-2", then "stage-9". The intro's parts are all numbered. */
export function noteNames(route: Route, part: number): string[] {
  const page = notePage(route);
  if (page === null) return [];
  return page === 'intro' ? [`intro-${part}`] : [`${page}-${part}`, page];
}

/** Every page name a note may start with. */
export function notePages(): string[] {
  return ['intro', ...STAGES.map((s) => `stage-${s.index}`), 'measure', 'engines', ...GO_TRACK.map((s) => `go-${s.index}`)];
}

/** Reads the notes file into notes by name; throws on a note that names no slide or is not a list. */
export function readNotes(doc: MarkdownDoc, file: string): Map<string, SpeakerNote> {
  const pages = notePages();
  const notes = new Map<string, SpeakerNote>();
  for (const [name, section] of Object.entries(doc.sections)) {
    const page = pages.find((p) => name === p || new RegExp(`^${p}-\\d{1,2}$`).test(name));
    if (page === undefined || name === 'intro') throw new Error(`${file}: "${section.heading}" is {#${name}}, which names no slide`);
    if (section.paragraphs.length || !section.items.length) throw new Error(`${file}: "${section.heading}": a note is a list of "- " items`);
    for (const item of section.items) proseSegments(item); // refuses a broken mark now, not on the projector
    notes.set(name, { heading: section.heading, items: section.items });
  }
  return notes;
}

const files = readersByName(import.meta.glob<MarkdownDoc>('/content/speaker-notes.md', { eager: true, import: 'default' }));
const file = files.get('speaker-notes');
if (!file) throw new Error('presenter mode reads its notes from content/speaker-notes.md, which is missing');

export const NOTES = readNotes(file.doc, file.file);

/** The note for a slide: the part's own, else its page's; null when there is none. */
export function noteFor(route: Route, part: number, notes = NOTES): SpeakerNote | null {
  for (const name of noteNames(route, part)) {
    const note = notes.get(name);
    if (note) return note;
  }
  return null;
}
