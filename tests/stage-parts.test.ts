// A stage lives in one folder of steps/, one story in content/stages/ (its words, its
// question for the class, its speaker notes and, from stage 1 on, its exercise), one
// colour in the chart palette, and what one `npm run gen` writes of it: this checks that
// every stage has all its parts, found by looking in each place rather than from one
// list, and names what a stage lacks. A stage
// is any name met in any of those places, so a folder with no registry entry or a story
// left behind by a renamed stage is caught too. (How to add one: the README's "Adding a
// stage", which lists exactly these parts.)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { parseMarkdown, type FrontValue, type MarkdownDoc } from '../src/core/content/markdown.ts';
import { readV8Evidence } from '../src/core/evidence/v8-evidence.ts';
import { FIGURE_ROWS } from '../src/core/evidence/v8-why.ts';
import { STAGE_COLORS } from '../src/app/ui/charts/palette.svelte.ts';

const ROOT = new URL('../', import.meta.url);
const STAGE_NAME = /^\d\d-[a-z0-9-]+$/;

/** What each place holds, by stage id: the files as found, each read as its reader reads it. */
interface Listing {
  folders: string[];
  /** The registry's ids, in its order: a stage's place there is its index, and its colour's. */
  registry: string[];
  stories: Record<string, MarkdownDoc>;
  /** Each stored file's `stage` field, or why its reader refused it. */
  v8: Record<string, string | Error>;
  profiles: Record<string, string | Error>;
  /** The chart palette's stage colours, by index. */
  palette: readonly string[];
}

/** A front matter value by path ("article.headline"), as the story's reader finds it. */
function front(doc: MarkdownDoc, path: string): FrontValue | undefined {
  let at: FrontValue | undefined = doc.meta;
  for (const key of path.split('.')) at = at && typeof at === 'object' && !Array.isArray(at) ? at[key] : undefined;
  return at;
}

/** What a story lacks of what the lesson shows for every stage (src/app/story/narrative.ts, speaker-notes.ts). */
function storyGaps(doc: MarkdownDoc, id: string): string[] {
  const gaps: string[] = [];
  const has = (name: string) => Boolean(doc.sections[name]?.paragraphs.length);
  for (const [name, heading] of [['change', 'Change'], ['why', 'Why'], ['cost', 'Cost']]) if (!has(name)) gaps.push(`has no text under "# ${heading}"`);
  if (!Array.isArray(front(doc, 'profile.changes')) || !Array.isArray(front(doc, 'profile.watch'))) gaps.push('has no "profile:" with its "changes: [...]" and "watch: [...]" in its front matter');
  const article = typeof front(doc, 'article.headline') === 'string';
  const past = typeof front(doc, 'pastArticle.headline') === 'string';
  if (article === past) gaps.push(`has ${article ? 'both' : 'neither'} "article:" (the article's figure) ${article ? 'and' : 'nor'} "pastArticle:" (past the article, what the Rust crate does) in its front matter`);
  if (!has('v8-why')) gaps.push('has no sentence under "# What V8 reports {#v8-why}"');
  const row = front(doc, 'v8Why.row');
  if (row !== undefined && !(FIGURE_ROWS as readonly unknown[]).includes(row)) gaps.push(`marks v8Why.row "${String(row)}", not a row of V8's table`);
  if (!has('ask')) gaps.push('has no question under "# Ask the class {#ask}"');
  if (!has('answer')) gaps.push('has no answer under "## The answer {#answer}"');
  const notes = doc.sections.notes;
  if (!notes?.items.length || !notes.heading.startsWith('Speaker notes: ')) gaps.push('has no speaker notes, a list under "# Speaker notes: <words> {#notes}"');
  // From stage 1 on the learner makes the step (src/app/ui/lesson/exercise-texts.ts); stage 0 has no step before it.
  if (Number(id.slice(0, 2)) >= 1) {
    if (!has('exercise')) gaps.push('has no exercise: where the learner starts and what to change, under "# Exercise {#exercise}"');
    for (const level of [3, 4]) if (!has(`hint-${level}`)) gaps.push(`has no "## Hint ${level} {#hint-${level}}" under "# Exercise {#exercise}"`);
  }
  return gaps;
}

/** Every part a stage lacks, one line each, naming the file to write and how. */
function missingParts(listing: Listing): string[] {
  const ids = [...new Set([...listing.folders, ...listing.registry, ...Object.keys(listing.stories), ...Object.keys(listing.v8), ...Object.keys(listing.profiles)])].sort();
  const problems: string[] = [];
  const stored = (id: string, what: string, path: string, found: string | Error | undefined) => {
    if (found === undefined) problems.push(`${id}: no ${path} (${what}: npm run gen writes it)`);
    else if (found instanceof Error) problems.push(`${id}: ${found.message}`);
    else if (found !== id) problems.push(`${id}: ${path} is about stage "${found}"`);
  };
  for (const id of ids) {
    if (!listing.folders.includes(id)) problems.push(`${id}: no folder steps/${id}/`);
    const index = listing.registry.indexOf(id);
    if (index < 0) problems.push(`${id}: no entry in steps/index.ts`);
    const story = listing.stories[id];
    if (!story) problems.push(`${id}: no story content/stages/${id}.md`);
    else for (const gap of storyGaps(story, id)) problems.push(`${id}: content/stages/${id}.md ${gap}`);
    stored(id, "V8's evidence", `data/v8/${id}.json`, listing.v8[id]);
    stored(id, 'its stored profiles', `data/profiles/${id}.json`, listing.profiles[id]);
    if (index >= 0 && listing.palette[index] === undefined) problems.push(`${id}: no colour for stage ${index} in STAGE_COLORS (src/app/ui/charts/palette.svelte.ts): add one that tests/chart-palette.test.ts finds apart from its neighbours'`);
  }
  return problems;
}

const names = (dir: string, ext: string) =>
  readdirSync(new URL(dir, ROOT))
    .filter((name) => name.endsWith(ext))
    .map((name) => name.slice(0, -ext.length));

/** Each file's `stage` as its reader finds it, or the reader's refusal. */
function stageFields(dir: string, read: (json: unknown, path: string) => { stage: string }): Record<string, string | Error> {
  return Object.fromEntries(
    names(dir, '.json').map((id) => {
      const path = `${dir}${id}.json`;
      try {
        return [id, read(JSON.parse(readFileSync(new URL(path, ROOT), 'utf8')), path).stage];
      } catch (error) {
        return [id, error instanceof Error ? error : new Error(String(error))];
      }
    }),
  );
}

/** The repository as it is. */
function listing(): Listing {
  return {
    folders: readdirSync(new URL('steps/', ROOT), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && STAGE_NAME.test(entry.name))
      .map((entry) => entry.name),
    registry: STAGES.map((stage) => stage.id),
    stories: Object.fromEntries(names('content/stages/', '.md').map((id) => [id, parseMarkdown(readFileSync(new URL(`content/stages/${id}.md`, ROOT), 'utf8'), `content/stages/${id}.md`)])),
    v8: stageFields('data/v8/', readV8Evidence),
    // The stored profiles carry their stage and their generator's stamp (src/core/profile/profile.ts).
    profiles: stageFields('data/profiles/', (json, path) => {
      const stored = json as { generated?: unknown; stage?: unknown };
      if (stored.generated !== 'Code generated by scripts/profiles.ts; DO NOT EDIT.' || typeof stored.stage !== 'string') throw new Error(`${path} is not a stored profile`);
      return { stage: stored.stage };
    }),
    palette: STAGE_COLORS,
  };
}

describe('every stage has all its parts', () => {
  it('a folder in steps/ and its registry entry, its story with its question, speaker notes and exercise, its V8 evidence, its stored profile and its colour', () => {
    const found = listing();
    expect(found.folders.length).toBeGreaterThanOrEqual(12);
    expect(missingParts(found)).toEqual([]);
    for (const stage of STAGES) expect(existsSync(new URL(stage.files[0], ROOT)), stage.files[0]).toBe(true);
  });

  it('names each part a stage lacks (the check itself works)', () => {
    const whole = listing();
    const id = '12-next';
    const half: Listing = {
      ...whole,
      folders: [...whole.folders, id],
      stories: { ...whole.stories, [id]: parseMarkdown('---\nv8Why:\n  row: speed\n---\n\n# Change\n\nA change.\n\n# Speaker notes {#notes}\n\n- Say it.\n', `content/stages/${id}.md`) },
      v8: { ...whole.v8, '05-no-copies': new Error('data/v8/05-no-copies.json: heap is missing (npm run gen writes it)') },
      profiles: { ...whole.profiles, '04-state-locals': '05-no-copies' },
      palette: whole.palette.slice(0, whole.registry.length - 1),
    };
    const last = whole.registry.at(-1)!;
    expect(missingParts(half)).toEqual([
      '04-state-locals: data/profiles/04-state-locals.json is about stage "05-no-copies"',
      '05-no-copies: data/v8/05-no-copies.json: heap is missing (npm run gen writes it)',
      `${last}: no colour for stage ${whole.registry.length - 1} in STAGE_COLORS (src/app/ui/charts/palette.svelte.ts): add one that tests/chart-palette.test.ts finds apart from its neighbours'`,
      `${id}: no entry in steps/index.ts`,
      `${id}: content/stages/${id}.md has no text under "# Why"`,
      `${id}: content/stages/${id}.md has no text under "# Cost"`,
      `${id}: content/stages/${id}.md has no "profile:" with its "changes: [...]" and "watch: [...]" in its front matter`,
      `${id}: content/stages/${id}.md has neither "article:" (the article's figure) nor "pastArticle:" (past the article, what the Rust crate does) in its front matter`,
      `${id}: content/stages/${id}.md has no sentence under "# What V8 reports {#v8-why}"`,
      `${id}: content/stages/${id}.md marks v8Why.row "speed", not a row of V8's table`,
      `${id}: content/stages/${id}.md has no question under "# Ask the class {#ask}"`,
      `${id}: content/stages/${id}.md has no answer under "## The answer {#answer}"`,
      `${id}: content/stages/${id}.md has no speaker notes, a list under "# Speaker notes: <words> {#notes}"`,
      `${id}: content/stages/${id}.md has no exercise: where the learner starts and what to change, under "# Exercise {#exercise}"`,
      `${id}: content/stages/${id}.md has no "## Hint 3 {#hint-3}" under "# Exercise {#exercise}"`,
      `${id}: content/stages/${id}.md has no "## Hint 4 {#hint-4}" under "# Exercise {#exercise}"`,
      `${id}: no data/v8/${id}.json (V8's evidence: npm run gen writes it)`,
      `${id}: no data/profiles/${id}.json (its stored profiles: npm run gen writes it)`,
    ]);
  });
});
