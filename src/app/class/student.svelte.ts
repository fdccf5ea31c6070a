// A student's run in a class: the class plan measured by the app's own bench engine
// (src/app/ui/run/browser.ts, the same workers as the bench page), its results posted to the
// class server as they arrive (the latest partial document every few seconds, then the
// finished one), so the board fills while the run goes. The student may cancel: what
// reached the board stays there, marked stopped, and the button runs the plan again.
// Posts go through the outbox (outbox.svelte.ts), which keeps them while the class
// server is out of reach and sends them when it is back.
import { startBenchmark, type Progress, type RunningBenchmark } from '../ui/run/browser.ts';
import type { Results } from '../../core/bench/results.ts';
import { current } from '../ui/run/current-run.svelte.ts';
import { classApi, ClassApiError, type Student } from './api.ts';
import type { ClassPlan } from '../../core/class/plan.ts';
import type { EntrySummary } from '../../core/class/summary.ts';
import { ResultsOutbox, waitingKey } from './outbox.svelte.ts';

export class StudentRun {
  running = $state(false);
  progress = $state.raw<Progress | null>(null);
  /** Why the run stopped, if it failed. */
  error = $state<string | null>(null);
  /** How the last run ended: measured to the end, or cancelled by the student. */
  ended = $state<'finished' | 'cancelled' | null>(null);
  /** This machine's results on their way to the board, kept while the class server is out of reach. */
  readonly outbox: ResultsOutbox;

  /** The run going on, and the promise that settles once it has ended and the page has caught up. */
  #run: { benchmark: RunningBenchmark; over: Promise<void> } | null = null;
  #cancelled = false;
  /** The ids of the current run's documents, and whether a post of one has gone out (so the board has a row saying it runs). */
  #runPosts = new Set<string>();
  #postedThisRun = false;

  constructor(
    readonly code: string,
    readonly student: Student,
    readonly onEntry: (entry: EntrySummary) => void,
  ) {
    this.outbox = new ResultsOutbox({
      student: student.id,
      key: waitingKey(code),
      send: async (post) => {
        try {
          return (await classApi.postResults(code, student, post.results, post.done, post.id)).entry;
        } catch (error) {
          // Removed by the teacher: the run stops too, its results have nowhere to go.
          if (error instanceof ClassApiError && error.status === 404) this.#run?.benchmark.cancel();
          throw error;
        }
      },
      onEntry: (entry) => onEntry(entry),
      onAttempt: (post) => {
        if (this.#runPosts.has(post.id)) this.#postedThisRun = true;
      },
    });
  }

  /** Why the last post was refused, if it was (a lost connection is not a refusal: the outbox waits). */
  get postError(): string | null {
    return this.outbox.error;
  }

  /** Whether the last run's final document reached the board. */
  get delivered(): boolean {
    return this.outbox.delivered;
  }

  /** The teacher removed this machine from the class: its posts are refused until it joins again. */
  get removed(): boolean {
    return this.outbox.removed;
  }

  start(plan: ClassPlan): void {
    if (this.running) return;
    this.running = true;
    this.progress = null;
    this.error = null;
    this.ended = null;
    this.outbox.error = null;
    this.outbox.delivered = false;
    this.outbox.clearNote();
    this.#cancelled = false;
    this.#runPosts = new Set();
    this.#postedThisRun = false;
    const run = startBenchmark(
      { contestants: plan.contestants, sizes: plan.sizes, rounds: plan.rounds },
      {
        onProgress: (progress) => (this.progress = progress),
        // A partial document without a single sample would only blank this machine's row (or an earlier run's figures).
        onResult: (partial) => {
          if (partial.runs.some((r) => r.nsPerOp.length > 0)) this.#queue(partial, false);
        },
      },
      { label: this.student.nickname },
    );
    const over = run.done
      .then((results) => {
        // Also this device's results everywhere else in the app (results page, stage pages).
        current.keep(results);
        this.ended = this.#cancelled ? 'cancelled' : 'finished';
        // A cancelled run that already shows on the board sends what it measured as its last
        // word (the server marks it stopped); one that posted nothing leaves the board as it was.
        if (!this.#cancelled || this.#postedThisRun) this.#queue(results, true);
        else this.outbox.discard();
      })
      .catch((error: unknown) => {
        this.error = error instanceof Error ? error.message : String(error);
      })
      .finally(() => {
        this.#run = null;
        this.running = false;
        this.progress = null;
      });
    this.#run = { benchmark: run, over };
  }

  /** Ends the run now (its workers are stopped) and resolves once it has; its figures so far go as start() says. */
  async cancel(): Promise<void> {
    if (!this.#run) return;
    this.#cancelled = true;
    this.#run.benchmark.cancel();
    await this.#run.over;
  }

  /** Sends what an earlier page kept for this machine, if anything. */
  resume(): void {
    this.outbox.resume();
  }

  /** The page is going away: nothing more is sent from it; a post still waiting stays kept for the next visit. */
  stop(): void {
    this.outbox.stop();
  }

  #queue(results: Results, done: boolean): void {
    const id = this.outbox.queue(results, done);
    if (id !== null) this.#runPosts.add(id);
  }
}
