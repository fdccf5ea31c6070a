// The coordinator of a benchmark run. It runs on the page's main thread (or Node's) and
// never hashes: every hash happens in a worker (src/core/bench/bench-core.ts), one worker per
// contestant, started lazily and terminated when its contestant fails, hangs or is
// cancelled. The same coordinator serves the browser (browser.ts) and Node (../../node/node.ts);
// only the way a worker is started differs. The workers are reached through
// worker-bridge.ts, and what the run found so far lives in run-table.ts; this file holds
// the order of the phases.
//
// A run has two phases. Preparation loads each contestant, checks its digests on small
// inputs, then, size by size in increasing order, verifies, warms up and calibrates it.
// Rounds follow: in every round each contestant takes one sample at each size, the
// contestants in an order rotated by one each round, so slow drift of the machine
// (thermal throttling, a background job) spreads evenly over all of them instead of
// landing on whoever happened to run last.
//
// Why a time box: stage 0 is quadratic on purpose: one hash of 1 MiB takes seconds. Each
// contestant gets `timeBoxMs` per input size, and no sample starts that would end past
// it. Before preparing a size, its cost is extrapolated from the smaller sizes; when the
// verifying hash and one sample would not fit, the size is marked 'timeboxed' with the
// estimate as the reason instead of being run.

import type { Results } from './results.ts';
import { resolveContestants, type Contestant } from './contestants.ts';
import type { RuntimeIdentity } from './runtimes.ts';
import type { Capabilities } from './capabilities.ts';
import { checkPlan, DEFAULT_SAMPLE_TARGET_MS, DEFAULT_TIME_BOX_MS, WARMUP_MS, type BenchPlan } from './plan.ts';
import { formatSize, formatDuration } from '../format.ts';
import { effectiveSampleTargetMs, measureTimerResolutionMs } from './timer.ts';
import { predictOneHash } from './predict.ts';
import { CallTimeout, Cancelled, type StartedWorker } from '../worker.ts';
import type { BenchCore } from './core-protocol.ts';
import { describeOneBlockChoice, describeThreadUse } from './threads.ts';
import { RunTable, type Cell, type Entry } from './run-table.ts';
import { WorkerBridge, explainCallError } from './worker-bridge.ts';

/** Facts about the machine the coordinator knows; the worker adds its timer and isolation. */
export interface HostInfo {
  runtime: 'browser' | 'node';
  runtimeVersion: string;
  userAgent: string;
  os: string;
  cores: number;
  label?: string;
}

export interface Progress {
  phase: 'preparing' | 'sampling';
  contestant: string;
  size: number;
  /** 1-based round; 0 while preparing. */
  round: number;
  rounds: number;
  /** Share of the planned work done, 0 to 1. */
  fraction: number;
}

export interface Timeouts {
  /** Loading a contestant and checking its small inputs. */
  loadMs: number;
  /** A sample never times out sooner than this... */
  sampleMinMs: number;
  /** ...nor sooner than this many times its expected length. */
  sampleFactor: number;
  /** Added to the time box for preparing one size (oracle, warm-up, calibration). */
  prepareSlackMs: number;
}

/** Generous on a busy machine, yet a hung contestant is reported within seconds. */
export const DEFAULT_TIMEOUTS: Timeouts = { loadMs: 10_000, sampleMinMs: 5_000, sampleFactor: 20, prepareSlackMs: 5_000 };

/** Why a size is skipped when one hash is over half the time box. */
const NO_SAMPLE_FITS = 'verifying it and timing one sample would not fit in the';


export interface RunOptions {
  plan: BenchPlan;
  host: HostInfo;
  /** The effective capabilities (overrides applied); the worker is told the same. */
  capabilities: Capabilities;
  /** Starts one bench worker (workers/bench.worker.ts in a page, a worker thread in Node). */
  startWorker: () => StartedWorker<BenchCore>;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** The document so far, after every step; runs still going read 'cancelled' (as if stopped now). */
  onResult?: (partial: Results) => void;
  timeouts?: Partial<Timeouts>;
  warmupMs?: number;
  /** The runtime as the tool that started it knows it (exact version); by default read from host.runtimeVersion. */
  runtime?: RuntimeIdentity;
  /**
   * Asked after each full round with the document so far: true ends the run there, as if
   * the plan had had that many rounds ("run until the answer is clear"; plan.rounds is
   * then the most it may take). Asked only between rounds, so interleaving stays fair.
   */
  enough?: (partial: Results, round: number) => boolean;
  /** Turns the plan's ids into contestants; the registry unless a test brings its own. */
  resolve?: (ids: readonly string[]) => Contestant[];
}

export async function runBenchmark(options: RunOptions): Promise<Results> {
  checkPlan(options.plan);
  return new BenchRun(options).run();
}

/** The environment record of a results document: the host, this thread's clock and what it can run, and now. */
export function environmentOf(host: HostInfo, capabilities: Capabilities): Results['env'] {
  return {
    ...host,
    timerResolutionNs: measureTimerResolutionMs(() => performance.now()) * 1e6,
    crossOriginIsolated: capabilities.crossOriginIsolated,
    littleEndian: capabilities.littleEndian,
    wasmSimd: capabilities.wasmSimd,
    webCrypto: capabilities.webCrypto,
    date: new Date().toISOString(),
  };
}

/** The env and config a run starts from; the worker's probe corrects the clock and isolation. */
function startingPoint(options: RunOptions): { env: Results['env']; config: Results['config'] } {
  const { plan } = options;
  const env = environmentOf(options.host, options.capabilities);
  const config: Results['config'] = {
    sizes: [...plan.sizes],
    rounds: plan.rounds,
    sampleTargetMs: plan.sampleTargetMs ?? DEFAULT_SAMPLE_TARGET_MS,
    timeBoxMs: plan.timeBoxMs ?? DEFAULT_TIME_BOX_MS,
    ...(plan.sharedInput && { sharedInput: true as const }),
  };
  return { env, config };
}

/** The order of the contestants in `round` (1-based): rotated by one each round. */
function roundOrder(runnable: readonly Entry[], round: number): Entry[] {
  const shift = (round - 1) % Math.max(1, runnable.length);
  return [...runnable.slice(shift), ...runnable.slice(0, shift)];
}

/** One run, phase by phase: probe, prepare every size, then the rounds of samples. */
class BenchRun {
  private readonly table: RunTable;
  private readonly bridge: WorkerBridge;
  private readonly timeouts: Timeouts;
  private readonly warmupMs: number;
  private readonly timeBoxMs: number;
  /** Progress is announced before each step; the last one is announced again at the end, reading 100%. */
  private lastStep: [Entry, number, number] | undefined;

  constructor(private readonly options: RunOptions) {
    const { env, config } = startingPoint(options);
    const contestants = (options.resolve ?? resolveContestants)(options.plan.contestants);
    this.table = new RunTable(contestants, env, config, options.plan.rounds, options.runtime);
    this.bridge = new WorkerBridge(options.startWorker, options.signal);
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.warmupMs = options.warmupMs ?? WARMUP_MS;
    this.timeBoxMs = config.timeBoxMs;
  }

  async run(): Promise<Results> {
    try {
      this.table.markUnavailable(this.options.capabilities);
      this.publish();
      const runnable = this.table.runnable();
      await this.probe();
      for (const entry of runnable) await this.prepareSizes(entry);
      await this.sampleRounds(runnable);
      this.table.finish();
      if (this.lastStep) this.progress(...this.lastStep);
      return this.table.toResults(true);
    } catch (error) {
      if (error instanceof Cancelled) return this.table.toResults(true);
      throw error;
    } finally {
      this.bridge.close();
    }
  }

  private publish(): void {
    this.options.onResult?.(this.table.toResults(false));
  }

  private progress(entry: Entry, size: number, round: number): void {
    this.lastStep = [entry, size, round];
    const { onProgress, plan } = this.options;
    if (!onProgress) return;
    const phase = round === 0 ? 'preparing' : 'sampling';
    onProgress({ phase, contestant: entry.info.id, size, round, rounds: plan.rounds, fraction: this.table.fraction() });
  }

  /** The first worker measures the clock and versions the sources, then serves the first contestant. */
  private async probe(): Promise<void> {
    const { env, config, entries } = this.table;
    const spare = this.bridge.startSpare();
    const probe = await this.bridge.call(spare, (core) => core.probe(entries.map((e) => e.info.id)), this.timeouts.loadMs).catch((error) => {
      if (error instanceof Cancelled) throw error;
      throw new Error(`the bench worker did not start: ${error instanceof Error ? error.message : String(error)}`);
    });
    env.timerResolutionNs = probe.timerResolutionNs;
    env.crossOriginIsolated = probe.crossOriginIsolated;
    config.sampleTargetMs = effectiveSampleTargetMs(config.sampleTargetMs, probe.timerResolutionNs);
    for (const entry of entries) entry.info.version = probe.versions[entry.info.id] ?? entry.info.version;
  }

  /** Prepares a contestant size by size, smallest first, skipping a size its smaller ones predict would not fit. */
  private async prepareSizes(entry: Entry): Promise<void> {
    const bySize = [...entry.cells].sort((a, b) => a.size - b.size);
    for (const cell of bySize) {
      if (cell.state !== 'pending') continue;
      const known = bySize.filter((c) => c.estimateNs !== undefined && c.size < cell.size).map((c) => ({ size: c.size, ns: c.estimateNs! }));
      const guess = predictOneHash(known, cell.size);
      if (guess && (2 * guess.ns) / 1e6 > this.timeBoxMs) {
        this.table.timebox(cell, `one hash of ${formatSize(cell.size)} would take about ${formatDuration(guess.ns / 1e6)} (${guess.basis}): ${NO_SAMPLE_FITS} ${formatDuration(this.timeBoxMs)} time box per size`);
        continue;
      }
      this.progress(entry, cell.size, 0);
      await this.prepare(entry, cell);
      this.publish();
    }
  }

  /** Each round takes one sample per size of every contestant still pending; `enough` may end the run between rounds. */
  private async sampleRounds(runnable: readonly Entry[]): Promise<void> {
    const { plan, enough } = this.options;
    for (let round = 1; round <= plan.rounds; round++) {
      const order = roundOrder(runnable, round);
      for (const size of plan.sizes) {
        for (const entry of order) {
          const cell = entry.cells.find((c) => c.size === size)!;
          if (cell.state !== 'pending') continue;
          await this.sample(entry, cell, round);
          this.publish();
        }
      }
      if (round < plan.rounds && enough?.(this.table.toResults(false), round)) {
        this.table.config.rounds = round;
        return;
      }
    }
  }

  private fail(entry: Entry, reason: string): void {
    this.bridge.release(entry.info.id);
    this.table.fail(entry, reason);
  }

  /** The contestant's worker, started (and the contestant loaded) if need be; undefined once it failed. */
  private async workerFor(entry: Entry): Promise<StartedWorker<BenchCore> | undefined> {
    const id = entry.info.id;
    const current = this.bridge.workerOf(id);
    if (current) return current;
    const worker = this.bridge.assign(id);
    try {
      const loaded = await this.bridge.call(worker, (core) => core.load(id, this.options.capabilities), this.timeouts.loadMs);
      if (loaded.status === 'failed') this.fail(entry, loaded.reason);
      else if (loaded.threadUse) {
        entry.info.threads = loaded.threadUse.threads;
        entry.info.note = describeThreadUse(loaded.threadUse);
      } else if (loaded.oneBlock) {
        entry.info.note = describeOneBlockChoice(loaded.oneBlock);
      }
    } catch (error) {
      this.fail(entry, explainCallError(error, 'loading'));
    }
    return this.bridge.workerOf(id);
  }

  /** Verifies, warms up and calibrates `cell` in the contestant's current worker. */
  private async prepare(entry: Entry, cell: Cell): Promise<void> {
    const worker = await this.workerFor(entry);
    if (!worker || cell.state !== 'pending') return;
    const { config } = this.table;
    const { timeBoxMs, warmupMs } = this;
    const settings = { sampleTargetMs: config.sampleTargetMs, timeBoxMs, warmupMs, iterations: cell.iterations || undefined, sharedInput: config.sharedInput };
    const timeoutMs = timeBoxMs + warmupMs + 4 * config.sampleTargetMs + this.timeouts.prepareSlackMs;
    try {
      const outcome = await this.bridge.call(worker, (core) => core.prepare(cell.size, settings), timeoutMs);
      if (outcome.status === 'failed') return this.fail(entry, outcome.reason);
      cell.spentMs += outcome.elapsedMs;
      if (outcome.status === 'too-slow') {
        cell.estimateNs = outcome.firstHashNs;
        return this.table.timebox(cell, `one hash of ${formatSize(cell.size)} took ${formatDuration(outcome.firstHashNs / 1e6)}: ${NO_SAMPLE_FITS} ${formatDuration(timeBoxMs)} time box per size`);
      }
      cell.iterations = outcome.iterations;
      cell.estimateNs ??= outcome.nsPerOp;
      entry.ready.add(cell.size);
    } catch (error) {
      if (!(error instanceof CallTimeout)) return this.fail(entry, explainCallError(error, `preparing ${formatSize(cell.size)}`));
      // It passed the small inputs, so it is slow, not stuck: stop it and keep what it has.
      this.bridge.release(entry.info.id);
      entry.ready.clear();
      cell.estimateNs = timeBoxMs * 1e6;
      this.table.timebox(cell, `one hash of ${formatSize(cell.size)} takes longer than the ${formatDuration(timeBoxMs)} time box per size; its worker was stopped`);
    }
  }

  /** One sample of `cell`, unless it would end past the time box; a fresh worker prepares the size first. */
  private async sample(entry: Entry, cell: Cell, round: number): Promise<void> {
    const expectedMs = (cell.iterations * (cell.estimateNs ?? 0)) / 1e6;
    if (cell.spentMs + expectedMs > this.timeBoxMs) {
      const rounds = this.options.plan.rounds;
      return this.table.timebox(cell, `stopped after ${cell.nsPerOp.length} of ${rounds} samples: the ${formatDuration(this.timeBoxMs)} time box per size ran out (one hash of ${formatSize(cell.size)} takes ~${formatDuration((cell.estimateNs ?? 0) / 1e6)})`);
    }
    if (!entry.ready.has(cell.size)) {
      this.progress(entry, cell.size, round);
      await this.prepare(entry, cell);
      if (!this.bridge.workerOf(entry.info.id) || cell.state !== 'pending') return;
    }
    this.progress(entry, cell.size, round);
    const timeoutMs = Math.max(this.timeouts.sampleMinMs, expectedMs * this.timeouts.sampleFactor);
    try {
      const outcome = await this.bridge.call(this.bridge.workerOf(entry.info.id)!, (core) => core.sample(cell.size, cell.iterations), timeoutMs);
      if (outcome.status === 'failed') return this.fail(entry, outcome.reason);
      cell.spentMs += outcome.elapsedNs / 1e6;
      cell.nsPerOp.push(outcome.elapsedNs / cell.iterations);
    } catch (error) {
      this.fail(entry, explainCallError(error, `a sample at ${formatSize(cell.size)} (expected ~${formatDuration(expectedMs)})`));
    }
  }
}
