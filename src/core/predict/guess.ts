// "Predict, then measure": before a learner measures a stage, they guess how it will
// stand against what it is compared with, by picking one of a few choices. Each stage
// from 1 on is a step over the stage before it ("How much faster will stage 5 be than
// stage 4?"); stage 0 has no stage before it, so it is set against Rust compiled to
// WebAssembly, as its step run measures it and as the article does (about 2000x slower).
// A guess is its choice's ratio, so a stored guess, a class post and a measurement are
// the same kind of number. Every guess that comes from outside (storage, a class post)
// is read here and must be one of its stage's choices. Pure: the app, the class server
// and the tests share it.
import { STAGES } from '../../../steps/index.ts';
import { BLAKE3_WASM } from '../../../steps/baseline-info.ts';

export interface GuessChoice {
  /** This stage's throughput over what it is compared with. */
  ratio: number;
  label: string;
}

/** One guess: which stage, and the ratio of the choice picked. */
export interface Guess {
  stage: number;
  ratio: number;
}

/** Guesses by stage index (as a string, as JSON keys are); a stage has at most one. */
export type Guesses = Record<string, number>;

/**
 * A step: slower (a change can cost), about the same, then the article's range (1.02x to
 * 3x) and past it. "slower" stands for 0.8x, so a slowdown of 10% or more reads as one.
 */
const STEP_CHOICES: readonly GuessChoice[] = [
  { ratio: 0.8, label: 'slower' },
  { ratio: 1, label: 'same' },
  ...[1.2, 1.5, 2, 3, 5, 10].map((ratio) => ({ ratio, label: `${ratio}x` })),
];

/** Stage 0 against Rust WASM: half-decades of slowness, 10,000x to 3x (the article: about 2000x). Slowest first, as for a step. */
const REFERENCE_CHOICES: readonly GuessChoice[] = [10_000, 3000, 1000, 300, 100, 30, 10, 3].map((slower) => ({
  ratio: 1 / slower,
  // Grouped by hand: toLocaleString would start the engine's number formatting while the page loads.
  label: `${String(slower).replace(/\B(?=(\d{3})+$)/g, ',')}x slower`,
}));

export const isStage = (stage: unknown): stage is number => Number.isInteger(stage) && (stage as number) >= 0 && (stage as number) < STAGES.length;

export function guessChoices(stage: number): readonly GuessChoice[] {
  return stage === 0 ? REFERENCE_CHOICES : STEP_CHOICES;
}

/** The contestant a stage is set against: the stage before it, or Rust WASM for stage 0. */
export function guessAgainst(stage: number): string {
  return stage === 0 ? BLAKE3_WASM.id : STAGES[stage - 1].id;
}

/** What it is set against, in words: "stage 4", "Rust WASM". */
export const againstName = (stage: number) => (stage === 0 ? 'Rust WASM' : `stage ${stage - 1}`);

/** The question the input asks (a class's board asks it of "your machine"). */
export function guessQuestion(stage: number, machine = 'this machine'): string {
  return stage === 0
    ? `How much slower than Rust WASM will stage 0 be on ${machine}?`
    : `How much faster will stage ${stage} be than stage ${stage - 1} on ${machine}?`;
}

/** The choice a ratio falls on: the nearest on a log scale (a measurement, the article's figure). */
export function nearestChoice(stage: number, ratio: number): number {
  const choices = guessChoices(stage);
  let best = 0;
  for (let i = 1; i < choices.length; i++) {
    if (Math.abs(Math.log(ratio / choices[i].ratio)) < Math.abs(Math.log(ratio / choices[best].ratio))) best = i;
  }
  return best;
}

/** The index of the choice whose ratio this is exactly, or -1. */
export const choiceIndex = (stage: number, ratio: unknown): number => guessChoices(stage).findIndex((c) => c.ratio === ratio);

/** A guess's label: "2x", "1,000x slower". */
export const guessLabel = (stage: number, ratio: number): string => guessChoices(stage)[choiceIndex(stage, ratio)]?.label ?? '–';

export type GuessCheck = { ok: true; guess: Guess } | { ok: false; error: string };

/** A guess from outside (a class post's body): exactly { stage, ratio }, the ratio one of the stage's choices. */
export function checkGuess(value: unknown): GuessCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'A guess is an object { "stage": 5, "ratio": 2 }' };
  const extra = Object.keys(value).find((key) => key !== 'stage' && key !== 'ratio');
  if (extra !== undefined) return { ok: false, error: `A guess has a field "${extra.slice(0, 40)}" that guesses do not have` };
  const { stage, ratio } = value as Record<string, unknown>;
  if (!isStage(stage)) return { ok: false, error: `A guess names a stage from 0 to ${STAGES.length - 1}` };
  if (choiceIndex(stage, ratio) < 0) {
    const labels = guessChoices(stage).map((c) => `${c.ratio} (${c.label})`);
    return { ok: false, error: `A guess for stage ${stage} is one of the ratios ${labels.join(', ')}` };
  }
  return { ok: true, guess: { stage, ratio: ratio as number } };
}

/** Guesses as stored (this browser's, a class machine's): the good ones kept, how many were not. */
export function readGuesses(value: unknown): { guesses: Guesses; dropped: number } {
  const guesses: Guesses = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { guesses, dropped: value === undefined || value === null ? 0 : 1 };
  let dropped = 0;
  for (const [key, ratio] of Object.entries(value)) {
    const stage = /^(0|[1-9]\d?)$/.test(key) ? Number(key) : NaN;
    if (isStage(stage) && choiceIndex(stage, ratio) >= 0) guesses[String(stage)] = ratio as number;
    else dropped++;
  }
  return { guesses, dropped };
}

/**
 * This browser's guesses as localStorage keeps them (JSON of Guesses), read back: the good
 * ones, and a sentence when something stored could not be read (those are left out, the
 * rest kept).
 */
export function parseStoredGuesses(text: string | null): { guesses: Guesses; problem: string | null } {
  if (text === null || text === '') return { guesses: {}, problem: null };
  const unreadable = { guesses: {}, problem: 'The guesses stored in this browser could not be read, so none are shown; a new guess replaces them.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return unreadable;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return unreadable;
  const { guesses, dropped } = readGuesses(value);
  if (dropped === 0) return { guesses, problem: null };
  const kept = Object.keys(guesses).length;
  const what = dropped === 1 ? 'One stored guess was' : `${dropped} stored guesses were`;
  return { guesses, problem: `${what} not a choice this lab offers and ${dropped === 1 ? 'is' : 'are'} left out${kept > 0 ? `; the other ${kept === 1 ? 'one is' : `${kept} are`} kept` : ''}.` };
}

/** A guess as the stage page sets it beside the figures: "2x stage 4", "the same as stage 4", "1,000x slower than Rust WASM". */
export function guessPhrase(stage: number, ratio: number): string {
  const label = guessLabel(stage, ratio);
  if (stage === 0) return `${label} than Rust WASM`;
  if (ratio === 1) return `the same as ${againstName(stage)}`;
  return ratio < 1 ? `${label} than ${againstName(stage)}` : `${label} ${againstName(stage)}`;
}
