// A class's guesses as every board counts them: which stages a class plan lets its
// students guess, and how many guessed each choice of a stage. Shared by the board's page
// (src/app/class/board.ts) and the load test, which checks the projector's stream by it.
import { STAGES } from '../../../steps/index.ts';
import { choiceIndex, guessAgainst, guessChoices } from '../predict/guess.ts';
import type { ClassPlan } from './plan.ts';
import type { EntrySummary } from './summary.ts';

/** The stages a class can guess: those whose step (stage 0: against Rust WASM) the plan measures. */
export function guessStages(plan: ClassPlan): number[] {
  return STAGES.filter((stage) => plan.contestants.includes(stage.id) && plan.contestants.includes(guessAgainst(stage.index))).map((stage) => stage.index);
}

/** How many of these machines guessed each of the stage's choices. */
export function guessTally(entries: Pick<EntrySummary, 'guesses'>[], stage: number): number[] {
  const counts = guessChoices(stage).map(() => 0);
  for (const entry of entries) {
    const index = choiceIndex(stage, entry.guesses?.[String(stage)]);
    if (index >= 0) counts[index]++;
  }
  return counts;
}
