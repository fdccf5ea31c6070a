// One press of "Check and measure": check the compiled draft in the sandbox (every
// official vector, then the differential lengths; nothing timed), then, only if every
// check passed, benchmark it against the original stage with the bench page's own
// coordinator (src/core/bench/runner.ts): the same interleaved rounds, warm-up, time-outs
// and statistics, with every contestant in a sandbox worker.

import { runBenchmark, type Progress } from '../../core/bench/runner.ts';
import { detectCapabilities } from '../../core/bench/capabilities.ts';
import { browserHost } from '../ui/run/browser.ts';
import { CallTimeout, Cancelled, WorkerDied } from '../../core/worker.ts';
import type { Contestant } from '../../core/bench/contestants.ts';
import { BLAKE3_WASM } from '../../../steps/baseline-info.ts';
import type { Results } from '../../core/bench/results.ts';
import type { Program } from '../../core/playground/link.ts';
import type { Sandbox } from './sandbox.ts';
import { OFFICIAL_LENGTHS } from '../../core/vectors.ts';
import { checkSteps, type CheckOutcome, type CheckStep } from '../../core/playground/checks.ts';

/** The 35 official vectors in data/blake3-vectors.json. */
export const OFFICIAL_VECTOR_COUNT = OFFICIAL_LENGTHS.length;

/** A check call is never given less than this: enough to load a draft on a busy machine, short enough to stop a loop. */
const CHECK_MIN_TIMEOUT_MS = 4_000;
const CHECK_MAX_TIMEOUT_MS = 60_000;

/** Time-outs for the run: shorter than the bench page's, since a draft is more likely to hang than a stage. */
export const PLAYGROUND_TIMEOUTS = { loadMs: 5_000, sampleMinMs: 4_000, sampleFactor: 20, prepareSlackMs: 3_000 };

export type CheckReport = { ok: true; passed: number } | { ok: false; passed: number; failure: CheckOutcome & { ok: false }; stopped?: boolean };

function stepLength(step: CheckStep): number {
  return step.kind === 'differential' ? step.length : OFFICIAL_LENGTHS[step.index];
}

/**
 * Runs every check of `program` in a fresh sandbox worker, one input per call. A call
 * gets more time the larger its input, scaled from the previous one as if the draft
 * were quadratic (stage 0 is), so a slow but correct draft passes and a stuck one is
 * stopped within seconds of where it got stuck.
 */
export async function checkProgram(
  sandbox: Sandbox,
  program: Program,
  onStep: (done: number, total: number) => void,
  signal: AbortSignal,
): Promise<CheckReport> {
  const steps = checkSteps(OFFICIAL_VECTOR_COUNT);
  const worker = sandbox.startWorker([program]);
  let last = { length: 1, ms: 1 };
  try {
    for (const [i, step] of steps.entries()) {
      onStep(i, steps.length);
      const length = Math.max(1, stepLength(step));
      const predicted = last.ms * (length / last.length) ** 2;
      const timeoutMs = Math.min(CHECK_MAX_TIMEOUT_MS, Math.max(CHECK_MIN_TIMEOUT_MS, 20 * predicted));
      const started = performance.now();
      let outcome: CheckOutcome;
      try {
        outcome = await worker.call((core) => core.check(program.id, step), { timeoutMs, signal });
      } catch (error) {
        if (error instanceof Cancelled) {
          return { ok: false, passed: i, stopped: true, failure: { ok: false, message: 'You stopped the check.' } };
        }
        const where = i === 0 ? 'while loading or on the first input' : 'on this input';
        const message =
          error instanceof CallTimeout
            ? `no answer within ${(timeoutMs / 1000).toFixed(0)} s ${where}: it seems stuck (an endless loop, or work that never ends), so its worker was stopped. Your draft is kept`
            : error instanceof WorkerDied
              ? `its worker stopped ${where} (${error.message}). Your draft is kept`
              : `the check failed: ${error instanceof Error ? error.message : String(error)}`;
        return { ok: false, passed: i, failure: { ok: false, label: i === 0 ? undefined : describeStep(step), message } };
      }
      if (!outcome.ok) return { ok: false, passed: i, failure: outcome };
      last = { length, ms: Math.max(1, performance.now() - started) };
    }
    onStep(steps.length, steps.length);
    return { ok: true, passed: steps.length };
  } finally {
    worker.stop();
  }
}

function describeStep(step: CheckStep): string {
  return step.kind === 'vector' ? `official vector ${step.index + 1} of ${OFFICIAL_VECTOR_COUNT}` : `${step.length} pseudo-random bytes`;
}

export interface MeasureRequest {
  programs: Program[];
  sizes: number[];
  rounds: number;
  /** Each contestant's time per size; the benchmark's default when absent. */
  timeBoxMs?: number;
  /** Contestants besides the programs, by id: BLAKE3_WASM.id. */
  extras: string[];
}

/** Starts the benchmark of the programs (draft first) and the extras; resolves with the results, partial after cancel. */
export async function measurePrograms(
  sandbox: Sandbox,
  request: MeasureRequest,
  onProgress: (progress: Progress) => void,
  onResult: (partial: Results) => void,
  signal: AbortSignal,
): Promise<Results> {
  const infos: Contestant[] = [
    ...request.programs.map((p): Contestant => ({ id: p.id, title: p.title, kind: 'stage', oracle: 'blake3', requires: p.requires, version: p.id, files: [], load: unreachable })),
    ...request.extras.map((id): Contestant => ({ id, title: BLAKE3_WASM.title, kind: 'baseline', oracle: 'blake3', version: BLAKE3_WASM.version, files: [], load: unreachable })),
  ];
  return runBenchmark({
    plan: { contestants: infos.map((c) => c.id), sizes: request.sizes, rounds: request.rounds, timeBoxMs: request.timeBoxMs },
    host: await browserHost('playground'),
    capabilities: detectCapabilities(),
    startWorker: () => sandbox.startWorker(request.programs),
    signal,
    onProgress,
    onResult,
    timeouts: PLAYGROUND_TIMEOUTS,
    resolve: (ids) => ids.map((id) => infos.find((c) => c.id === id)!),
  });
}

// The coordinator only describes contestants; loading happens in the sandbox worker.
function unreachable(): never {
  throw new Error('contestants load in the sandbox worker, not in the page');
}
