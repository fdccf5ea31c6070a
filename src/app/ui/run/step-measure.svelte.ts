// "Measure this step" on the stage page itself: one click runs the step's plan in the
// bench's workers (the stage and the one before, then blake3-wasm at 1 KiB and 64 KiB),
// shows a progress line, and keeps the step's results for the answer beside the button.
// What it measured joins this device's results (current-run.svelte.ts), so the stage's
// card and the Results page show it too. It lives at module level: a run keeps going
// while the reader scrolls or visits another page, and one step runs at a time. The bench
// itself (its workers' bridge, the runner, the libraries it measures against) loads on the
// first click, not with the page.
import type { Progress, RunningBenchmark, startBenchmark } from './browser.ts';
import { benchPageRun } from './bench-running.svelte.ts';
import { stepPlan, type PlanPart } from './step-plan.ts';
import type { Results } from '../../../core/bench/results.ts';
import { mergeResults } from '../../../core/results/merge.ts';
import { current } from './current-run.svelte.ts';

class StepMeasure {
  /** The stage whose step is running or was measured last. */
  index = $state<number | null>(null);
  running = $state(false);
  /** Which part runs: the step itself, or blake3-wasm after it. */
  part = $state<'step' | 'yardstick'>('step');
  progress = $state.raw<Progress | null>(null);
  /** The last step run's own results (both parts), for its answer. */
  results = $state.raw<Results | null>(null);
  error = $state<string | null>(null);
  cancelled = $state(false);

  #run: RunningBenchmark | null = null;

  /** Why a step cannot start now, or null. */
  get blocked(): string | null {
    if (benchPageRun.going) return 'A benchmark is running on the Benchmark page; measure this step when it ends.';
    if (this.running) return `Stage ${this.index}'s step is being measured.`;
    return null;
  }

  /** Measures stage `index`'s step; `rounds`, when given, replaces the plan's for the step itself (the advice's "try 30 rounds"). */
  async start(index: number, rounds?: number): Promise<void> {
    if (this.blocked) return;
    const plan = { ...stepPlan(index, current.results), ...(rounds !== undefined && { rounds }) };
    this.index = index;
    this.running = true;
    this.results = null;
    this.error = null;
    this.cancelled = false;
    try {
      const { startBenchmark } = await import('./browser.ts');
      // A cancelled step keeps nothing: half a step is no answer, and it would not replace a whole one.
      if (this.cancelled) return;
      let results = await this.#part(startBenchmark, plan, 'step');
      if (this.cancelled) return;
      if (plan.yardstick) {
        const yardstick = await this.#part(startBenchmark, plan.yardstick, 'yardstick');
        if (this.cancelled) return;
        results = mergeResults(results, yardstick);
      }
      this.results = results;
      current.keep(results);
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      this.#run = null;
      this.running = false;
      this.progress = null;
    }
  }

  cancel(): void {
    this.cancelled = true;
    this.#run?.cancel();
  }

  #part(start: typeof startBenchmark, plan: PlanPart, part: 'step' | 'yardstick'): Promise<Results> {
    this.part = part;
    this.progress = null;
    const run = start({ contestants: plan.contestants, sizes: plan.sizes, rounds: plan.rounds }, { onProgress: (p) => (this.progress = p) });
    this.#run = run;
    return run.done;
  }
}

export const stepMeasure = new StepMeasure();
