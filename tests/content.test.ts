// The lesson's prose is content (content/**/*.md, read at build time), not string
// literals in code: the reader refuses what the content does not use, every file belongs
// to a stage, a note something names or a page that reads it (and shows all of it), and
// no .ts file holds a long prose literal.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../src/core/content/markdown.ts';
import { STORIES } from '../src/app/story/narrative.ts';
import { INTRO, introFigures } from '../src/app/story/intro-prose.ts';
import { HOLM_FAMILY, MEASURE, measureFigures } from '../src/app/story/measure-prose.ts';
import { ENGINES_PAGE } from '../src/app/story/engines-prose.ts';
import { PAGE_LINKS, PageFile } from '../src/app/story/page-prose.ts';
import { ContentReader } from '../src/app/ui/lesson/content.ts';
import { proseSegments } from '../src/app/ui/lesson/inline.ts';
import { DEFAULT_ROUNDS, WARMUP_MS } from '../src/core/bench/plan.ts';
import { GO_STAGES } from '../src/app/go/stages.ts';
import { STAGES } from '../steps/index.ts';
import { GO_TRACK } from '../go/index.ts';

/** The longest string a .ts file may hold: past this, prose belongs in content/. */
const MAX_LITERAL = 300;
/** Long strings that are not prose, by file: why each is code. */
const NOT_PROSE: Record<string, string> = { 'server/store.ts': 'the database schema, in SQL' };

/** Every string and template literal in a TypeScript file longer than `max`, as "file:line (length)". */
export function longLiterals(file: string, text: string, max = MAX_LITERAL): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let length = -1;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) length = node.text.length;
    else if (ts.isTemplateExpression(node)) length = node.head.text.length + node.templateSpans.reduce((sum, span) => sum + span.literal.text.length, 0);
    if (length > max) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} (${length})`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.includes('node_modules'))
    .map((name) => join(dir, name));

describe('content', () => {
  it('reads front matter, headings, paragraphs and lists, and refuses the rest with its line', () => {
    const doc = parseMarkdown('---\narticle:\n  headline: "1.6×"\n  relativeTo: the stage before\ncautionAfter: true\ngo: [go-bounds, go-inlining]\n---\n\nIntro.\n\n# Why\n\nThe lead,\non two lines.\n\nMore.\n\n- one\n- two\n', 'x.md');
    expect(doc.meta).toEqual({ article: { headline: '1.6×', relativeTo: 'the stage before' }, cautionAfter: true, go: ['go-bounds', 'go-inlining'] });
    expect(doc.intro).toEqual({ paragraphs: ['Intro.'], items: [] });
    expect(doc.sections.why).toEqual({ heading: 'Why', level: 1, paragraphs: ['The lead, on two lines.', 'More.'], items: ['one', 'two'] });
    expect(() => parseMarkdown('# A\n\n<b>bold</b>\n', 'x.md')).toThrow('x.md:3: lists start with "- ", and content holds no HTML');
    expect(() => parseMarkdown('### Sub\n', 'x.md')).toThrow('x.md:1: a heading is "# Words" or "## Words"');
    expect(() => parseMarkdown('# A\n# A\n', 'x.md')).toThrow('x.md:2: the heading "A" is used twice');
    expect(() => parseMarkdown('---\na:\n   b: 1\n---\n', 'x.md')).toThrow('x.md:3: nested keys are indented by two spaces');
    expect(() => parseMarkdown('---\na b\n---\n', 'x.md')).toThrow('x.md:2: front matter reads "key: value"');
  });

  it('reads a `## ` sub-heading, and a heading\'s {#name}, which the words may change around', () => {
    const doc = parseMarkdown('# BLAKE3 in five minutes {#blake3}\n\nIdeas.\n\n## 1. Chunks {#chunks}\n\nBytes.\n\n## Plain words\n', 'x.md');
    expect(doc.sections).toEqual({
      blake3: { heading: 'BLAKE3 in five minutes', level: 1, paragraphs: ['Ideas.'], items: [] },
      chunks: { heading: '1. Chunks', level: 2, paragraphs: ['Bytes.'], items: [] },
      'plain words': { heading: 'Plain words', level: 2, paragraphs: [], items: [] },
    });
    expect(() => parseMarkdown('# One {#a}\n## Two {#a}\n', 'x.md')).toThrow('x.md:2: the heading "{#a}" is used twice');
    expect(() => parseMarkdown('# One {#Big}\n', 'x.md')).toThrow('x.md:1: a heading\'s name is {#name}');
    expect(() => parseMarkdown('#Tight\n', 'x.md')).toThrow('x.md:1: a heading is "# Words"');
  });

  it('reads the marks of page prose, and refuses a mark left open, nested marks, HTML and typed addresses', () => {
    expect(proseSegments('**Read.** Press ++P++ or `?present` for *presenter* mode; see [how we measure](measure).')).toEqual([
      { kind: 'strong', text: 'Read.' },
      { kind: 'text', text: ' Press ' },
      { kind: 'kbd', text: 'P' },
      { kind: 'text', text: ' or ' },
      { kind: 'code', text: '?present' },
      { kind: 'text', text: ' for ' },
      { kind: 'em', text: 'presenter' },
      { kind: 'text', text: ' mode; see ' },
      { kind: 'link', text: 'how we measure', to: 'measure' },
      { kind: 'text', text: '.' },
    ]);
    // Code keeps what it holds; 7 × 8 and a lone ] are text.
    expect(proseSegments('`a*b` is 7 × 8 ]')).toEqual([{ kind: 'code', text: 'a*b' }, { kind: 'text', text: ' is 7 × 8 ]' }]);
    expect(() => proseSegments('**bold')).toThrow('"**" opens a mark that nothing closes');
    expect(() => proseSegments('**a `b`**')).toThrow('marks do not nest');
    expect(() => proseSegments('press <kbd>P</kbd>')).toThrow('content holds no HTML');
    expect(() => proseSegments('the [benchmark](#/bench)')).toThrow('a link is [words](name)');
    expect(() => proseSegments('the [benchmark](/bench.html)')).toThrow('a link is [words](name)');
  });

  it('holds a page to its shape: every section it shows, at its level, and nothing it does not show', () => {
    const page = (text: string) => new PageFile(new ContentReader(parseMarkdown(text, 'p.md'), 'p.md'), { n: 3 }, 'the page');
    const ok = page('---\ntitle: Hello {n}\n---\n\nLede.\n\n# Words {#a}\n\nOne [link](bench).\n\n# List {#b}\n\n- item\n');
    expect(ok.string('title')).toBe('Hello 3');
    expect(ok.lede()).toEqual(['Lede.']);
    expect(ok.section('a', { level: 1, paragraphs: 1 })).toEqual({ heading: 'Words', paragraphs: ['One [link](bench).'], items: [] });
    expect(() => ok.done()).toThrow('p.md: the page does not show "List"');
    expect(ok.section('b', { level: 1, paragraphs: 0, items: true }).items).toEqual(['item']);
    expect(() => ok.done()).not.toThrow();
    expect(() => page('# W {#a}\n').section('x', { level: 1, paragraphs: 1 })).toThrow('p.md has no "# … {#x}" section, which the page shows');
    expect(() => page('## W {#a}\n\nText.\n').section('a', { level: 1, paragraphs: 1 })).toThrow('p.md, "W": the page shows it as a # heading');
    expect(() => page('# W {#a}\n\nText.\n').section('a', { level: 1, paragraphs: 2 })).toThrow('the page places 2 paragraphs here, and there are 1');
    expect(() => page('# W {#a}\n\nText.\n\n- item\n').section('a', { level: 1, paragraphs: 1 })).toThrow('the page shows no list here');
    expect(() => page('# W {#a}\n\nText.\n\n- item\n').section('a', { level: 1, paragraphs: 0, items: true })).toThrow('as a list only');
    expect(() => page('# W {#a}\n\nSee [this](elsewhere).\n').section('a', { level: 1, paragraphs: 1 })).toThrow('p.md, "W": [this](elsewhere) names no address');
    expect(() => page('# W {#a}\n\nA **typo.\n').section('a', { level: 1, paragraphs: 1 })).toThrow('p.md, "W": "**" opens a mark');
    expect(() => page('# W {#a}\n\n{missing} figure.\n').section('a', { level: 1, paragraphs: 1 })).toThrow('p.md uses {missing}, which has no value here');
    const extra = page('---\ntitle: T\ncaptions:\n  a: A\n  b: B\n---\n\nLede.\n');
    extra.string('title');
    extra.string('captions.a');
    expect(() => extra.done()).toThrow("the page does not show the front matter's captions.b");
  });

  it('reads the front page and "How we measure" from content/, with the figures computed, not typed', () => {
    // Counted: the lede starts with the number of stages, in words.
    expect(INTRO.lede[0].startsWith(`${introFigures().count} versions`)).toBe(true);
    // 1 MiB is 16,384 blocks of 64 bytes in 1,024 chunks, whose tree has 1,023 parents.
    expect(JSON.stringify(INTRO)).toContain('a 1 MiB input means 16,384 block compressions (and 1,023 more for the tree');
    expect(INTRO.use.items.some((item) => item.includes('](selftest)'))).toBe(true);
    // The engine's own settings and arithmetic, filled in where the prose names them.
    const figures = measureFigures();
    expect(MEASURE.samples.paragraphs[0]).toContain(`up for ${WARMUP_MS} ms`);
    expect(MEASURE.interleave.paragraphs[0]).toContain(`(${DEFAULT_ROUNDS} by default)`);
    expect(MEASURE.ci.paragraphs[0]).toContain(`the ${figures.lo} and the ${figures.hi} fastest`);
    expect(MEASURE.ci.paragraphs[0]).toContain(`${figures.coverage}% certainty`);
    expect(MEASURE.p.paragraphs[1]).toContain(`fewer than ${figures.detect} samples`);
    // The words under Holm's table read the example family the table shows.
    const [near, last] = HOLM_FAMILY.slice(-2).map((row) => row.p);
    expect(MEASURE.multiple.paragraphs.at(-1)).toContain(`on their own, ${near} and ${last} are below 0.05`);
    expect(MEASURE.captions.holm).toContain(`on ${figures['family-size']} comparisons`);
    // The slider's count is left for the page to fill as the slider moves.
    expect(MEASURE.captions.trap).toContain('{tests}');
    expect(JSON.stringify([INTRO, MEASURE]), 'links name a page; the page builds the address').not.toContain('#/');
    expect(Object.values(PAGE_LINKS).every((href) => !href.startsWith('http'))).toBe(true);
  });

  it('reads "Every engine"\'s words from content/engines.md with the committed run\'s figures filled in', () => {
    const { prose, run, every } = ENGINES_PAGE;
    const words = JSON.stringify(prose);
    expect(words, 'every placeholder filled').not.toMatch(/\{[\w-]+\}/);
    expect(prose.measured.paragraphs[0]).toContain(`Measured on ${run.env.date.slice(0, 10)}`);
    expect(prose.measured.paragraphs[0]).toContain(`with ${run.env.cores} cores`);
    expect(prose.engines.items[0]).toMatch(/at \d+ KiB Chromium [\d.]+x, Firefox [\d.]+x; at 1 KiB, one chunk, Chromium/);
    expect(prose.moral.paragraphs[0]).toContain(`In this run ${['no', 'one', 'two', 'three'][every.length]} steps paid in both engines`);
    expect(prose.cta.then).toContain('[compare page](compare)');
  });

  it('has a story for every stage and every Go stage, and no file nothing reads', () => {
    expect(STORIES).toHaveLength(STAGES.length);
    expect(GO_STAGES.map((stage) => stage.id)).toEqual(GO_TRACK.map((stage) => stage.id));
    const names = (dir: string) => readdirSync(join('content', dir)).map((name) => name.replace(/\.md$/, '')).sort();
    const pages = readdirSync('content').filter((name) => name.endsWith('.md'));
    expect(pages.sort(), 'content/*.md: read by engines-prose.ts, intro-prose.ts, measure-prose.ts, shell/present/speaker-notes.ts and teach/plans.ts').toEqual(['engines.md', 'intro.md', 'measure.md', 'speaker-notes.md', 'teach.md']);
    expect(names('stages')).toEqual(STAGES.map((stage) => stage.id).sort());
    expect(names('go')).toEqual(GO_TRACK.map((stage) => stage.id).sort());
    const notes = new Set(STORIES.flatMap((story) => story.go ?? []).map((note) => note.title));
    expect(names('notes')).toHaveLength(notes.size);
  });

  it('finds a long literal (the check itself works)', () => {
    const long = 'x'.repeat(MAX_LITERAL + 1);
    expect(longLiterals('a.ts', `const a = '${long}';\nconst b = \`${long}\${a}\`;\nconst c = 'short';`)).toEqual([`a.ts:1 (${MAX_LITERAL + 1})`, `a.ts:2 (${MAX_LITERAL + 1})`]);
  });

  it(`keeps prose out of code: no .ts file holds a string over ${MAX_LITERAL} characters`, () => {
    const files = ['src', 'workers', 'server', 'scripts', 'steps', 'go'].flatMap(tsFiles);
    expect(files.length).toBeGreaterThan(150);
    const long = files
      .filter((file) => !NOT_PROSE[file])
      .filter((file) => !readFileSync(file, 'utf8').startsWith('// Code generated by'))
      .flatMap((file) => longLiterals(file, readFileSync(file, 'utf8')));
    expect(long).toEqual([]);
  });
});
