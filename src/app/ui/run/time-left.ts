// The "about 30 s left" under the progress bar. Preparing a contestant (checking,
// warming up, calibrating) costs far more time per unit of progress than a sample, so a
// guess from the whole run so far overshoots: measured on a 2-core machine, "about 1 min
// left" when 27 s were left. Once the rounds start, only samples remain, so the guess
// uses the pace of the rounds alone.

/** Where the rounds started: performance.now() and the run's fraction done at that moment. */
export interface SamplingStart {
  at: number;
  fraction: number;
}

/** Until the rounds have run this long their pace is too uncertain to extrapolate. */
const MIN_PACE_MS = 2000;

/** Seconds left at the rounds' pace so far, or null when there is no fair guess yet. */
export function secondsLeft(start: SamplingStart | null, now: number, fraction: number): number | null {
  if (!start) return null;
  const elapsedMs = now - start.at;
  const done = fraction - start.fraction;
  if (elapsedMs < MIN_PACE_MS || done <= 0) return null;
  return Math.max(0, ((1 - fraction) * elapsedMs) / done / 1000);
}

/** "about 25 s left", "about 2 min left": rounded, as a guess should be. */
export function describeTimeLeft(seconds: number | null): string {
  if (seconds === null) return '';
  const fives = Math.max(5, Math.round(seconds / 5) * 5);
  return fives < 60 ? `about ${fives} s left` : `about ${Math.round(seconds / 60)} min left`;
}
