// The lesson's prose lives in Markdown files under content/, each with front matter for
// its structured parts. This reads one into plain data: the front matter as an object,
// and the text as paragraphs and list items under each `#` heading. It runs when the app
// is built (src/node/content-plugin.ts), so the pages get data, never HTML: text stays
// text, with `backticks` marking code as everywhere else in the story (the two pages
// that are not a stage read a few more marks: proseSegments in src/app/ui/lesson/inline.ts).
//
// Only what the content uses is read, and anything else is refused with its line, so a
// typo fails the build instead of showing up on a page: front matter of `key: value`
// lines, nested maps indented by two spaces, `[a, b]` lists and "quoted" strings;
// paragraphs (lines joined by a space), `- ` list items, and `# ` headings with `## `
// below them. A heading may end in `{#name}`, the name a page finds its section by, so
// its words can change without touching the page.

export type FrontValue = string | number | boolean | string[] | FrontMatter;
export interface FrontMatter {
  [key: string]: FrontValue;
}

export interface Block {
  paragraphs: string[];
  items: string[];
}

export interface Section extends Block {
  /** The heading's words as written, without its `{#name}`. */
  heading: string;
  /** 1 for `# `, 2 for `## `. */
  level: 1 | 2;
}

export interface MarkdownDoc {
  meta: FrontMatter;
  /** The text before the first heading. */
  intro: Block;
  /**
   * The text under each heading, by its `{#name}` or else by its words in lower case:
   * "# Why" is `why`, "# BLAKE3 in five minutes {#blake3}" is `blake3`.
   */
  sections: Record<string, Section>;
}

const fail = (file: string, line: number, what: string): never => {
  throw new SyntaxError(`${file}:${line}: ${what}`);
};

function scalar(text: string, file: string, line: number): string | number | boolean {
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      return fail(file, line, `cannot read the quoted string ${text}`);
    }
  }
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

function parseFront(lines: string[], first: number, file: string): FrontMatter {
  const root: FrontMatter = {};
  const stack: { indent: number; map: FrontMatter }[] = [{ indent: 0, map: root }];
  lines.forEach((raw, i) => {
    const at = first + i;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const match = /^( *)([A-Za-z][\w-]*):(?: (.*))?$/.exec(raw);
    if (!match) return fail(file, at, `front matter reads "key: value", not "${raw.trim()}"`);
    const indent = match[1].length;
    while (stack.length > 1 && indent < stack[stack.length - 1].indent) stack.pop();
    const top = stack[stack.length - 1];
    if (indent !== top.indent) fail(file, at, 'nested keys are indented by two spaces under their parent');
    const [key, value] = [match[2], match[3]?.trim() ?? ''];
    if (Object.hasOwn(top.map, key)) fail(file, at, `"${key}" is given twice`);
    if (value === '') {
      const map: FrontMatter = {};
      top.map[key] = map;
      stack.push({ indent: indent + 2, map });
    } else if (value.startsWith('[')) {
      if (!value.endsWith(']')) fail(file, at, 'a list is written [a, b] on one line');
      top.map[key] = value.slice(1, -1).split(',').map((item) => item.trim()).filter(Boolean);
    } else top.map[key] = scalar(value, file, at);
  });
  return root;
}

/** Reads one content file; `file` names it in errors. */
export function parseMarkdown(text: string, file: string): MarkdownDoc {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let start = 0;
  let meta: FrontMatter = {};
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end < 0) fail(file, 1, 'the front matter has no closing ---');
    meta = parseFront(lines.slice(1, end), 2, file);
    start = end + 1;
  }
  const intro: Block = { paragraphs: [], items: [] };
  const sections: Record<string, Section> = {};
  let block = intro;
  let paragraph: string[] = [];
  const close = () => {
    if (paragraph.length) block.paragraphs.push(paragraph.join(' '));
    paragraph = [];
  };
  for (let i = start; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') close();
    else if (line.startsWith('#')) {
      close();
      const heading = /^(#{1,2}) (\S.*?)(?: \{#([a-z][a-z0-9-]*)\})?$/.exec(line);
      if (!heading) fail(file, i + 1, 'a heading is "# Words" or "## Words" (two levels are all the content uses), perhaps ending in {#name}');
      const [, hashes, words, id] = heading!;
      if (/\{#/.test(words)) fail(file, i + 1, 'a heading\'s name is {#name}: lower case letters, digits and "-", at the end');
      const name = id ?? words.toLowerCase();
      if (Object.hasOwn(sections, name)) fail(file, i + 1, `the heading "${id ? `{#${id}}` : words}" is used twice`);
      const section: Section = { heading: words, level: hashes.length as 1 | 2, paragraphs: [], items: [] };
      block = sections[name] = section;
    } else if (line.startsWith('- ')) {
      close();
      block.items.push(line.slice(2).trim());
    } else if (/^([*+]|\d+\.) /.test(line) || line.startsWith('<')) {
      fail(file, i + 1, 'lists start with "- ", and content holds no HTML');
    } else paragraph.push(line);
  }
  close();
  return { meta, intro, sections };
}
