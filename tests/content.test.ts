// The lesson's prose is content (content/**/*.md, read at build time), not string
// literals in code: the reader refuses what the content does not use, every file belongs
// to a stage or a note something names, and no .ts file holds a long prose literal.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../src/core/content/markdown.ts';
import { STORIES } from '../src/app/story/narrative.ts';
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

  it('has a story for every stage and every Go stage, and no file nothing reads', () => {
    expect(STORIES).toHaveLength(STAGES.length);
    expect(GO_STAGES.map((stage) => stage.id)).toEqual(GO_TRACK.map((stage) => stage.id));
    const names = (dir: string) => readdirSync(join('content', dir)).map((name) => name.replace(/\.md$/, '')).sort();
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
