// Speaker notes (a stage's in its own story, content/stages/<id>.md and content/go/<id>.md;
// the other pages' in content/speaker-notes.md): every slide of the story and the Go track
// has one, a note names only slides that exist, and what the notes window accepts from
// another window is checked.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseMarkdown } from '../src/core/content/markdown.ts';
import { ContentReader } from '../src/app/ui/lesson/content.ts';
import { STAGES } from '../steps/index.ts';
import { GO_TRACK } from '../go/index.ts';
import { keyAction } from '../src/app/shell/keyboard.ts';

// speaker-notes.ts reads its files through Vite's import.meta.glob; here the same files are parsed directly.
const { allNotes, readNotes, readStageNotes, noteFor, noteNames, NOTES } = await import('../src/app/shell/present/speaker-notes.ts');
const { readSlideMessage, formatElapsed } = await import('../src/app/shell/present/notes.svelte.ts');

const reader = (path: string) => new ContentReader(parseMarkdown(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'), path), path);
const stories = (folder: string, ids: string[]) => new Map(ids.map((id) => [id, reader(`content/${folder}/${id}.md`)]));
const notes = allNotes(
  reader('content/speaker-notes.md'),
  stories('stages', STAGES.map((s) => s.id)),
  stories('go', GO_TRACK.map((s) => s.id)),
);

describe('speaker notes', () => {
  it('has a note for every stage, every Go stage, each part of the introduction and "How we measure"', () => {
    for (const stage of STAGES) expect(noteFor({ page: 'stage', index: stage.index, view: 'story' }, 1, notes), `stage ${stage.index}`).not.toBeNull();
    for (const stage of GO_TRACK) expect(noteFor({ page: 'go', index: stage.index, view: 'story' }, 2, notes), `Go stage ${stage.index}`).not.toBeNull();
    for (let part = 1; part <= 7; part++) expect(noteFor({ page: 'intro' }, part, notes), `intro part ${part}`).not.toBeNull();
    expect(noteFor({ page: 'measure' }, 3, notes)).not.toBeNull();
    expect(noteFor({ page: 'bench' }, 1, notes)).toBeNull();
    expect(NOTES, 'the app reads the same notes').toEqual(notes);
  });

  it("heads a stage's note with its number from the registry and the words of its story's heading", () => {
    expect(noteFor({ page: 'stage', index: 3, view: 'story' }, 1, notes)?.heading).toBe('Stage 3: inline the round');
    expect(noteFor({ page: 'go', index: 4, view: 'story' }, 1, notes)?.heading).toBe('Go stage 4: clearing memory');
    expect(noteFor({ page: 'intro' }, 2, notes)?.heading).toBe('BLAKE3 in five minutes');
  });

  it("prefers a part's own note, then its page's", () => {
    const own = { heading: 'part two', items: ['x'] };
    const page = { heading: 'page', items: ['y'] };
    const id = STAGES[9].id;
    const mine = new Map([[`stage/${id}/2`, own], [`stage/${id}`, page]]);
    expect(noteNames({ page: 'stage', index: 9, view: 'code' }, 2)).toEqual([`stage/${id}/2`, `stage/${id}`]);
    expect(noteFor({ page: 'stage', index: 9, view: 'story' }, 2, mine)).toBe(own);
    expect(noteFor({ page: 'stage', index: 9, view: 'story' }, 3, mine)).toBe(page);
  });

  it('refuses a note that names no slide, or is not a list', () => {
    const read = (text: string) => () => readNotes(parseMarkdown(text, 'notes.md'), 'notes.md');
    expect(read('# Stage 40 {#stage-40}\n\n- words\n')).toThrow(/names no slide/);
    expect(read('# Bench {#bench}\n\n- words\n')).toThrow(/names no slide/);
    expect(read('# Stage 2 {#stage-2}\n\n- words\n')).toThrow(/names no slide \(a stage's notes are in its own file/);
    expect(read('# How we measure {#measure}\n\nA paragraph.\n')).toThrow(/list of "- " items/);
    expect(read('# How we measure {#measure}\n\n- fine\n\n## Its second part {#measure-2}\n\n- fine\n')).not.toThrow();

    const story = (text: string) => () => readStageNotes(parseMarkdown(text, 'stage.md'), 'stage.md', 'stage/02-x', 'Stage 2');
    expect(story('# Speaker notes {#notes}\n\n- words\n')).toThrow(/"# Speaker notes: <what the slide is> \{#notes\}"/);
    expect(story('# Speaker notes: the step {#notes}\n\nA paragraph.\n')).toThrow(/list of "- " items/);
    expect(story('# Speaker notes: the step {#notes}\n\n- fine\n\n## Part 2: more {#notes-3}\n\n- words\n')).toThrow(/a part's note is "## Part 2/);
    expect(story('# Speaker notes: the step {#notes}\n\n- fine\n\n## Part 2: more {#notes-two}\n\n- words\n')).toThrow(/a part's note is "## Part 2/);
    expect(story('# Speaker notes: the step {#notes}\n\n- fine\n\n## Part 2: more {#notes-2}\n\n- then\n')()).toEqual(
      new Map([
        ['stage/02-x', { heading: 'Stage 2: the step', items: ['fine'] }],
        ['stage/02-x/2', { heading: 'Stage 2, part 2: more', items: ['then'] }],
      ]),
    );
  });

  it('takes only well-formed messages from another window', () => {
    expect(readSlideMessage({ kind: 'slide', hash: '#/stage/3', part: 1, parts: 4 })).toEqual({ kind: 'slide', hash: '#/stage/3', part: 1, parts: 4 });
    expect(readSlideMessage({ kind: 'step', direction: 1 })).toEqual({ kind: 'step', direction: 1 });
    expect(readSlideMessage({ kind: 'step', direction: 5 })).toBeNull();
    expect(readSlideMessage({ kind: 'slide', hash: 'javascript:alert(1)', part: 1, parts: 1 })).toBeNull();
    expect(readSlideMessage({ kind: 'slide', hash: '#/stage/3', part: -1, parts: 1 })).toBeNull();
    expect(readSlideMessage('where')).toBeNull();
    expect(readSlideMessage(null)).toBeNull();
  });

  it('shows the time as m:ss, then h:mm:ss', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(65_400)).toBe('1:05');
    expect(formatElapsed(3_725_000)).toBe('1:02:05');
  });

  it('toggles with N in presenter mode only', () => {
    const key = (k: string, presenter: boolean) => keyAction({ key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, typing: false, onStory: true, presenter });
    expect(key('n', true)).toBe('toggle-notes');
    expect(key('N', true)).toBe('toggle-notes');
    expect(key('n', false)).toBeNull();
  });
});
