// How long a plan will take, said before it runs. Every sample lasts about the sample
// target (50 ms) unless one hash takes longer, so the rounds cost contestants x sizes x
// rounds samples; each contestant and size also pays once for checking, warming up and
// calibrating, and never more than its time box. Hash times come from an earlier run on
// this machine when there is one, and are otherwise assumed shorter than a sample.
import { DEFAULT_SAMPLE_TARGET_MS, DEFAULT_TIME_BOX_MS, WARMUP_MS, type BenchPlan } from './plan.ts';
import type { Results } from './results.ts';

/**
 * Checking the digests, starting a worker, warming up ({@link WARMUP_MS}) and calibrating
 * one contestant at one size (README, "How the bench's defaults were chosen").
 */
export const PREPARE_MS = WARMUP_MS + 150;

export interface PlanEstimate {
  ms: number;
  /** True when the hash times came from an earlier run on this machine. */
  fromEarlierRun: boolean;
}

/** Median time of one hash in an earlier run, ms, by "id size"; only what was measured. */
function knownHashMs(results: Results | null): Map<string, number> {
  const known = new Map<string, number>();
  for (const run of results?.runs ?? []) {
    if (run.nsPerOp.length === 0) continue;
    const sorted = [...run.nsPerOp].sort((a, b) => a - b);
    known.set(`${run.contestant} ${run.size}`, sorted[Math.floor(sorted.length / 2)] / 1e6);
  }
  return known;
}

export function estimatePlanMs(plan: BenchPlan, earlier: Results | null = null): PlanEstimate {
  const sampleMs = plan.sampleTargetMs ?? DEFAULT_SAMPLE_TARGET_MS;
  const boxMs = plan.timeBoxMs ?? DEFAULT_TIME_BOX_MS;
  const known = knownHashMs(earlier);
  let ms = 0;
  let fromEarlierRun = false;
  for (const id of plan.contestants) {
    for (const size of plan.sizes) {
      const hashMs = known.get(`${id} ${size}`);
      if (hashMs !== undefined) fromEarlierRun = true;
      const perSample = Math.max(sampleMs, hashMs ?? 0);
      ms += Math.min(boxMs, PREPARE_MS + 2 * (hashMs ?? 0) + plan.rounds * perSample);
    }
  }
  return { ms, fromEarlierRun };
}

/** "about 45 s", "about 1 min 10 s", "about 12 min": rounded, as a guess should be. */
export function describeEstimate(ms: number): string {
  const s = Math.max(5, Math.round(ms / 5000) * 5);
  if (s < 60) return `about ${s} s`;
  const minutes = Math.floor(s / 60);
  const rest = s % 60;
  return minutes >= 10 || rest === 0 ? `about ${Math.round(s / 60)} min` : `about ${minutes} min ${rest} s`;
}
