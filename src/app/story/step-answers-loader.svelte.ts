// This machine's figures as a stage page's header reads them (step-answer.ts: the model of
// the results, with the statistics behind every figure). Only results need it, and a first
// visit has none: it loads with the first results in this browser, or before the first
// paint when the ladder already holds some (src/app/shell/main.ts), so a page that has
// figures to show never opens without them.
import type * as StepAnswers from './step-answer.ts';
import { current } from '../ui/run/current-run.svelte.ts';

class ResultsReading {
  /** step-answer.ts, once loaded. */
  answers = $state.raw<typeof StepAnswers | null>(null);
  #loading: Promise<void> | null = null;

  load(): Promise<void> {
    this.#loading ??= import('./step-answer.ts').then((module) => {
      this.answers = module;
    });
    return this.#loading;
  }
}

export const resultsReading = new ResultsReading();

/**
 * When the app starts (src/app/shell/main.ts): loads the reading when this browser holds
 * results, and resolves once it is there (at once on a first visit, which has none), so the
 * app is mounted after it. Never rejects: the app mounts either way.
 */
export function startStepAnswers(): Promise<void> {
  return current.results ? resultsReading.load().catch(() => undefined) : Promise.resolve();
}
