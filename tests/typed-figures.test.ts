// No measured figure is typed into the lesson's words: a time, a throughput, a ratio or a
// share the text states is a `{placeholder}`, filled when the page is built from a
// committed file in data/ (or from the article's figures, kept once in
// src/app/ui/lesson/article-facts.ts). This reads every content file as the pages read it
// (front matter, headings, paragraphs, list items) and fails on a figure with a measured
// unit outside a placeholder or `code`. The few figures allowed are listed below, each
// with why it is not a measurement, and each must still be in its file.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, type FrontValue } from '../src/core/content/markdown.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A number (or a range of two) with a unit of time, throughput, ratio or share: "78 µs", "0.59–0.76×", "±50%", "0.49 to 0.71 a MiB". */
export const TYPED_FIGURE = /[~±]?\b\d[\d,.]*(?:\s?(?:–|-|to)\s?\d[\d,.]*)?(?:\s?(?:MB\/s|GB\/s|ms|µs|ns|min|s)\b|[×x](?![\w\d])|\s?%|\sa (?:MiB|block)\b)/g;

/** Figures that are not measurements: where they are, the words around them, and why. */
const ALLOWED: { file: string; text: string; why: string }[] = [
  { file: 'content/measure.md', text: '5% level', why: 'the significance level, a setting of the test' },
  { file: 'content/measure.md', text: '95% confidence interval', why: 'the interval’s level, a setting' },
  { file: 'content/measure.md', text: 'the 95% interval', why: 'the interval’s level, a setting' },
  { file: 'content/measure.md', text: 'more often than 5% of the time', why: 'the significance level' },
  { file: 'content/measure.md', text: 'A 5% chance of a false alarm', why: 'the significance level' },
  { file: 'content/measure.md', text: 'stays at 5%', why: 'the significance level' },
  { file: 'content/notes/go-statistics.md', text: 'a 95% confidence interval', why: 'the interval’s level, a setting' },
  { file: 'content/stages/11-every-core.md', text: 'At most 2× stage 10 on two cores', why: 'Amdahl’s bound for two cores, not a measurement' },
  { file: 'content/stages/11-every-core.md', text: 'two cores give at most 2×', why: 'Amdahl’s bound for two cores' },
  { file: 'content/stages/11-every-core.md', text: 'in theory 2×', why: 'Amdahl’s bound for two cores' },
  { file: 'content/stages/11-every-core.md', text: 'Two cores are not 2×', why: 'Amdahl’s bound for two cores' },
];

function contentFiles(dir = 'content'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? contentFiles(path) : entry.name.endsWith('.md') ? [path] : [];
  });
}

function strings(value: FrontValue): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** The words a page shows from one file: front matter values, headings, paragraphs and items. */
function shownText(path: string): string[] {
  const doc = parseMarkdown(readFileSync(join(ROOT, path), 'utf8'), path);
  const blocks = [doc.intro, ...Object.values(doc.sections)];
  return [...strings(doc.meta), ...Object.values(doc.sections).map((s) => s.heading), ...blocks.flatMap((b) => [...b.paragraphs, ...b.items])];
}

/** Placeholders and `code` are not typed figures. */
const withoutFilled = (text: string) => text.replace(/\{[a-z][a-z0-9-]*\}/g, '{}').replace(/`[^`]*`/g, '``');

/** Every typed figure in the content, as "file: figure (in: …)". */
export function typedFigures(allowed = ALLOWED): string[] {
  return contentFiles().flatMap((path) => {
    const file = relative(ROOT, join(ROOT, path));
    const mine = allowed.filter((a) => a.file === file);
    return shownText(path).flatMap((text) => {
      let rest = withoutFilled(text);
      for (const a of mine) rest = rest.split(a.text).join(' ');
      return [...rest.matchAll(TYPED_FIGURE)].map((m) => `${file}: ${m[0]} (in: …${rest.slice(Math.max(0, m.index - 40), m.index + m[0].length + 20)}…)`);
    });
  });
}

describe('typed measured figures in content/', () => {
  it('recognises the units it looks for, and leaves structural numbers and products alone', () => {
    const found = (text: string) => [...text.matchAll(TYPED_FIGURE)].map((m) => m[0]);
    expect(found('took 78 µs, 21 ms and 4 s; 3 min; 0.59–0.76× and 1.6x; 447–460 MB/s, 2.13 GB/s; ±50% and 88 ns; 0.49 to 0.71 a MiB')).toEqual([
      '78 µs',
      '21 ms',
      '4 s',
      '3 min',
      '0.59–0.76×',
      '1.6x',
      '447–460 MB/s',
      '2.13 GB/s',
      '±50%',
      '88 ns',
      '0.49 to 0.71 a MiB',
    ]);
    expect(found('7 rounds × 8 calls, a 4×4 grid, 16 words, 1024 bytes, 0xae, s0 to s15, 7 × 16')).toEqual([]);
  });

  it('every allowed figure is still where the list says', () => {
    for (const a of ALLOWED) {
      expect(shownText(a.file).some((text) => withoutFilled(text).includes(a.text)), `${a.file}: "${a.text}"`).toBe(true);
    }
  });

  it('finds none outside {placeholders}', () => {
    const typed = typedFigures();
    console.log(`typed measured figures in content/: ${typed.length}`);
    expect(typed).toEqual([]);
  });
});

describe('typed measured figures in the experiments’ expectations', () => {
  it('finds none in src/app/ui/lesson/experiments.ts outside what it computes from the committed run', () => {
    const source = readFileSync(join(ROOT, 'src/app/ui/lesson/experiments.ts'), 'utf8');
    // The words as written: comments and `${…}` (figures computed from data/engines/) left out.
    const words = source
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
      .join('\n')
      .replace(/\$\{[^{}]*(\{[^{}]*\}[^{}]*)*\}/g, '');
    const typed = [...words.matchAll(TYPED_FIGURE)].map((m) => m[0]);
    expect(typed).toEqual([]);
    // The check can fail: the expectation this file once typed.
    expect([...'the comment atop this stage records 1.27x there'.matchAll(TYPED_FIGURE)].map((m) => m[0])).toEqual(['1.27x']);
  });
});
