// Reading the lesson's Markdown (content/, parsed at build time into MarkdownDoc data)
// into the shapes the pages show. Every reader names the file and the part it missed,
// so a section left out or misspelled fails the build's tests, not a page.
import type { Block, FrontMatter, FrontValue, MarkdownDoc } from '../../../core/content/markdown.ts';
import type { AskTheClass, Part } from './story-types.ts';

export class ContentReader {
  constructor(
    readonly doc: MarkdownDoc,
    readonly file: string,
  ) {}

  private missing(what: string): never {
    throw new Error(`${this.file} has no ${what}`);
  }

  /** A section's block, or undefined when the file has none. */
  block(name: string): Block | undefined {
    return this.doc.sections[name];
  }

  /** A section as a story part: its first paragraph is the lead, the rest the details. */
  part(name: string): Part {
    return this.optionalPart(name) ?? this.missing(`"# ${name}" section`);
  }

  optionalPart(name: string): Part | undefined {
    const block = this.block(name);
    if (!block) return undefined;
    const [lead, ...more] = block.paragraphs;
    if (lead === undefined) this.missing(`text under "# ${name}"`);
    return { lead, more: more.join('\n\n') };
  }

  /** A section's paragraphs as one text, a blank line between paragraphs. */
  text(name: string): string {
    return this.optionalText(name) ?? this.missing(`"# ${name}" section`);
  }

  optionalText(name: string): string | undefined {
    const block = this.block(name);
    return block ? block.paragraphs.join('\n\n') : undefined;
  }

  /** The text before the first heading. */
  intro(): string {
    return this.doc.intro.paragraphs.join('\n\n') || this.missing('text before its first heading');
  }

  /** A front matter value by path ("article.headline"), or undefined. */
  value(path: string): FrontValue | undefined {
    let at: FrontValue | undefined = this.doc.meta;
    for (const key of path.split('.')) at = at && typeof at === 'object' && !Array.isArray(at) ? (at as FrontMatter)[key] : undefined;
    return at;
  }

  string(path: string): string {
    const value = this.value(path);
    return typeof value === 'string' ? value : this.missing(`text at "${path}" in its front matter`);
  }

  /** A `[a, b]` list of the front matter (`[]` for none). */
  list(path: string): string[] {
    const value = this.value(path);
    return Array.isArray(value) ? value : this.missing(`list at "${path}" in its front matter`);
  }

  optionalString(path: string): string | undefined {
    return this.value(path) === undefined ? undefined : this.string(path);
  }
}

/**
 * Text with its `{name}` placeholders filled from `values`: figures that come from a run
 * or from evidence, never typed into the prose. A name without a value is an error.
 */
export function fill(text: string, values: Record<string, string | number | undefined>, file: string): string {
  return text.replace(/\{([a-z][a-z0-9-]*)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${file} uses {${name}}, which has no value here`);
    return String(value);
  });
}

/** The readers of a glob of content files, by the file's name without folder or ".md". */
export function readersByName(files: Record<string, MarkdownDoc>): Map<string, ContentReader> {
  return new Map(Object.entries(files).map(([path, doc]) => [path.replace(/^.*\//, '').replace(/\.md$/, ''), new ContentReader(doc, path.replace(/^\//, ''))]));
}

/** `# Ask the class {#ask}`, one paragraph (the question), and `## The answer {#answer}` under it: every stage has one. */
export function askOf(file: ContentReader): AskTheClass {
  const question = file.text('ask');
  if (question.includes('\n\n')) throw new Error(`${file.file}: "Ask the class" is one paragraph, the question; the answer goes under "## The answer {#answer}"`);
  return { question, answer: file.text('answer') };
}
