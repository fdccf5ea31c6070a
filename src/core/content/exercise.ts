// Reading a stage's exercise out of its parsed Markdown (content/stages/<id>.md):
// `# Exercise {#exercise}` says where the learner starts and what to change, `## Hint 3
// {#hint-3}` and `## Hint 4 {#hint-4}` below it are the two hints a person writes (a
// question about the kind of change; the technique shown outside BLAKE3; the other levels
// are computed from the attempt), and each `## Wrong turn: <words> {#turn-<id>}` is the
// comment shown when a draft takes that turn. The front matter's `exercise:` holds the
// sizes the goal is judged at, each turn's kind, the reference's files given read-only
// (`given:`) and the only files to edit (`edit:`). A section that is there but malformed
// is refused with its file and heading, so a slip fails the tests instead of showing a
// half-written exercise. Pure, so the app (src/app/ui/lesson/exercise-texts.ts) and the
// bench's --exercise (src/node/exercise-bench.ts) read it alike.
import type { FrontMatter, MarkdownDoc } from './markdown.ts';

export type TurnKind = 'essential' | 'actionable' | 'informative' | 'celebratory';
const KINDS: readonly TurnKind[] = ['essential', 'actionable', 'informative', 'celebratory'];

export interface ExerciseTurn {
  id: string;
  kind: TurnKind;
  text: string[];
}

export interface ExerciseText {
  /** Paragraphs under `# Exercise`: where the learner starts, what to change, which files. */
  intro: string[];
  hint3: string[];
  hint4: string[];
  /** The sizes (bytes) the goal is judged at. */
  sizes: number[];
  turns: ExerciseTurn[];
  /** Files of the reference given as they are, read-only, beside the starting point's (front matter `given:`). */
  given: string[];
  /** The only files the learner edits (front matter `edit:`); empty: every file but a generator's output. */
  edit: string[];
}

/** A stage's exercise from its parsed Markdown, or null when it has none; `file` names it in errors. */
export function readExercise(doc: MarkdownDoc, file: string): ExerciseText | null {
  const names = Object.keys(doc.sections);
  const start = names.indexOf('exercise');
  const meta = doc.meta.exercise;
  if (start < 0) {
    if (meta !== undefined) throw new Error(`${file}: "exercise:" is in its front matter but there is no "# Exercise {#exercise}" section`);
    return null;
  }
  const fail = (heading: string, what: string): never => {
    throw new Error(`${file}, "${heading}": ${what}`);
  };
  const top = doc.sections.exercise;
  if (top.level !== 1) fail(top.heading, 'the exercise is a "# " heading');
  if (!top.paragraphs.length) fail(top.heading, 'has no text: say where the learner starts, what to change and which files to edit');
  // The sections under `# Exercise`: those that follow it up to the next `# ` heading.
  let end = names.findIndex((name, i) => i > start && doc.sections[name].level === 1);
  if (end < 0) end = names.length;
  const under = names.slice(start + 1, end);
  const hint = (id: string, label: string): string[] => {
    const section = under.includes(id) ? doc.sections[id] : undefined;
    if (!section) return fail(top.heading, `has no "## ${label} {#${id}}" under it`);
    if (!section.paragraphs.length) fail(section.heading, 'has no text');
    return section.paragraphs;
  };
  const hint3 = hint('hint-3', 'Hint 3');
  const hint4 = hint('hint-4', 'Hint 4');
  for (const name of under) {
    if (name !== 'hint-3' && name !== 'hint-4' && !name.startsWith('turn-')) fail(doc.sections[name].heading, 'under "# Exercise" go only "## Hint 3 {#hint-3}", "## Hint 4 {#hint-4}" and "## Wrong turn: <words> {#turn-<id>}"');
  }

  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return fail(top.heading, 'its front matter has no "exercise:" map with "sizes: [..]"');
  const front = meta as FrontMatter;
  const rawSizes = front.sizes;
  if (!Array.isArray(rawSizes) || !rawSizes.length) fail(top.heading, 'its front matter\'s "exercise:" has no "sizes: [..]" list');
  const sizes = (rawSizes as string[]).map((size) => (/^\d+$/.test(size) ? Number(size) : fail(top.heading, `"exercise.sizes" holds "${size}", not a size in bytes`)));

  const kinds = front.turns ?? {};
  if (typeof kinds !== 'object' || Array.isArray(kinds)) return fail(top.heading, '"exercise.turns" is a map from a turn\'s id to its kind');
  const turns: ExerciseTurn[] = under
    .filter((name) => name.startsWith('turn-'))
    .map((name) => {
      const section = doc.sections[name];
      const id = name.slice('turn-'.length);
      if (!section.heading.startsWith('Wrong turn: ')) fail(section.heading, 'a wrong turn\'s heading reads "## Wrong turn: <words> {#turn-<id>}"');
      if (!section.paragraphs.length) fail(section.heading, 'has no text: the comment a learner sees');
      const kind = (kinds as FrontMatter)[id];
      if (!KINDS.includes(kind as TurnKind)) fail(section.heading, `"exercise.turns.${id}" in its front matter is ${kind === undefined ? 'missing' : `"${String(kind)}"`}: one of ${KINDS.join(', ')}`);
      return { id, kind: kind as TurnKind, text: section.paragraphs };
    });
  for (const id of Object.keys(kinds)) if (!turns.some((turn) => turn.id === id)) fail(top.heading, `"exercise.turns.${id}" has no "## Wrong turn: <words> {#turn-${id}}" section`);
  const fileList = (key: 'given' | 'edit'): string[] => {
    const list = front[key] ?? [];
    if (!Array.isArray(list) || !list.every((name) => typeof name === 'string' && /^[\w.-]+\.ts$/.test(name))) return fail(top.heading, `"exercise.${key}" is a list of file names, like [blake3.ts]`);
    return list as string[];
  };
  return { intro: top.paragraphs, hint3, hint4, sizes, turns, given: fileList('given'), edit: fileList('edit') };
}
