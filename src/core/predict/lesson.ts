// The one line a stage page says once a guess meets a measurement: what the difference
// teaches. It is made from the numbers, never typed. The guess and a clear measurement
// each fall on the nearest of the stage's choices (guess.ts), and the line compares those
// places. The article is set against the step's interval, not against a place: its
// figure inside the interval does not disagree with this machine, whatever the median,
// and a run that could not tell the two stages apart says so, with its median, rather
// than reading as "the same" and starting a disagreement it never measured.
import { nearestChoice } from './guess.ts';

export interface LessonFigures {
  stage: number;
  /** The learner's guess (a choice's ratio), or null when they made none. */
  guess: number | null;
  /** This machine's ratio (the median's). */
  measured: number;
  /** Whether the measured difference is a finding. */
  clear: boolean;
  /** The widest ratio this machine's 95% intervals allow, or null when unbounded. */
  range: [number, number] | null;
  /** The article's ratio for the same comparison, or null where it gives none. */
  article: number | null;
}

/** -1, 0 or 1: where choice `a` falls against choice `b` (indices in the stage's choices, slowest first). */
const compare = (a: number, b: number) => Math.sign(a - b);

/** "1.46x", or for stage 0 "about 420x slower". */
function ratioText(stage: number, ratio: number): string {
  const digits = (x: number) => (x >= 100 ? String(Math.round(x)) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  return stage === 0 && ratio < 1 ? `about ${digits(1 / ratio)}x slower` : `${digits(ratio)}x`;
}

/** -1 below the range, 1 above it, 0 inside (or when there is no range to be outside of). */
function beside(ratio: number, range: [number, number] | null): number {
  if (!range) return 0;
  return ratio < range[0] ? -1 : ratio > range[1] ? 1 : 0;
}

function aboutTheGuess({ stage, guess, measured, clear, range }: LessonFigures & { guess: number }): string {
  if (stage === 0) {
    const order = compare(nearestChoice(stage, guess), nearestChoice(stage, measured));
    if (order === 0) return 'Your guess matched this machine';
    return order > 0 ? 'Stage 0 fell further behind Rust WASM here than you guessed' : 'Stage 0 kept closer to Rust WASM here than you guessed';
  }
  if (!clear) {
    const median = `median ${ratioText(stage, measured)}`;
    if (guess === 1) return `Your guess matched: this machine could not tell the two stages apart (${median})`;
    // A guess the interval holds is neither confirmed nor refuted; one outside it was not seen.
    const side = beside(guess, range);
    if (side === 0) return `This machine could not tell the two stages apart (${median}), so your guess is neither confirmed nor ruled out`;
    return `${side > 0 ? 'You expected a gain' : 'You expected a loss'} this machine could not measure (${median})`;
  }
  const order = compare(nearestChoice(stage, guess), nearestChoice(stage, measured));
  if (order === 0) return 'Your guess matched this machine';
  return order > 0 ? 'This machine gained less than you guessed' : 'This machine gained more than you guessed';
}

function aboutTheArticle({ stage, article, measured, clear, range }: LessonFigures): string {
  if (article === null) return 'the article gives no figure here, so this machine’s is the only answer';
  // Without an interval (too few samples), a clear figure is compared by its place among the choices.
  const side = range || !clear ? beside(article, range) : compare(nearestChoice(stage, article), nearestChoice(stage, measured));
  const figure = ratioText(stage, article);
  if (stage === 0) {
    if (side === 0) return `the article’s M1 Max saw about the same gap (${figure} than Rust WASM)`;
    return `the article’s M1 Max and this machine disagree (it ${side > 0 ? 'stayed closer to' : 'fell further behind'} Rust WASM there): the gap depends on the processor and the engine`;
  }
  if (side === 0) {
    return clear
      ? `the article’s M1 Max measured about the same (${figure}), so the change pays alike on both`
      : `the article’s ${figure} lies within this run’s range, so this run cannot tell whether the M1 Max differs; more rounds could`;
  }
  return `the article’s M1 Max and this machine disagree (it gained ${side > 0 ? 'more' : 'less'} there, ${figure}, outside this run’s range): a change pays differently on another processor and engine`;
}

/** One sentence: the guess against this machine, then the article against this machine. */
export function guessLesson(figures: LessonFigures): string {
  const articleSays = aboutTheArticle(figures);
  const { guess } = figures;
  if (guess === null) return `${articleSays.charAt(0).toUpperCase()}${articleSays.slice(1)}.`;
  return `${aboutTheGuess({ ...figures, guess })}; ${articleSays}.`;
}
