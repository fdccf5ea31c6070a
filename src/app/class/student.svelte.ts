// A student's run in a class: the class plan measured by the app's own bench engine
// (src/app/bench/browser.ts, the same workers as the bench page), its results posted to the
// class server as they arrive (the latest partial document every few seconds, then the
// finished one), so the board fills while the run goes. The student may cancel: what
// reached the board stays there, marked stopped, and the button runs the plan again.
import { startBenchmark, type Progress, type RunningBenchmark } from '../bench/browser.ts';
import type { Results } from '../../core/bench/results.ts';
import { current } from '../ui/current-run.svelte.ts';
import { classApi, ClassApiError, type Student } from './api.ts';
import type { ClassPlan } from '../../core/class/plan.ts';
import type { EntrySummary } from '../../core/class/summary.ts';
// Partial results go out at most every POST_EVERY_MS: well inside the server's per-student limit (one every 2 s).
import { POST_EVERY_MS } from '../../core/class/protocol.ts';

export class StudentRun {
  running = $state(false);
  progress = $state.raw<Progress | null>(null);
  /** Why the run stopped, if it failed. */
  error = $state<string | null>(null);
  /** Why the last post was refused, if it was. */
  postError = $state<string | null>(null);
  /** Whether the last run's final document reached the board. */
  delivered = $state(false);
  /** The teacher removed this machine from the class: its posts are refused until it joins again. */
  removed = $state(false);
  /** How the last run ended: measured to the end, or cancelled by the student. */
  ended = $state<'finished' | 'cancelled' | null>(null);

  /** The run going on, and the promise that settles once it has ended and the page has caught up. */
  #run: { benchmark: RunningBenchmark; over: Promise<void> } | null = null;
  #cancelled = false;
  /** Whether a post of the current run has gone out, so the board has a row saying it runs. */
  #postedThisRun = false;
  #pending: { results: Results; done: boolean } | null = null;
  #posting = false;
  #lastPost = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly code: string,
    readonly student: Student,
    readonly onEntry: (entry: EntrySummary) => void,
  ) {}

  start(plan: ClassPlan): void {
    if (this.running) return;
    this.running = true;
    this.progress = null;
    this.error = null;
    this.postError = null;
    this.delivered = false;
    this.ended = null;
    this.#cancelled = false;
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
        else this.stop();
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

  /** Forgets any document waiting to be posted: the page is going away, or nothing of a cancelled run is to show. */
  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#pending = null;
  }

  #queue(results: Results, done: boolean): void {
    // A finished document replaces any partial one waiting; a partial never replaces a finished one.
    if (this.#pending?.done && !done) return;
    this.#pending = { results, done };
    this.#schedule(done ? 0 : Math.max(0, this.#lastPost + POST_EVERY_MS - performance.now()));
  }

  #schedule(wait: number): void {
    if (this.#posting) return; // the post in flight schedules the next when it ends
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#post(), wait);
  }

  async #post(): Promise<void> {
    this.#timer = null;
    const next = this.#pending;
    if (!next) return;
    this.#pending = null;
    this.#posting = true;
    this.#postedThisRun = true;
    this.#lastPost = performance.now();
    let retryMs = 0;
    try {
      const { entry } = await classApi.postResults(this.code, this.student, next.results, next.done);
      this.onEntry(entry);
      this.postError = null;
      if (next.done) this.delivered = true;
    } catch (error) {
      this.postError = error instanceof Error ? error.message : String(error);
      if (error instanceof ClassApiError && error.status === 404) {
        this.removed = true;
        this.#run?.benchmark.cancel();
      }
      // Refused for pace or unreachable for a moment: try again with this document unless a newer one came.
      if (error instanceof ClassApiError && (error.status === 429 || error.status === 0)) {
        this.#pending ??= next;
        retryMs = POST_EVERY_MS;
      }
    } finally {
      this.#posting = false;
    }
    if (this.#pending) this.#schedule(Math.max(retryMs, this.#pending.done ? 0 : POST_EVERY_MS));
  }
}
