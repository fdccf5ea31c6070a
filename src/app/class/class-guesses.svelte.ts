// A student's guesses reaching their class. The guesses are this browser's, kept with its
// ladder (current-run.svelte.ts), made on the class page or on the stage pages; each one
// for a stage the class plan measures is sent when the board does not have it yet, one
// post at a time. Refused for pace, a guess waits as the server asks and goes again; with
// the server out of reach it waits too (the page says so), and goes when the connection
// returns (retryNow) or on a retry a few seconds later; refused for anything else, it is
// not sent again until the student changes it, and the page says why.
import type { EntrySummary } from '../../core/class/summary.ts';
import type { Guesses } from '../../core/predict/guess.ts';
import { classApi, ClassApiError, type Student } from './api.ts';

/** Seconds to wait after a 429 that named none, or while the server cannot be reached. */
const RETRY_S = 2;

export class ClassGuesses {
  /** Why the last guess was refused, if it was. */
  error = $state<string | null>(null);
  /** A guess waits for the connection to the class server to return. */
  waiting = $state(false);

  /** Guesses to send, by stage: a newer guess for a stage replaces one waiting. */
  readonly #waiting = new Map<number, number>();
  /** Guesses the server refused, by stage, until the student changes them. */
  readonly #refused = new Map<number, number>();
  #sending: { stage: number; ratio: number } | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopped = false;

  constructor(
    readonly code: string,
    readonly student: Student,
    readonly onEntry: (entry: EntrySummary) => void,
  ) {}

  /** Sends every kept guess among `stages` that the board's row for this machine (`onBoard`) lacks. */
  sync(stages: number[], kept: Guesses, onBoard: Guesses = {}): void {
    for (const stage of stages) {
      const ratio = kept[String(stage)];
      if (ratio === undefined || onBoard[String(stage)] === ratio || this.#refused.get(stage) === ratio) continue;
      if (this.#sending?.stage === stage && this.#sending.ratio === ratio) continue;
      this.#waiting.set(stage, ratio);
    }
    this.#next(0);
  }

  /** The connection seems back: a guess waiting for it goes now. */
  retryNow(): void {
    if (!this.waiting || this.#sending) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#next(0);
  }

  /** The page is going away: nothing more is sent. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Sends the next waiting guess in `waitMs` (never, for -1: retryNow sends it). */
  #next(waitMs: number): void {
    if (this.#stopped || this.#sending || this.#timer !== null || this.#waiting.size === 0 || waitMs < 0) return;
    this.#timer = setTimeout(() => void this.#send(), waitMs);
  }

  async #send(): Promise<void> {
    this.#timer = null;
    const [stage, ratio] = this.#waiting.entries().next().value!;
    this.#waiting.delete(stage);
    this.#sending = { stage, ratio };
    let waitMs = 0;
    try {
      const { entry } = await classApi.postGuess(this.code, this.student, { stage, ratio });
      this.onEntry(entry);
      this.error = null;
      this.waiting = false;
    } catch (error) {
      const unreachable = error instanceof ClassApiError && (error.status === 0 || error.status >= 500);
      if (error instanceof ClassApiError && (error.status === 429 || unreachable)) {
        if (!this.#waiting.has(stage)) this.#waiting.set(stage, ratio);
        waitMs = (error.retryAfter ?? RETRY_S) * 1000;
        this.waiting = unreachable;
        // The browser knows it has no network: nothing is tried until it has one (retryNow).
        if (unreachable && globalThis.navigator?.onLine === false) waitMs = -1;
      } else {
        this.#refused.set(stage, ratio);
        this.error = error instanceof Error ? error.message : String(error);
      }
    } finally {
      this.#sending = null;
    }
    this.#next(waitMs);
  }
}
