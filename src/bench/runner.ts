// The coordinator of a benchmark run. It runs on the page's main thread (or Node's) and
// never hashes: every hash happens in a worker (workers/bench-core.ts), one worker per
// contestant, started lazily and terminated when its contestant fails, hangs or is
// cancelled. The same coordinator serves the browser (browser.ts) and Node (node.ts);
// only the way a worker is spawned differs.
//
// A run has two phases. Preparation loads each contestant, checks its digests on small
// inputs, then, size by size in increasing order, verifies, warms up and calibrates it.
// Rounds follow: in every round each contestant takes one sample at each size, the
// contestants in an order rotated by one each round, so slow drift of the machine
// (thermal throttling, a background job) spreads evenly over all of them instead of
// landing on whoever happened to run last.
//
// Why a time box: stage 0 is quadratic on purpose: one hash of 1 MiB takes seconds (about
// 5 s in Chromium on a 2-core EPYC, 4.5 s in Node 20 there). Each
// contestant gets `timeBoxMs` per input size, and no sample starts that would end past
// it. Before preparing a size, its cost is extrapolated from the smaller sizes; when the
// verifying hash and one sample would not fit, the size is marked 'timeboxed' with the
// estimate as the reason instead of being run.

import { RESULTS_FORMAT, RESULTS_VERSION, type ContestantInfo, type Results, type RunResult, type RunStatus } from './results.ts';
import { resolveContestants, type Contestant } from './contestants.ts';
import { engineFromEnv, type EngineIdentity } from './engines.ts';
import { missingCapability, type Capabilities } from './capabilities.ts';
import { checkPlan, formatSize, DEFAULT_SAMPLE_TARGET_MS, DEFAULT_TIME_BOX_MS, type BenchPlan } from './plan.ts';
import { effectiveSampleTargetMs, measureTimerResolutionMs } from './timer.ts';
import { predictOneHash, describeMs } from './predict.ts';
import type { BenchCore } from '../../workers/bench-core.ts';
import { CallTimeout, Cancelled, WorkerDied, callWorker, type WorkerHandle } from './worker-handle.ts';
import { describeOneBlockChoice, describeThreadUse } from './threads.ts';

export type { WorkerHandle } from './worker-handle.ts';

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

/** Warm-up per contestant and size before calibration: long enough for V8 to tier up to its optimizing compiler. */
export const WARMUP_MS = 100;

export interface RunOptions {
  plan: BenchPlan;
  host: HostInfo;
  /** The effective capabilities (overrides applied); the worker is told the same. */
  capabilities: Capabilities;
  spawn: () => WorkerHandle;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** The document so far, after every step; runs still going read 'cancelled' (as if stopped now). */
  onResult?: (partial: Results) => void;
  timeouts?: Partial<Timeouts>;
  warmupMs?: number;
  /** The engine as the tool that started it knows it (exact version); by default read from host.runtimeVersion. */
  engine?: EngineIdentity;
  /**
   * Asked after each full round with the document so far: true ends the run there, as if
   * the plan had had that many rounds ("run until the answer is clear"; plan.rounds is
   * then the most it may take). Asked only between rounds, so interleaving stays fair.
   */
  enough?: (partial: Results, round: number) => boolean;
  /** Turns the plan's ids into contestants; the registry unless a test brings its own. */
  resolve?: (ids: readonly string[]) => Contestant[];
}

type CellState = 'pending' | Exclude<RunStatus, 'cancelled'>;

interface Cell {
  size: number;
  state: CellState;
  reason?: string;
  iterations: number;
  nsPerOp: number[];
  /** Per-hash estimate from calibration; the time box and time-outs scale from it. */
  estimateNs?: number;
  /** Time this contestant has spent hashing at this size, ms, as the worker's clock saw it. */
  spentMs: number;
}

interface Entry {
  contestant: Contestant;
  info: ContestantInfo;
  cells: Cell[];
  worker?: WorkerHandle;
  /** Sizes ready in the current worker (a fresh worker must prepare them again). */
  ready: Set<number>;
}

export async function runBenchmark(options: RunOptions): Promise<Results> {
  const { plan, capabilities } = options;
  checkPlan(plan);
  const contestants = (options.resolve ?? resolveContestants)(plan.contestants);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const warmupMs = options.warmupMs ?? WARMUP_MS;
  const timeBoxMs = plan.timeBoxMs ?? DEFAULT_TIME_BOX_MS;
  const signal = options.signal ?? new AbortController().signal;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new Cancelled());
    signal.addEventListener('abort', () => reject(new Cancelled()), { once: true });
  });
  aborted.catch(() => {});

  const env: Results['env'] = {
    ...options.host,
    timerResolutionNs: measureTimerResolutionMs(() => performance.now()) * 1e6,
    crossOriginIsolated: capabilities.crossOriginIsolated,
    littleEndian: capabilities.littleEndian,
    wasmSimd: capabilities.wasmSimd,
    webCrypto: capabilities.webCrypto,
    date: new Date().toISOString(),
  };
  const config: Results['config'] = {
    sizes: [...plan.sizes],
    rounds: plan.rounds,
    sampleTargetMs: plan.sampleTargetMs ?? DEFAULT_SAMPLE_TARGET_MS,
    timeBoxMs,
    ...(plan.sharedInput && { sharedInput: true as const }),
  };
  const entries: Entry[] = contestants.map((contestant) => ({
    contestant,
    info: { id: contestant.id, title: contestant.title, kind: contestant.kind, version: contestant.version ?? 'unversioned' },
    cells: plan.sizes.map((size) => ({ size, state: 'pending', iterations: 0, nsPerOp: [], spentMs: 0 })),
    ready: new Set(),
  }));
  const workers = new Set<WorkerHandle>();
  let spare: WorkerHandle | undefined;

  function snapshot(stopped: boolean): Results {
    const engine = engineFromEnv(env, options.engine);
    const runs: RunResult[] = [];
    for (const { info, cells } of entries) {
      for (const cell of cells) {
        const run: RunResult = { contestant: info.id, engine: engine.id, size: cell.size, status: 'cancelled', iterations: cell.iterations, nsPerOp: [...cell.nsPerOp] };
        const taken = `${cell.nsPerOp.length} of ${plan.rounds} samples`;
        if (cell.state !== 'pending') run.status = cell.state;
        if (cell.reason) run.reason = cell.reason;
        else if (cell.state === 'pending') run.reason = stopped ? `cancelled after ${taken}` : `in progress: ${taken} so far`;
        runs.push(run);
      }
    }
    return { format: RESULTS_FORMAT, version: RESULTS_VERSION, env: { ...env }, engines: [engine], config: { ...config, sizes: [...config.sizes] }, contestants: entries.map((e) => ({ ...e.info })), runs };
  }

  /** Progress counts one unit per preparation and one per sample; a cell that stopped early counts as done. */
  let lastStep: [Entry, number, number] | undefined;
  function progress(entry: Entry, size: number, round: number): void {
    lastStep = [entry, size, round];
    if (!options.onProgress) return;
    let done = 0;
    let totalUnits = 0;
    for (const e of entries) {
      for (const c of e.cells) {
        if (c.state === 'unavailable') continue;
        totalUnits += plan.rounds + 1;
        done += c.state !== 'pending' ? plan.rounds + 1 : (e.ready.has(c.size) || c.iterations > 0 ? 1 : 0) + c.nsPerOp.length;
      }
    }
    const phase = round === 0 ? 'preparing' : 'sampling';
    options.onProgress({ phase, contestant: entry.info.id, size, round, rounds: plan.rounds, fraction: totalUnits ? Math.min(1, done / totalUnits) : 1 });
  }
  const publish = () => options.onResult?.(snapshot(false));

  function spawn(): WorkerHandle {
    const handle = options.spawn();
    workers.add(handle);
    handle.exited.catch(() => {});
    return handle;
  }
  function retire(handle: WorkerHandle | undefined): void {
    if (!handle) return;
    handle.terminate();
    workers.delete(handle);
  }
  function call<T>(handle: WorkerHandle, work: (core: BenchCore) => Promise<T>, timeoutMs: number): Promise<T> {
    return callWorker(handle, work, timeoutMs, aborted);
  }

  /** A contestant that threw, lied, hung or died: no sample of it is trusted. */
  function fail(entry: Entry, reason: string): void {
    retire(entry.worker);
    entry.worker = undefined;
    entry.ready.clear();
    for (const cell of entry.cells) {
      if (cell.state === 'unavailable') continue;
      cell.state = 'failed';
      cell.reason = reason;
      cell.nsPerOp = [];
    }
  }

  function timebox(cell: Cell, reason: string): void {
    cell.state = 'timeboxed';
    cell.reason = reason;
  }

  /** Why a call went wrong, as a sentence; Cancelled propagates. */
  function explain(error: unknown, what: string): string {
    if (error instanceof Cancelled) throw error;
    if (error instanceof CallTimeout) return `${what} did not finish within ${describeMs(error.ms)}: it hangs (its worker was stopped)`;
    if (error instanceof WorkerDied) return `its worker died ${what === 'loading' ? 'while loading' : `during ${what}`}: ${error.message}`;
    return `${what} failed: ${error instanceof Error ? error.message : String(error)}`;
  }

  /** The contestant's worker, started (and the contestant loaded) if need be; undefined once it failed. */
  async function workerFor(entry: Entry): Promise<WorkerHandle | undefined> {
    if (entry.worker) return entry.worker;
    const handle = spare ?? spawn();
    spare = undefined;
    entry.worker = handle;
    try {
      const loaded = await call(handle, (core) => core.load(entry.info.id, capabilities), timeouts.loadMs);
      if (loaded.status === 'failed') fail(entry, loaded.reason);
      else if (loaded.threadUse) {
        entry.info.threads = loaded.threadUse.threads;
        entry.info.note = describeThreadUse(loaded.threadUse);
      } else if (loaded.oneBlock) {
        entry.info.note = describeOneBlockChoice(loaded.oneBlock);
      }
    } catch (error) {
      fail(entry, explain(error, 'loading'));
    }
    return entry.worker;
  }

  /** Verifies, warms up and calibrates `cell` in the contestant's current worker. */
  async function prepare(entry: Entry, cell: Cell): Promise<void> {
    const handle = await workerFor(entry);
    if (!handle || cell.state !== 'pending') return;
    const settings = { sampleTargetMs: config.sampleTargetMs, timeBoxMs, warmupMs, iterations: cell.iterations || undefined, sharedInput: config.sharedInput };
    const timeoutMs = timeBoxMs + warmupMs + 4 * config.sampleTargetMs + timeouts.prepareSlackMs;
    try {
      const outcome = await call(handle, (core) => core.prepare(cell.size, settings), timeoutMs);
      if (outcome.status === 'failed') return fail(entry, outcome.reason);
      cell.spentMs += outcome.elapsedMs;
      if (outcome.status === 'too-slow') {
        cell.estimateNs = outcome.firstHashNs;
        return timebox(cell, `one hash of ${formatSize(cell.size)} took ${describeMs(outcome.firstHashNs / 1e6)}: ${NO_SAMPLE_FITS} ${describeMs(timeBoxMs)} time box per size`);
      }
      cell.iterations = outcome.iterations;
      cell.estimateNs ??= outcome.nsPerOp;
      entry.ready.add(cell.size);
    } catch (error) {
      if (!(error instanceof CallTimeout)) return fail(entry, explain(error, `preparing ${formatSize(cell.size)}`));
      // It passed the small inputs, so it is slow, not stuck: stop it and keep what it has.
      retire(entry.worker);
      entry.worker = undefined;
      entry.ready.clear();
      cell.estimateNs = timeBoxMs * 1e6;
      timebox(cell, `one hash of ${formatSize(cell.size)} takes longer than the ${describeMs(timeBoxMs)} time box per size; its worker was stopped`);
    }
  }

  async function sample(entry: Entry, cell: Cell, round: number): Promise<void> {
    const expectedMs = (cell.iterations * (cell.estimateNs ?? 0)) / 1e6;
    // Never start a sample that would end past the time box.
    if (cell.spentMs + expectedMs > timeBoxMs) {
      return timebox(cell, `stopped after ${cell.nsPerOp.length} of ${plan.rounds} samples: the ${describeMs(timeBoxMs)} time box per size ran out (one hash of ${formatSize(cell.size)} takes ~${describeMs((cell.estimateNs ?? 0) / 1e6)})`);
    }
    if (!entry.ready.has(cell.size)) {
      progress(entry, cell.size, round);
      await prepare(entry, cell);
      if (!entry.worker || cell.state !== 'pending') return;
    }
    progress(entry, cell.size, round);
    const timeoutMs = Math.max(timeouts.sampleMinMs, expectedMs * timeouts.sampleFactor);
    try {
      const outcome = await call(entry.worker!, (core) => core.sample(cell.size, cell.iterations), timeoutMs);
      if (outcome.status === 'failed') return fail(entry, outcome.reason);
      cell.spentMs += outcome.elapsedNs / 1e6;
      cell.nsPerOp.push(outcome.elapsedNs / cell.iterations);
    } catch (error) {
      fail(entry, explain(error, `a sample at ${formatSize(cell.size)} (expected ~${describeMs(expectedMs)})`));
    }
  }

  try {
    for (const entry of entries) {
      const missing = missingCapability(entry.contestant.requires, capabilities);
      if (!missing) continue;
      for (const cell of entry.cells) {
        cell.state = 'unavailable';
        cell.reason = missing;
      }
    }
    publish();
    const runnable = entries.filter((e) => e.cells.some((c) => c.state === 'pending'));

    // The first worker measures the clock and versions the sources, then serves the first contestant.
    spare = spawn();
    const probe = await call(spare, (core) => core.probe(entries.map((e) => e.info.id)), timeouts.loadMs).catch((error) => {
      if (error instanceof Cancelled) throw error;
      throw new Error(`the bench worker did not start: ${error instanceof Error ? error.message : String(error)}`);
    });
    env.timerResolutionNs = probe.timerResolutionNs;
    env.crossOriginIsolated = probe.crossOriginIsolated;
    config.sampleTargetMs = effectiveSampleTargetMs(config.sampleTargetMs, probe.timerResolutionNs);
    for (const entry of entries) entry.info.version = probe.versions[entry.info.id] ?? entry.info.version;

    for (const entry of runnable) {
      const bySize = [...entry.cells].sort((a, b) => a.size - b.size);
      for (const cell of bySize) {
        if (cell.state !== 'pending') continue;
        const known = bySize.filter((c) => c.estimateNs !== undefined && c.size < cell.size).map((c) => ({ size: c.size, ns: c.estimateNs! }));
        const guess = predictOneHash(known, cell.size);
        if (guess && (2 * guess.ns) / 1e6 > timeBoxMs) {
          timebox(cell, `one hash of ${formatSize(cell.size)} would take about ${describeMs(guess.ns / 1e6)} (${guess.basis}): ${NO_SAMPLE_FITS} ${describeMs(timeBoxMs)} time box per size`);
          continue;
        }
        progress(entry, cell.size, 0);
        await prepare(entry, cell);
        publish();
      }
    }

    for (let round = 1; round <= plan.rounds; round++) {
      const shift = (round - 1) % Math.max(1, runnable.length);
      const order = [...runnable.slice(shift), ...runnable.slice(0, shift)];
      for (const size of plan.sizes) {
        for (const entry of order) {
          const cell = entry.cells.find((c) => c.size === size)!;
          if (cell.state !== 'pending') continue;
          await sample(entry, cell, round);
          publish();
        }
      }
      if (round < plan.rounds && options.enough?.(snapshot(false), round)) {
        config.rounds = round;
        break;
      }
    }
    for (const cell of entries.flatMap((e) => e.cells)) if (cell.state === 'pending') cell.state = 'ok';
    // Progress is announced before each step; this last one reads 100%.
    if (lastStep) progress(...lastStep);
    return snapshot(true);
  } catch (error) {
    if (error instanceof Cancelled) return snapshot(true);
    throw error;
  } finally {
    for (const handle of [...workers]) retire(handle);
  }
}
