// The published figures of the Go talk this track retells: George Tankersley's
// "Micro-Optimizing Go Code" (GopherCon 2018), which took a BLAKE2s written from RFC
// 7693 through inlining, bounds-check elimination, arrays, clearing and buffer reuse.
// Figures as printed on the slides (benchstat's old format, samples per side not
// printed); the benchmark names end in -4, so the machine ran them with four threads.

export const TALK = {
  title: 'Micro-Optimizing Go Code',
  speaker: 'George Tankersley',
  event: 'GopherCon 2018',
  // The slides' text is our source; the talk names only its code's repository, so that
  // is the one address given (no slide-hosting address or day is in the sources).
  code: 'https://github.com/gtank/blake2s',
  machine: 'the speaker’s machine, GOMAXPROCS 4 (names end in -4)',
} as const;

import TABLES from '../../../data/go/talk-tables.json';
import { GO_TRACK } from '../../../go/index.ts';

export interface PublishedRow {
  name: string;
  old: string;
  new: string;
  /** "-25.71%", or "~" where benchstat found no significant difference. */
  delta: string;
  p: string;
}

export interface PublishedTable {
  /** Where in the talk the table is. */
  where: string;
  /** What was compared: "old" and "new" in the talk's words. */
  compares: string;
  time: PublishedRow[];
  speed: PublishedRow[];
}

/** Slide 2: the first implementation against the last, the whole talk in one table. */
export const TALK_SUMMARY: PublishedTable = {
  where: `slide 2, “${TABLES.summary.slide}”`,
  compares: 'the first implementation (old) against the last (new)',
  time: TABLES.summary.time,
  speed: TABLES.summary.speed,
};

/** One step's table: the "Results" slide after the step, with the command the talk ran. */
export interface PublishedStep extends PublishedTable {
  /** The Go stage this step's table is for, by id: "01-inline-g". */
  stage: string;
  /** "benchstat baseline inlinable_g", as on the slide. */
  command: string;
  /** The talk's names for the code before and after the step, its command's two arguments: "baseline", "inlinable_g". */
  before: string;
  after: string;
  /**
   * Set when this table's absolute times do not continue from the table before: the talk
   * measured this step in another session, so only its deltas compare. Our words, the
   * talk's figures (the two 8-byte times that do not meet).
   */
  discontinuity: string | null;
}

const first = (rows: PublishedRow[]) => rows[0].old.split(' ')[0];
const last = (rows: PublishedRow[]) => rows[0].new.split(' ')[0];

function discontinuity(step: (typeof TABLES.steps)[number], before: (typeof TABLES.steps)[number] | undefined): string | null {
  if (!before || first(step.time) === last(before.time)) return null;
  return `The talk’s times in this table do not continue from its table for the step before: that one ended at ${last(before.time)} for 8 bytes, this one starts at ${first(step.time)}. Compare each table’s deltas; never chain times across tables.`;
}

function stepOf(step: (typeof TABLES.steps)[number], i: number): PublishedStep {
  const [, before, after] = step.command.split(' ');
  return {
    stage: step.stage,
    where: `the “Results” slide after “${after}”`,
    compares: `${before} (old) against ${after} (new)`,
    command: step.command,
    before,
    after,
    time: step.time,
    speed: step.speed,
    discontinuity: discontinuity(step, TABLES.steps[i - 1]),
  };
}

/**
 * The talk's table for each step, by the Go stage's id (its `stage` in the JSON); the
 * first stage is the start and has none. The Go stages follow the talk's steps one for
 * one; stage 2 makes only the bounds-check part of the talk's step (its page says so).
 */
export const TALK_STEPS: Readonly<Record<string, PublishedStep | undefined>> = Object.fromEntries(TABLES.steps.map((step, i) => [step.stage, stepOf(step, i)]));

/**
 * The talk's name for each Go stage's code (its branch), by the stage's id: the "new" of
 * the stage's own step, and for the start, which has no step, the "old" of the step after it.
 */
export const TALK_CODE: Readonly<Record<string, string | undefined>> = (() => {
  const codes: Record<string, string> = {};
  for (const step of Object.values(TALK_STEPS)) {
    if (!step) continue;
    const previous = GO_TRACK[GO_TRACK.findIndex((stage) => stage.id === step.stage) - 1];
    if (previous && !(previous.id in codes)) codes[previous.id] = step.before;
    codes[step.stage] = step.after;
  }
  return codes;
})();
