// Speaker notes (content/speaker-notes.md): every slide of the story and the Go track has
// one, a note names only slides that exist, and what the notes window accepts from
// another window is checked.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseMarkdown } from '../src/core/content/markdown.ts';
import { STAGES } from '../steps/index.ts';
import { GO_TRACK } from '../go/index.ts';
import { keyAction } from '../src/app/shell/keyboard.ts';

// speaker-notes.ts reads its file through Vite's import.meta.glob; here the same file is parsed directly.
const { readNotes, noteFor, noteNames } = await import('../src/app/ui/lesson/speaker-notes.ts');
const { readSlideMessage, formatElapsed } = await import('../src/app/ui/present/notes.svelte.ts');

const doc = parseMarkdown(readFileSync(new URL('../content/speaker-notes.md', import.meta.url), 'utf8'), 'content/speaker-notes.md');
const notes = readNotes(doc, 'content/speaker-notes.md');

describe('speaker notes', () => {
  it('has a note for every stage, every Go stage, each part of the introduction and "How we measure"', () => {
    for (const stage of STAGES) expect(noteFor({ page: 'stage', index: stage.index, view: 'story' }, 1, notes), `stage ${stage.index}`).not.toBeNull();
    for (const stage of GO_TRACK) expect(noteFor({ page: 'go', index: stage.index, view: 'story' }, 2, notes), `Go stage ${stage.index}`).not.toBeNull();
    for (let part = 1; part <= 7; part++) expect(noteFor({ page: 'intro' }, part, notes), `intro part ${part}`).not.toBeNull();
    expect(noteFor({ page: 'measure' }, 3, notes)).not.toBeNull();
    expect(noteFor({ page: 'bench' }, 1, notes)).toBeNull();
  });

  it("prefers a part's own note, then its page's", () => {
    const own = { heading: 'part two', items: ['x'] };
    const page = { heading: 'page', items: ['y'] };
    const mine = new Map([['stage-9-2', own], ['stage-9', page]]);
    expect(noteNames({ page: 'stage', index: 9, view: 'code' }, 2)).toEqual(['stage-9-2', 'stage-9']);
    expect(noteFor({ page: 'stage', index: 9, view: 'story' }, 2, mine)).toBe(own);
    expect(noteFor({ page: 'stage', index: 9, view: 'story' }, 3, mine)).toBe(page);
  });

  it('refuses a note that names no slide, or is not a list', () => {
    const read = (text: string) => () => readNotes(parseMarkdown(text, 'notes.md'), 'notes.md');
    expect(read('# Stage 40 {#stage-40}\n\n- words\n')).toThrow(/names no slide/);
    expect(read('# Bench {#bench}\n\n- words\n')).toThrow(/names no slide/);
    expect(read('# Stage 2 {#stage-2}\n\nA paragraph.\n')).toThrow(/list of "- " items/);
    expect(read('# Stage 2 {#stage-2}\n\n- fine\n')).not.toThrow();
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
