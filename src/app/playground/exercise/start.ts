// Where an exercise starts: stage N-1's files as shipped, with the reference's files the
// exercise gives (its front matter's `given:`, read-only) added or put in their place, and
// which of them the learner edits. A generator's output is never edited by hand: where the
// learner edits gen.ts, "Check and measure" runs it and the output is what is checked.
import type { Stage } from '../../../../steps/index.ts';
import type { ExerciseText } from './texts.ts';

export interface ExerciseStart {
  /** The starting point as a stage of its own, so the editor's models never meet stage N-1's. */
  stage: Stage;
  /** Files shown but not edited: the given ones, a generator's output, and any the exercise does not ask to edit. */
  readOnly: Set<string>;
  /** The learner edits gen.ts: its output is made by running it before every check. */
  runsGenerator: boolean;
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export function exerciseStart(previous: Stage, reference: Stage, text: Pick<ExerciseText, 'given' | 'edit'> | null): ExerciseStart {
  const given = new Set(text?.given ?? []);
  const missing = [...given].filter((name) => !reference.files.some((path) => baseName(path) === name));
  if (missing.length > 0) throw new Error(`the exercise gives ${missing.join(', ')}, which stage ${reference.index} does not have`);
  const files = [...previous.files.filter((path) => !given.has(baseName(path))), ...reference.files.filter((path) => given.has(baseName(path)))];
  const generated = [...previous.generated, ...reference.generated].filter((path) => files.includes(path));
  const edit = new Set(text?.edit ?? []);
  const readOnly = new Set(
    files.map(baseName).filter((name) => given.has(name) || generated.some((path) => baseName(path) === name) || (edit.size > 0 && !edit.has(name))),
  );
  const stage: Stage = { ...previous, id: `${previous.id}.exercise-${reference.index}`, files, generated };
  return { stage, readOnly, runsGenerator: edit.has('gen.ts') && files.some((path) => baseName(path) === 'gen.ts') };
}
