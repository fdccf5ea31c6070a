// The clock question every benchmark must ask first: how fine is it? Browsers coarsen
// performance.now() (5 us on cross-origin-isolated pages, 100 us otherwise, more with
// anti-fingerprinting), and a sample only means something when it lasts many ticks.

/** Smallest non-zero step of `now`, in ms, over a few steps (bounded if the clock is stuck). */
export function measureTimerResolutionMs(now: () => number): number {
  let smallest = Infinity;
  let last = now();
  for (let calls = 0, steps = 0; steps < 20 && calls < 10_000_000; calls++) {
    const t = now();
    if (t !== last) {
      smallest = Math.min(smallest, t - last);
      last = t;
      steps++;
    }
  }
  return Number.isFinite(smallest) ? smallest : 1;
}

/** A sample of a coarse timer still holds at least this many ticks (0.25% quantization). */
export const MIN_TICKS_PER_SAMPLE = 400;

/** The sample length to aim for: the plan's, lengthened until it spans enough ticks. */
export function effectiveSampleTargetMs(plannedMs: number, resolutionNs: number): number {
  return Math.max(plannedMs, (resolutionNs / 1e6) * MIN_TICKS_PER_SAMPLE);
}
