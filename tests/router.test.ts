import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { edgeStageRoute, parseRoute, routeHref, stepRoute, type Route } from '../src/app/ui/nav/routes.ts';
import { keyAction, type KeyContext } from '../src/app/shell/keyboard.ts';
import { STAGES } from '../steps/index.ts';

const LAST = STAGES.length - 1;

describe('parseRoute', () => {
  it('reads every page of the app', () => {
    expect(parseRoute('')).toEqual({ page: 'intro' });
    expect(parseRoute('#/')).toEqual({ page: 'intro' });
    expect(parseRoute('#/stage/0')).toEqual({ page: 'stage', index: 0, view: 'story' });
    expect(parseRoute(`#/stage/${LAST}`)).toEqual({ page: 'stage', index: LAST, view: 'story' });
    expect(parseRoute('#/stage/4/code')).toEqual({ page: 'stage', index: 4, view: 'code' });
    expect(parseRoute('#/stage/4/code/compress.ts')).toEqual({ page: 'stage', index: 4, view: 'code', file: 'compress.ts' });
    expect(parseRoute('#/measure')).toEqual({ page: 'measure' });
    expect(parseRoute('#/engines')).toEqual({ page: 'engines' });
    expect(parseRoute('#/bench')).toEqual({ page: 'bench' });
    expect(parseRoute('#/results')).toEqual({ page: 'results' });
    expect(parseRoute('#/compare')).toEqual({ page: 'compare' });
    expect(parseRoute('#/file')).toEqual({ page: 'file' });
    expect(parseRoute('#/teach')).toEqual({ page: 'teach' });
  });

  it('forgives a trailing slash and a missing leading one', () => {
    expect(parseRoute('#/stage/3/')).toEqual({ page: 'stage', index: 3, view: 'story' });
    expect(parseRoute('#stage/3')).toEqual({ page: 'stage', index: 3, view: 'story' });
    expect(parseRoute('#/results/')).toEqual({ page: 'results' });
  });

  it('passes a share payload on untouched, slashes and all', () => {
    expect(parseRoute('#/share/v1.AbC-_x')).toEqual({ page: 'share', payload: 'v1.AbC-_x' });
    expect(parseRoute('#/share/a/b')).toEqual({ page: 'share', payload: 'a/b' });
  });

  it.each([
    ['#/nope', 'no page called "nope"'],
    ['#/stage', 'needs a stage number'],
    ['#/stage/x', 'needs a stage number'],
    ['#/stage/-1', 'needs a stage number'],
    ['#/stage/1.5', 'needs a stage number'],
    [`#/stage/${LAST + 1}`, `numbered 0 to ${LAST}`],
    ['#/stage/2/diff', 'is neither'],
    ['#/stage/2/code/a/b', 'is neither'],
    ['#/stage/2/code/a b.ts', 'not a file name'],
    ['#/share/', 'empty'],
    // The alphabet is named, and a 0 or 1 typed for O or I says why it cannot be a code.
    ['#/class/ABC123', 'codes never use 0, 1, I or O'],
    ['#/class/ABCO23', 'codes never use 0, 1, I or O'],
    ['#/class/ABC2345', 'the letters A to Z and the digits 2 to 9 (never 0, 1, I or O)'],
  ])('%s is "no such page", with a reason', (hash, reason) => {
    const route = parseRoute(hash);
    expect(route.page).toBe('not-found');
    if (route.page === 'not-found') expect(route.reason).toContain(reason);
  });

  it('rejects file names that could leave the stage folder', () => {
    expect(parseRoute('#/stage/2/code/%2e%2e%2findex.ts').page).toBe('not-found');
  });

  it('routeHref is the inverse of parseRoute', () => {
    const routes: Route[] = [
      { page: 'intro' },
      { page: 'stage', index: 7, view: 'story' },
      { page: 'stage', index: 9, view: 'code' },
      { page: 'stage', index: 4, view: 'code', file: 'gen.ts' },
      { page: 'measure' },
      { page: 'bench' },
      { page: 'results' },
      { page: 'compare' },
      { page: 'file' },
      { page: 'teach' },
      { page: 'share', payload: 'abc' },
    ];
    for (const route of routes) expect(parseRoute(routeHref(route))).toEqual(route);
  });
});

describe('stepping through the story', () => {
  const files = [['s/00/blake3.ts'], ['s/01/blake3.ts', 's/01/compress.ts'], ['s/02/blake3.ts']];

  it('walks intro, every stage, then "how we measure", and stops at both ends; "every engine" leads back', () => {
    const seen: string[] = [];
    let route: Route | null = { page: 'intro' };
    while (route) {
      seen.push(routeHref(route));
      route = stepRoute(route, 1, files);
    }
    expect(seen).toEqual(['#/', '#/stage/0', '#/stage/1', '#/stage/2', '#/measure']);
    expect(stepRoute({ page: 'engines' }, 1, files)).toBeNull();
    expect(stepRoute({ page: 'engines' }, -1, files)).toEqual({ page: 'measure' });
    expect(stepRoute({ page: 'intro' }, -1, files)).toBeNull();
  });

  it('keeps the code view, and the file when the next stage has it', () => {
    const here: Route = { page: 'stage', index: 1, view: 'code', file: 'compress.ts' };
    expect(stepRoute(here, -1, files)).toEqual({ page: 'stage', index: 0, view: 'code', file: undefined });
    expect(stepRoute({ ...here, index: 0, file: 'blake3.ts' }, 1, files)).toEqual({ ...here, file: 'blake3.ts' });
  });

  it('does not step from pages outside the story', () => {
    expect(stepRoute({ page: 'bench' }, 1, files)).toBeNull();
    expect(stepRoute({ page: 'share', payload: 'x' }, -1, files)).toBeNull();
  });

  it('Home and End go to the first and last stage', () => {
    expect(edgeStageRoute({ page: 'intro' }, 'first')).toEqual({ page: 'stage', index: 0, view: 'story' });
    expect(edgeStageRoute({ page: 'stage', index: 3, view: 'code', file: 'x.ts' }, 'last')).toEqual({ page: 'stage', index: LAST, view: 'code' });
  });
});

describe('keyAction', () => {
  const base: KeyContext = { key: '', altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, typing: false, onStory: true, presenter: false };
  const act = (over: Partial<KeyContext>) => keyAction({ ...base, ...over });

  it('maps the story keys', () => {
    expect(act({ key: 'ArrowLeft' })).toBe('prev');
    expect(act({ key: 'ArrowRight' })).toBe('next');
    expect(act({ key: 'Home' })).toBe('first');
    expect(act({ key: 'End' })).toBe('last');
    expect(act({ key: 'p' })).toBe('toggle-presenter');
    expect(act({ key: 'c' })).toBe('toggle-code');
  });

  it('leaves keys alone while typing, with modifiers, or off the story', () => {
    expect(act({ key: 'ArrowRight', typing: true })).toBeNull();
    expect(act({ key: 'p', typing: true })).toBeNull();
    expect(act({ key: 'ArrowLeft', altKey: true })).toBeNull(); // the browser's Back
    expect(act({ key: 'Home', ctrlKey: true })).toBeNull();
    expect(act({ key: 'ArrowRight', onStory: false })).toBeNull();
    expect(act({ key: 'c', onStory: false })).toBeNull();
    expect(act({ key: 'p', onStory: false })).toBe('toggle-presenter');
  });

  it('gives clickers (PageUp/PageDown) and Escape their meaning only in presenter mode', () => {
    expect(act({ key: 'PageDown' })).toBeNull();
    expect(act({ key: 'PageDown', presenter: true })).toBe('next');
    expect(act({ key: 'PageUp', presenter: true })).toBe('prev');
    expect(act({ key: 'Escape' })).toBeNull();
    expect(act({ key: 'Escape', presenter: true })).toBe('exit-presenter');
  });
});

describe('the bench for one step', () => {
  it('reads #/bench/step/N and writes it back; refuses a stage that does not exist', () => {
    expect(parseRoute('#/bench/step/9')).toEqual({ page: 'bench', step: 9 });
    expect(routeHref({ page: 'bench', step: 9 })).toBe('#/bench/step/9');
    expect(routeHref({ page: 'bench' })).toBe('#/bench');
    expect(parseRoute('#/bench')).toEqual({ page: 'bench' });
    for (const hash of [`#/bench/step/${STAGES.length}`, '#/bench/step/x', '#/bench/step', '#/bench/nine/9']) {
      expect(parseRoute(hash).page, hash).toBe('not-found');
    }
  });
});

/** Lines of a source file that are code, not comments. */
const codeLines = (text: string) => text.split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*\*|<!--)/.test(line));

/** A link typed by hand: href="#/…", or a string or template that starts with "#/". */
const HAND_TYPED = /href="#\/|['"`]#\/[\w$]/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|svelte)$/.test(name))
    .map((name) => join(dir, name));
}

describe('links', () => {
  it('recognises a hand-typed link (the check itself works)', () => {
    expect(codeLines('<a href="#/bench">x</a>\n// see "#/bench"').filter((line) => HAND_TYPED.test(line))).toEqual(['<a href="#/bench">x</a>']);
    expect(HAND_TYPED.test("location.hash = '#/compare';")).toBe(true);
    expect(HAND_TYPED.test('href={routeHref({ page: "compare" })}')).toBe(false);
  });

  it('are built with routeHref everywhere: only the router and the share format spell an address', () => {
    const owners = new Set(['src/app/ui/nav/routes.ts', 'src/core/results/io/links.ts']);
    const typed = sourceFiles('src')
      .filter((file) => !owners.has(file))
      .flatMap((file) => codeLines(readFileSync(file, 'utf8')).filter((line) => HAND_TYPED.test(line)).map((line) => `${file}: ${line.trim()}`));
    expect(typed).toEqual([]);
  });
});
