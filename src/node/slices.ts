// A run taken in slices: with --native the JavaScript rounds are split into a few runs of
// fewer rounds, each after a slice of native rounds, so native code and the browser are
// measured in turns across the whole run, not one before the other. On a machine whose
// load comes and goes (a shared one), the ratio "x native" then compares samples taken in
// the same stretches of time. This joins the slices back into one document.

import type { Results, RunResult, RunStatus } from '../core/bench/results.ts';

/** How many slices a run of `rounds` is cut into: up to this many, at least one round each. */
export const MAX_SLICES = 5;

/** The rounds of each slice, in order: as even as they can be, the larger first. */
export function sliceRounds(rounds: number, slices = MAX_SLICES): number[] {
  const count = Math.max(1, Math.min(slices, rounds));
  return Array.from({ length: count }, (_, i) => Math.floor(rounds / count) + (i < rounds % count ? 1 : 0));
}

const key = (run: RunResult) => `${run.runtime ?? ''}\u0000${run.contestant}\u0000${run.size}`;

/** A status that keeps samples beats 'ok' when joining: the note of a stopped slice must survive. */
const RANK: Record<RunStatus, number> = { ok: 0, timeboxed: 1, cancelled: 2, unavailable: 3, failed: 4 };

/**
 * The slices of one run as one document: every (runtime, contestant, size) with the samples
 * of all slices, in order. A run that failed in any slice failed (no samples: none can be
 * trusted); otherwise the worst status with its reason is kept. The first slice gives the
 * environment, the contestants (with their notes) and the hashes per sample.
 */
export function joinSlices(slices: readonly Results[]): Results {
  if (slices.length === 0) throw new RangeError('there are no slices to join');
  const [first] = slices;
  const runs = new Map<string, RunResult>();
  for (const slice of slices) {
    for (const run of slice.runs) {
      const seen = runs.get(key(run));
      if (!seen) {
        runs.set(key(run), { ...run, nsPerOp: [...run.nsPerOp] });
        continue;
      }
      if (seen.status === 'failed') continue;
      if (run.status === 'failed') {
        runs.set(key(run), { ...run, nsPerOp: [] });
        continue;
      }
      seen.nsPerOp.push(...run.nsPerOp);
      seen.iterations ||= run.iterations;
      if (RANK[run.status] > RANK[seen.status]) {
        seen.status = run.status;
        if (run.reason !== undefined) seen.reason = run.reason;
      }
    }
  }
  const contestants = [...first.contestants];
  for (const slice of slices) for (const c of slice.contestants) if (!contestants.some((o) => o.id === c.id)) contestants.push(c);
  return {
    ...first,
    config: { ...first.config, rounds: slices.reduce((sum, s) => sum + s.config.rounds, 0) },
    contestants,
    runs: [...runs.values()],
  };
}
