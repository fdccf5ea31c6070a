// Reading the prose of a page that is not a stage: the front page (content/intro.md,
// intro-prose.ts), "How we measure" (content/measure.md, measure-prose.ts) and "Every
// engine" (content/engines.md, engines-prose.ts). The
// pages keep the structure, the widgets, the links' addresses and the figures; the words
// are the Markdown's. Each section is found by its heading's {#name} and must have the
// shape its page shows (its level, how many paragraphs, a list or not), and a section or
// front matter value no page shows is an error: words never go missing between the file
// and the page. Figures are `{placeholders}`, filled when the file is read; the prose's
// marks (proseSegments) are checked then too, so a typo fails the tests, not a page.

import type { FrontMatter, MarkdownDoc } from '../../core/content/markdown.ts';
import { fill, readersByName, type ContentReader } from '../ui/lesson/content.ts';
import { proseSegments } from '../ui/lesson/inline.ts';
import { routeHref } from '../ui/nav/routes.ts';

/** The pages' names for the addresses their prose links to: `[benchmark](bench)`. */
export const PAGE_LINKS: Record<string, string> = {
  bench: routeHref({ page: 'bench' }),
  measure: routeHref({ page: 'measure' }),
  results: routeHref({ page: 'results' }),
  compare: routeHref({ page: 'compare' }),
  class: routeHref({ page: 'class', code: null, view: 'student' }),
  teach: routeHref({ page: 'teach' }),
  selftest: '/selftest.html',
};

export interface ProseSection {
  /** The heading's words. */
  heading: string;
  paragraphs: string[];
  items: string[];
}

interface Shape {
  level: 1 | 2;
  /** The fewest paragraphs the page places (0: the section is a list and has none). */
  paragraphs: number;
  /** Whether the section is a list of `- ` items. */
  items?: boolean;
}

/** Every `a.b` path to a value of the front matter. */
const leaves = (meta: FrontMatter, prefix = ''): string[] =>
  Object.entries(meta).flatMap(([key, value]) =>
    value && typeof value === 'object' && !Array.isArray(value) ? leaves(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );

/** Reads one page's file, keeping count of what the page shows. */
export class PageFile {
  private readonly shown = new Set<string>();
  private readonly shownMeta = new Set<string>();

  constructor(
    private readonly file: ContentReader,
    private readonly figures: Record<string, string | number>,
    private readonly page: string,
  ) {}

  get name(): string {
    return this.file.file;
  }

  /** Text with its figures filled and its marks checked; `where` names it in errors. */
  private prose(text: string, where: string): string {
    const filled = fill(text, this.figures, this.name);
    try {
      for (const segment of proseSegments(filled)) {
        if (segment.kind === 'link' && !Object.hasOwn(PAGE_LINKS, segment.to)) {
          throw new Error(`[${segment.text}](${segment.to}) names no address; the names are ${Object.keys(PAGE_LINKS).join(', ')}`);
        }
      }
    } catch (error) {
      throw new Error(`${this.name}, ${where}: ${(error as Error).message}`);
    }
    return filled;
  }

  /** A front matter string, figures filled. */
  string(path: string): string {
    this.shownMeta.add(path);
    return this.prose(this.file.string(path), `"${path}"`);
  }

  /** The paragraphs before the first heading. */
  lede(): string[] {
    const { paragraphs, items } = this.file.doc.intro;
    if (!paragraphs.length || items.length) throw new Error(`${this.name}: ${this.page} shows one or more paragraphs before the first heading, and no list there`);
    return paragraphs.map((text) => this.prose(text, 'the text before the first heading'));
  }

  section(name: string, shape: Shape): ProseSection {
    const section = this.file.doc.sections[name];
    const heading = `"${'#'.repeat(shape.level)} … {#${name}}"`;
    if (!section) throw new Error(`${this.name} has no ${heading} section, which ${this.page} shows`);
    this.shown.add(name);
    const where = `"${section.heading}"`;
    const refuse = (what: string): never => {
      throw new Error(`${this.name}, ${where}: ${what}`);
    };
    if (section.level !== shape.level) refuse(`${this.page} shows it as a ${'#'.repeat(shape.level)} heading; write it so`);
    if (shape.paragraphs === 0 && section.paragraphs.length) refuse(`${this.page} shows this section as a list only: write each point as a "- " item`);
    if (section.paragraphs.length < shape.paragraphs) refuse(`${this.page} places ${shape.paragraphs} paragraphs here, and there are ${section.paragraphs.length}`);
    if (!shape.items && section.items.length) refuse(`${this.page} shows no list here`);
    if (shape.items && !section.items.length) refuse(`${this.page} shows a list here, of "- " items`);
    return {
      heading: this.prose(section.heading, where),
      paragraphs: section.paragraphs.map((text) => this.prose(text, where)),
      items: section.items.map((text) => this.prose(text, where)),
    };
  }

  /** Refuses the sections and front matter keys the page did not read: they would show nowhere. */
  done(): void {
    const unshown = Object.entries(this.file.doc.sections).filter(([name]) => !this.shown.has(name));
    if (unshown.length) throw new Error(`${this.name}: ${this.page} does not show ${unshown.map(([, s]) => `"${s.heading}"`).join(', ')}`);
    const unread = leaves(this.file.doc.meta).filter((path) => !this.shownMeta.has(path));
    if (unread.length) throw new Error(`${this.name}: ${this.page} does not show the front matter's ${unread.join(', ')}`);
  }
}

/**
 * One page's words: its front matter's eyebrow and title, the paragraphs before the first
 * heading, and what `sections` reads from the file. `files` is the page's glob (a single
 * file: each page's bundle holds only its own words), and its `{placeholders}` are filled
 * from `figures`; a section or front matter value left unread is an error (PageFile.done).
 */
export function pageProse<T extends object>(
  files: Record<string, MarkdownDoc>,
  name: string,
  figures: Record<string, string | number>,
  page: string,
  sections: (file: PageFile) => T,
): { file: string; eyebrow: string; title: string; lede: string[] } & T {
  const reader = readersByName(files).get(name);
  if (!reader) throw new Error(`${page} reads its words from content/${name}.md, which is missing`);
  const file = new PageFile(reader, figures, page);
  const prose = { file: file.name, eyebrow: file.string('eyebrow'), title: file.string('title'), lede: file.lede(), ...sections(file) };
  file.done();
  return prose;
}
