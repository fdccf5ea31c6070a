// The words of each stage's exercise ("make this step yourself"), from the stage's
// Markdown in content/stages/<id>.md as the content plugin hands it over at build time;
// src/core/content/exercise.ts reads the sections and refuses a malformed one.
import { STAGES } from '../../../../steps/index.ts';
import type { MarkdownDoc } from '../../../core/content/markdown.ts';
import { readExercise, type ExerciseText } from '../../../core/content/exercise.ts';

export { readExercise, type ExerciseText, type ExerciseTurn, type TurnKind } from '../../../core/content/exercise.ts';

const FILES = import.meta.glob<MarkdownDoc>('/content/stages/*.md', { eager: true, import: 'default' });

const BY_STAGE = new Map(
  Object.entries(FILES).map(([path, doc]) => {
    const id = path.replace(/^.*\//, '').replace(/\.md$/, '');
    return [id, readExercise(doc, path.replace(/^\//, ''))] as const;
  }),
);

/** The exercise of stage `stageIndex` (its place in steps/index.ts), or null for a stage without one. */
export function exerciseText(stageIndex: number): ExerciseText | null {
  const stage = STAGES[stageIndex];
  return stage ? (BY_STAGE.get(stage.id) ?? null) : null;
}
