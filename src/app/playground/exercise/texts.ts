// The exercise's authored words (its introduction, hints 3 and 4, the sizes it is judged
// at), read from the stage's Markdown by the lesson's reader.
export { exerciseText, type ExerciseText } from '../../ui/lesson/exercise-texts.ts';

/** The sizes an exercise is judged at when its text names none. */
export const DEFAULT_SIZES = [1024, 65536];
