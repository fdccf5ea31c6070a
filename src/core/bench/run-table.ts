// The table a run fills in: one row per contestant, one cell per input size, each cell
// pending until it ends ok, failed, timeboxed or unavailable. Pure bookkeeping: it never
// talks to a worker, so the coordinator (runner.ts) only decides what happens next, and
// the Results document can be read off the table at any moment.

import type { ContestantInfo, Results, RunResult, RunStatus } from './results.ts';
import { RESULTS_FORMAT, RESULTS_VERSION } from './results.ts';
import type { Contestant } from './contestants.ts';
import { runtimeFromEnv, type RuntimeIdentity } from './runtimes.ts';
import { missingCapability, type Capabilities } from './capabilities.ts';

export type CellState = 'pending' | Exclude<RunStatus, 'cancelled'>;

export interface Cell {
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

export interface Entry {
  contestant: Contestant;
  info: ContestantInfo;
  cells: Cell[];
  /** Sizes ready in the contestant's current worker (a fresh worker must prepare them again). */
  ready: Set<number>;
}

export class RunTable {
  readonly entries: Entry[];

  /**
   * `plannedRounds` is the plan's count, which the reasons of unfinished cells quote even
   * after a run ended early and config.rounds was lowered to the rounds taken.
   */
  constructor(
    contestants: readonly Contestant[],
    readonly env: Results['env'],
    readonly config: Results['config'],
    private readonly plannedRounds: number,
    private readonly runtime?: RuntimeIdentity,
  ) {
    this.entries = contestants.map((contestant) => ({
      contestant,
      info: { id: contestant.id, title: contestant.title, kind: contestant.kind, version: contestant.version ?? 'unversioned' },
      cells: config.sizes.map((size) => ({ size, state: 'pending', iterations: 0, nsPerOp: [], spentMs: 0 })),
      ready: new Set(),
    }));
  }

  /** Marks every cell of a contestant this runtime cannot run, with the reason. */
  markUnavailable(capabilities: Capabilities): void {
    for (const entry of this.entries) {
      const missing = missingCapability(entry.contestant.requires, capabilities);
      if (!missing) continue;
      for (const cell of entry.cells) {
        cell.state = 'unavailable';
        cell.reason = missing;
      }
    }
  }

  /** The contestants with something left to run. */
  runnable(): Entry[] {
    return this.entries.filter((e) => e.cells.some((c) => c.state === 'pending'));
  }

  /** A contestant that threw, lied, hung or died: no sample of it is trusted. */
  fail(entry: Entry, reason: string): void {
    entry.ready.clear();
    for (const cell of entry.cells) {
      if (cell.state === 'unavailable') continue;
      cell.state = 'failed';
      cell.reason = reason;
      cell.nsPerOp = [];
    }
  }

  timebox(cell: Cell, reason: string): void {
    cell.state = 'timeboxed';
    cell.reason = reason;
  }

  /** Every cell still pending took all its rounds. */
  finish(): void {
    for (const cell of this.entries.flatMap((e) => e.cells)) if (cell.state === 'pending') cell.state = 'ok';
  }

  /** Share of the work done, 0 to 1: one unit per preparation and one per sample; a cell that stopped early counts as done. */
  fraction(): number {
    const perCell = this.plannedRounds + 1;
    let done = 0;
    let totalUnits = 0;
    for (const e of this.entries) {
      for (const c of e.cells) {
        if (c.state === 'unavailable') continue;
        totalUnits += perCell;
        done += c.state !== 'pending' ? perCell : (e.ready.has(c.size) || c.iterations > 0 ? 1 : 0) + c.nsPerOp.length;
      }
    }
    return totalUnits ? Math.min(1, done / totalUnits) : 1;
  }

  /** The document so far; a pending cell reads 'cancelled', with how far it got. */
  toResults(stopped: boolean): Results {
    const runtime = runtimeFromEnv(this.env, this.runtime);
    const runs: RunResult[] = [];
    for (const { info, cells } of this.entries) {
      for (const cell of cells) {
        const run: RunResult = { contestant: info.id, runtime: runtime.id, size: cell.size, status: 'cancelled', iterations: cell.iterations, nsPerOp: [...cell.nsPerOp] };
        const taken = `${cell.nsPerOp.length} of ${this.plannedRounds} samples`;
        if (cell.state !== 'pending') run.status = cell.state;
        if (cell.reason) run.reason = cell.reason;
        else if (cell.state === 'pending') run.reason = stopped ? `cancelled after ${taken}` : `in progress: ${taken} so far`;
        runs.push(run);
      }
    }
    const config = { ...this.config, sizes: [...this.config.sizes] };
    return { format: RESULTS_FORMAT, version: RESULTS_VERSION, env: { ...this.env }, runtimes: [runtime], config, contestants: this.entries.map((e) => ({ ...e.info })), runs };
  }
}
