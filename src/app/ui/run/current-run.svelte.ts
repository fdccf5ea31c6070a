// The result set the app shows as "yours": this device's ladder (every run here merged,
// the newest figure per contestant, size and browser kept; live while a run goes) or a
// file the user imported, shown in its place for a visit without touching the ladder.
// The ladder is kept in localStorage so the stage pages still show this machine's
// numbers after a reload, and read back through the validator like any other document
// from outside the page. A document stored by an older version (one run, replaced by
// the next) loads as a ladder of that one run. The learner's guesses (one per stage,
// made before measuring it) are kept beside the ladder and cleared with it.
import type { Results } from '../../../core/bench/results.ts';
import { parseStoredGuesses, type Guesses } from '../../../core/predict/guess.ts';
import { parseResultsJson } from '../../../core/results/io/validate.ts';
import { mergeResults, type RunRecord } from '../../../core/results/merge.ts';

const STORAGE_KEY = 'blake3-lab:results';
const HISTORY_KEY = 'blake3-lab:history';
const GUESSES_KEY = 'blake3-lab:guesses';
/** Runs remembered for "3 runs in this browser"; the figures themselves are in the ladder. */
const MAX_HISTORY = 50;

export type ResultsSource = 'run' | 'live' | 'import';

function stored(): Results | null {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    if (!text) return null;
    const parsed = parseResultsJson(text);
    // A stored document from an older version of the app that no longer validates is dropped, not shown half-read.
    if (!parsed.ok) localStorage.removeItem(STORAGE_KEY);
    return parsed.ok ? parsed.results : null;
  } catch {
    return null; // storage disabled: the results live as long as the page
  }
}

function isRecord(value: unknown): value is RunRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.date === 'string' && Array.isArray(record.contestants) && record.contestants.every((c) => typeof c === 'string');
}

/** The run history; an older app stored none, so its one stored run counts as one. */
function storedHistory(results: Results | null): RunRecord[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? 'null');
    if (Array.isArray(parsed)) return parsed.filter(isRecord).slice(-MAX_HISTORY);
  } catch {
    // unreadable: start again from what the ladder holds
  }
  return results ? [{ date: results.env.date, contestants: results.contestants.map((c) => c.id) }] : [];
}

function storedGuesses(): ReturnType<typeof parseStoredGuesses> {
  try {
    return parseStoredGuesses(localStorage.getItem(GUESSES_KEY));
  } catch {
    return { guesses: {}, problem: null }; // storage disabled: guesses live as long as the page
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Full or disabled storage: still shown for this visit.
  }
}

const keptGuesses = storedGuesses();

class CurrentResults {
  /** Large sample arrays: replaced whole, never deeply proxied. */
  results = $state.raw<Results | null>(stored());
  source = $state<ResultsSource>('run');
  /** Where an imported set came from (a file name), for the page heading. */
  origin = $state<string | null>(null);
  /** The runs in this browser whose figures the ladder holds, oldest first. */
  history = $state.raw<RunRecord[]>(storedHistory(this.results));

  /** The learner's guesses by stage, kept with the ladder. */
  guesses = $state.raw<Guesses>(keptGuesses.guesses);
  /** What could not be read of the stored guesses, if anything (the rest are kept). */
  guessProblem = $state<string | null>(keptGuesses.problem);

  /** This device's ladder, without a run in progress: what a finished run merges into. */
  #ladder: Results | null = this.results;

  /** A partial document from a run in progress: shown over the ladder, not stored. */
  showLive(results: Results): void {
    this.results = mergeResults(this.#ladder, results);
    this.source = 'live';
    this.origin = null;
  }

  /** A finished (or cancelled) run: it joins this device's ladder, which is shown and remembered. */
  keep(results: Results): void {
    const merged = mergeResults(this.#ladder, results);
    this.history = [...this.history, { date: results.env.date, contestants: results.contestants.map((c) => c.id) }].slice(-MAX_HISTORY);
    this.#ladder = merged;
    this.results = merged;
    this.source = 'run';
    this.origin = null;
    write(STORAGE_KEY, merged);
    write(HISTORY_KEY, this.history);
  }

  /** An imported file, shown in the ladder's place for this visit; the ladder itself is kept. */
  showImported(results: Results, origin: string | null): void {
    this.results = results;
    this.source = 'import';
    this.origin = origin;
  }

  /** Back from an imported file to this device's ladder. */
  showLadder(): void {
    this.results = this.#ladder;
    this.source = 'run';
    this.origin = null;
  }

  /** Keeps a guess for a stage (a choice's ratio; guess.ts), replacing any earlier one. */
  guess(stage: number, ratio: number): void {
    this.guesses = { ...this.guesses, [String(stage)]: ratio };
    this.guessProblem = null;
    write(GUESSES_KEY, this.guesses);
  }

  clear(): void {
    this.results = null;
    this.guesses = {};
    this.guessProblem = null;
    this.#ladder = null;
    this.history = [];
    this.origin = null;
    this.source = 'run';
    try {
      localStorage.removeItem(STORAGE_KEY);
      localStorage.removeItem(HISTORY_KEY);
      localStorage.removeItem(GUESSES_KEY);
    } catch {
      // nothing stored to remove
    }
  }
}

export const current = new CurrentResults();
