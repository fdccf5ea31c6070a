// The class's side of the exercise relay (src/core/class/exercise-relay.ts): the class
// this browser joined whose plan names the exercise, and each attempt's outcome posted
// there as the machine it joined as, with that machine's token (identity.ts), as its
// results are. Asked afresh each time: the teacher may name another exercise meanwhile.
import type { ExerciseRelay } from '../../core/class/exercise-relay.ts';
import { classApi, type Student } from './api.ts';
import { joinedClasses, savedStudent } from './identity.ts';

/** The first open class this browser joined whose plan names `exercise`; classes gone or out of reach take nothing. */
async function joinedFor(exercise: number): Promise<{ code: string; student: Student } | null> {
  for (const code of joinedClasses()) {
    const student = savedStudent(code);
    if (!student) continue;
    try {
      const info = await classApi.info(code);
      if (info.state === 'open' && info.plan.exercise === exercise) return { code, student };
    } catch {
      // Not this one: try the next.
    }
  }
  return null;
}

export const exerciseRelay: ExerciseRelay = {
  classFor: async (exercise) => (await joinedFor(exercise))?.code ?? null,
  async send(outcome) {
    const joined = await joinedFor(outcome.exercise);
    if (!joined) return null;
    try {
      await classApi.postExercise(joined.code, joined.student, outcome);
      return `This attempt’s outcome is on the board of class ${joined.code}.`;
    } catch (error) {
      return `The board of class ${joined.code} did not take this attempt: ${error instanceof Error ? error.message : String(error)}.`;
    }
  },
};
