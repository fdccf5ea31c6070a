// The one line a stage page says once a guess meets a measurement: what the difference
// teaches. It is made from the numbers, never typed: the guess, this machine's figure
// and the article's each fall on the nearest of the stage's choices (guess.ts), and the
// line compares those places. Two places apart or one, the finding is the same: a guess
// over or under the machine, and an article that agrees with it or not (for example,
// that the M1 Max and this machine disagree).
import { nearestChoice } from './guess.ts';

export interface LessonFigures {
  stage: number;
  /** The learner's guess (a choice's ratio), or null when they made none. */
  guess: number | null;
  /** This machine's ratio. */
  measured: number;
  /** Whether the measured difference is a finding; when it is noise it reads as "same". */
  clear: boolean;
  /** The article's ratio for the same comparison, or null where it gives none. */
  article: number | null;
}

/** -1, 0 or 1: where choice `a` falls against choice `b` (indices in the stage's choices, slowest first). */
const compare = (a: number, b: number) => Math.sign(a - b);

function aboutTheGuess(stage: number, guess: number, here: number, clear: boolean): string {
  const order = compare(guess, here);
  if (stage === 0) {
    if (order === 0) return 'Your guess matched this machine';
    return order > 0 ? 'Stage 0 fell further behind Rust WASM here than you guessed' : 'Stage 0 kept closer to Rust WASM here than you guessed';
  }
  if (!clear) {
    if (order === 0) return 'Your guess matched: this machine could not tell the two stages apart';
    return order > 0 ? 'You expected a gain this machine could not measure' : 'You expected a loss this machine could not measure';
  }
  if (order === 0) return 'Your guess matched this machine';
  return order > 0 ? 'This machine gained less than you guessed' : 'This machine gained more than you guessed';
}

function aboutTheArticle(stage: number, article: number | null, here: number): string {
  if (article === null) return 'the article gives no figure here, so this machine’s is the only answer';
  const order = compare(article, here);
  if (stage === 0) {
    if (order === 0) return 'the article’s M1 Max saw about the same gap';
    return `the article’s M1 Max and this machine disagree (it ${order > 0 ? 'stayed closer to' : 'fell further behind'} Rust WASM there): the gap depends on the processor and the engine`;
  }
  if (order === 0) return 'the article’s M1 Max measured about the same, so the change pays alike on both';
  return `the article’s M1 Max and this machine disagree (it gained ${order > 0 ? 'more' : 'less'} there): a change pays differently on another processor and engine`;
}

/** One sentence: the guess against this machine, then the article against this machine. */
export function guessLesson({ stage, guess, measured, clear, article }: LessonFigures): string {
  const here = nearestChoice(stage, clear || stage === 0 ? measured : 1);
  const place = (ratio: number) => nearestChoice(stage, ratio);
  const articleSays = aboutTheArticle(stage, article === null ? null : place(article), here);
  if (guess === null) return `${articleSays.charAt(0).toUpperCase()}${articleSays.slice(1)}.`;
  return `${aboutTheGuess(stage, place(guess), here, clear)}; ${articleSays}.`;
}

