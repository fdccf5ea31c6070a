// The benchmark as the page drives it: the plan being edited, the run in progress
// (progress, cancel) and where its results go. It lives at module level, so a run keeps
// going while the reader visits a stage page, and the form keeps its choices.
import { DEFAULT_ROUNDS, DEFAULT_SIZES, listContestants, startBenchmark, type Progress, type RunningBenchmark } from '../ui/run/browser.ts';
import { detectCapabilities, missingCapability } from '../../core/bench/capabilities.ts';
import type { Contestant } from '../../core/bench/contestants.ts';
import { MAX_PLAN_ROUNDS } from '../../core/bench/plan.ts';
import type { Results } from '../../core/bench/results.ts';
import { BASELINE_INFO } from '../../../steps/baseline-info.ts';
import { MAX_TEXT } from '../../core/results/io/limits.ts';
import { current } from '../ui/run/current-run.svelte.ts';
import { MIN_ROUNDS_FOR_INTERVAL } from '../../core/results/text/short-run.ts';
import { benchPageRun } from '../ui/run/bench-running.svelte.ts';
import { DEFAULT_CLEAR_LIMIT_MIN, DEFAULT_CLEAR_PERCENT, isClear, MAX_CLEAR_ROUNDS, widest, type Widest } from '../../core/results/analysis/until-clear.ts';

/** What ended a run that runs until the answer is clear, for the status line. */
export interface ClearEnd {
  by: 'width' | 'limit' | 'rounds';
  rounds: number;
  /** The least certain figure when the run ended. */
  widest: Widest | null;
}

/** The baselines a run includes unless the reader changes it (display.defaultOn in steps/baseline-info.ts). */
export const DEFAULT_BASELINES = BASELINE_INFO.filter((info) => info.display.defaultOn).map((info) => info.id);

/** Live results are redrawn at most this often: statistics and charts for every sample would only burn the main thread. */
const LIVE_REFRESH_MS = 300;

export const MAX_LABEL_CHARS = MAX_TEXT.label;

export interface Choice {
  contestant: Contestant;
  /** Why it cannot run in this browser; it can still be picked, and the results will say so. */
  unavailable?: string;
}

function choices(): Choice[] {
  const capabilities = detectCapabilities();
  const faults = new URLSearchParams(location.search).has('faults');
  return listContestants({ faults }).map((contestant) => {
    const unavailable = missingCapability(contestant.requires, capabilities);
    return unavailable ? { contestant, unavailable } : { contestant };
  });
}

export class BenchSession {
  readonly choices: Choice[] = choices();
  selected = $state<string[]>(
    this.choices.filter((c) => c.contestant.kind === 'stage' || DEFAULT_BASELINES.includes(c.contestant.id)).map((c) => c.contestant.id),
  );
  sizes = $state<number[]>([...DEFAULT_SIZES]);
  rounds = $state(DEFAULT_ROUNDS);
  /** Every input in a SharedArrayBuffer (see BenchPlan.sharedInput); only where the page is cross-origin isolated. */
  sharedInput = $state(false);
  /** A fixed number of rounds, or rounds until every step is known to ±clearPercent (or clearMinutes pass). */
  stopWhen = $state<'rounds' | 'clear'>('rounds');
  clearPercent = $state(DEFAULT_CLEAR_PERCENT);
  clearMinutes = $state(DEFAULT_CLEAR_LIMIT_MIN);
  clearEnd = $state.raw<ClearEnd | null>(null);
  label = $state('');

  get running(): boolean {
    return benchPageRun.going;
  }
  set running(going: boolean) {
    benchPageRun.going = going;
  }
  progress = $state.raw<Progress | null>(null);
  /** performance.now() at the start and the end of the last run. */
  startedAt = $state(0);
  finishedAt = $state(0);
  error = $state<string | null>(null);
  /** This page's run (live, then finished): the bench shows it alone; the ladder has it merged with the rest. */
  shown = $state.raw<Results | null>(null);
  /** How the last run ended, for the status line. */
  ended = $state<'finished' | 'cancelled' | null>(null);

  #run: RunningBenchmark | null = null;
  #cancelled = false;
  #pending: Results | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastShown = 0;

  /** What is wrong with the plan as edited, or null when it can run. */
  problem = $derived.by(() => {
    if (this.selected.length === 0) return 'Pick at least one stage or library.';
    if (this.sizes.length === 0) return 'Pick at least one input size.';
    if (this.stopWhen === 'rounds' && (!Number.isInteger(this.rounds) || this.rounds < 1 || this.rounds > MAX_PLAN_ROUNDS)) {
      return `Rounds must be a whole number from 1 to ${MAX_PLAN_ROUNDS}.`;
    }
    if (this.stopWhen === 'clear' && !(this.clearPercent >= 0.5 && this.clearPercent <= 50)) return 'The width must be from 0.5% to 50%.';
    if (this.stopWhen === 'clear' && !(this.clearMinutes >= 0.5 && this.clearMinutes <= 60)) return 'The time limit must be from half a minute to 60 minutes.';
    if (this.label.length > MAX_LABEL_CHARS) return `The label is limited to ${MAX_LABEL_CHARS} characters.`;
    return null;
  });

  /** Fills in a plan (a step's, from a stage page): its contestants, sizes and rounds, a fixed number of rounds. */
  usePlan(plan: { contestants: string[]; sizes: number[]; rounds: number }): void {
    if (this.running) return;
    const known = new Set(this.choices.map((c) => c.contestant.id));
    this.selected = plan.contestants.filter((id) => known.has(id));
    this.sizes = [...plan.sizes];
    this.rounds = plan.rounds;
    this.stopWhen = 'rounds';
    this.sharedInput = false;
    this.ended = null;
  }

  start(): void {
    if (this.running || this.problem) return;
    // Keep the registry's order (the lesson's order), whatever order the boxes were ticked in.
    const order = this.choices.map((c) => c.contestant.id);
    const contestants = order.filter((id) => this.selected.includes(id));
    const sizes = [...this.sizes].sort((a, b) => a - b);
    const label = this.label.trim().replace(/\s+/g, ' ');
    this.running = true;
    this.progress = null;
    this.error = null;
    this.ended = null;
    this.shown = null;
    this.#cancelled = false;
    this.clearEnd = null;
    this.startedAt = performance.now();
    const untilClear = this.stopWhen === 'clear';
    const run = startBenchmark(
      { contestants, sizes, rounds: untilClear ? MAX_CLEAR_ROUNDS : this.rounds, ...(this.sharedInput && { sharedInput: true }) },
      {
        enough: untilClear ? this.#enoughWhenClear() : undefined,
        onProgress: (progress) => {
          if (this.#run === run) this.progress = progress;
        },
        onResult: (partial) => {
          if (this.#run === run) this.#showSoon(partial);
        },
      },
      label ? { label } : {},
    );
    this.#run = run;
    this.#whenDone(run, untilClear);
  }

  /** Stops on the intervals' width (or the clock), never on a p-value: see "How we measure". Says why in clearEnd. */
  #enoughWhenClear(): (partial: Results, round: number) => boolean {
    const percent = this.clearPercent;
    const limitMs = this.clearMinutes * 60_000;
    return (partial, round) => {
      if (round < MIN_ROUNDS_FOR_INTERVAL) return false;
      const by = isClear(partial, percent) ? 'width' : performance.now() - this.startedAt > limitMs ? 'limit' : null;
      if (by) this.clearEnd = { by, rounds: round, widest: widest(partial) };
      return by !== null;
    };
  }

  /** When `run` ends, and is still this page's latest: its results shown and kept, or its error; either way the page is no longer running. */
  #whenDone(run: RunningBenchmark, untilClear: boolean): void {
    run.done.then(
      (results) => {
        if (this.#run !== run) return;
        this.#flush();
        this.shown = results;
        current.keep(results);
        if (untilClear && !this.clearEnd && !this.#cancelled) this.clearEnd = { by: 'rounds', rounds: results.config.rounds, widest: widest(results) };
        this.finishedAt = performance.now();
        this.ended = this.#cancelled ? 'cancelled' : 'finished';
      },
      (error: unknown) => {
        if (this.#run !== run) return;
        this.#flush();
        this.error = error instanceof Error ? error.message : String(error);
      },
    ).finally(() => {
      if (this.#run !== run) return;
      this.#run = null;
      this.running = false;
      this.progress = null;
    });
  }

  cancel(): void {
    if (!this.#run) return;
    this.#cancelled = true;
    this.#run.cancel();
  }

  #showSoon(partial: Results): void {
    this.#pending = partial;
    if (this.#timer !== null) return;
    const wait = LIVE_REFRESH_MS - (performance.now() - this.#lastShown);
    if (wait <= 0) this.#flush();
    else this.#timer = setTimeout(() => this.#flush(), wait);
  }

  #flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (!this.#pending) return;
    current.showLive(this.#pending);
    this.shown = this.#pending;
    this.#pending = null;
    this.#lastShown = performance.now();
  }
}

export const session = new BenchSession();
