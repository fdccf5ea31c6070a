// Your ladder: every run on this device adds to what is kept instead of replacing it.
// For each contestant, size and runtime (the browser) the newest run is kept whole, samples
// and status together, so a figure is never half one run and half another. The merged
// document is an ordinary results document: it validates, shares and imports as one.
import type { RuntimeInfo, Results, RunResult } from '../bench/results.ts';
import { MAX_RUNS } from './io/limits.ts';

const runKey = (run: RunResult) => `${run.contestant}\u0000${run.size}\u0000${run.runtime ?? ''}`;

function byId<T extends { id: string }>(older: readonly T[], newer: readonly T[]): T[] {
  const merged = new Map(older.map((item) => [item.id, item]));
  for (const item of newer) merged.set(item.id, item);
  return [...merged.values()];
}

/**
 * `newer` laid over `older`: newer's runs replace older's for the same contestant, size
 * and runtime; everything else of older stays. The environment is newer's (where the
 * latest figures were taken); contestant and runtime descriptions are the newest seen.
 * Runs past the document limit drop the oldest first, so the result always validates.
 */
export function mergeResults(older: Results | null, newer: Results): Results {
  if (!older) return newer;
  const replaced = new Set(newer.runs.map(runKey));
  const kept = older.runs.filter((run) => !replaced.has(runKey(run)));
  const runs = [...kept, ...newer.runs].slice(-MAX_RUNS);
  const measured = new Set(runs.map((run) => run.contestant));
  const runtimeIds = new Set(runs.map((run) => run.runtime));
  const runtimes: RuntimeInfo[] = byId(older.runtimes ?? [], newer.runtimes ?? []).filter((runtime) => runtimeIds.has(runtime.id));
  const sizes = [...new Set(runs.map((run) => run.size))].sort((a, b) => a - b);
  const config = { ...newer.config, sizes, rounds: Math.max(older.config.rounds, newer.config.rounds) };
  // Shared-memory inputs describe one run's plan; a ladder that mixes runs cannot claim them.
  if (!(older.config.sharedInput && newer.config.sharedInput)) delete config.sharedInput;
  return {
    ...newer,
    // Documents read through the validator always name their runtimes; a bare version 1 one has none to merge.
    ...(older.runtimes || newer.runtimes ? { runtimes } : {}),
    config,
    contestants: byId(older.contestants, newer.contestants).filter((c) => measured.has(c.id)),
    runs,
  };
}

/** A run in this browser's short history, for "3 runs in this browser". */
export interface RunRecord {
  /** ISO date the run started. */
  date: string;
  /** The contestants it measured. */
  contestants: string[];
}
