// How an exercise attempt reaches the class board. The exercise page and the class pages
// are tabs of the app, which never import each other, so they meet here: the class's
// side registers its relay when the app starts (src/app/class/server.svelte.ts), and the
// exercise page hands each finished attempt to it. Without a relay (a page the class
// server did not serve) nothing is sent.
import type { ExerciseVerdict } from '../exercise/goal.ts';
import { exerciseOutcome, type ExerciseOutcome } from './exercise.ts';

export interface ExerciseRelay {
  /** The code of the class this browser joined whose plan names `exercise`, or null. */
  classFor(exercise: number): Promise<string | null>;
  /** Sends an attempt's outcome to that class; resolves to a sentence for the exercise page, or null when no class takes it. */
  send(outcome: ExerciseOutcome): Promise<string | null>;
}

let relay: ExerciseRelay | null = null;

export function setExerciseRelay(next: ExerciseRelay | null): void {
  relay = next;
}

/** The class whose board takes this exercise's attempts from this browser, or null. */
export function exerciseClass(exercise: number): Promise<string | null> {
  return relay?.classFor(exercise) ?? Promise.resolve(null);
}

/** Sends a finished attempt's outcome (its figures, never its files) to the class whose plan names the exercise, if any. */
export function postExerciseOutcome(exercise: number, verdict: ExerciseVerdict | null, check: { ok: boolean }): Promise<string | null> {
  return relay?.send(exerciseOutcome(exercise, verdict, check)) ?? Promise.resolve(null);
}
