// How long one hash at a larger size will take, from what the smaller sizes measured.
// A hash is linear in its input for every honest implementation; stage 0 is quadratic on
// purpose. The growth exponent between the two largest measured sizes tells them apart,
// so the time box can refuse 12 seconds of stage 0 without spending them.

import { formatSize } from '../format.ts';

export interface OneHashGuess {
  ns: number;
  /** How the guess was made, for the reason shown to the user. */
  basis: string;
}

/** Exponents are clamped to this range: below 1 is fixed overhead, above 3 is noise. */
const MIN_EXPONENT = 1;
const MAX_EXPONENT = 3;
/** Sizes this small are dominated by per-call overhead and say nothing about growth. */
const MIN_GROWTH_SIZE = 1024;
/** Growth this steep is called quadratic in the reason: stage 0 measures about 1.9-2.0. */
const QUADRATIC_FROM = 1.8;

export function predictOneHash(known: readonly { size: number; ns: number }[], size: number): OneHashGuess | undefined {
  const points = known.filter((p) => p.size < size && p.ns > 0).sort((a, b) => a.size - b.size);
  const last = points.at(-1);
  if (!last) return undefined;
  const before = points.filter((p) => p.size >= MIN_GROWTH_SIZE && p.size < last.size).at(-1);
  let exponent = MIN_EXPONENT;
  if (before && last.size >= MIN_GROWTH_SIZE) {
    const measured = Math.log(last.ns / before.ns) / Math.log(last.size / before.size);
    exponent = Math.min(MAX_EXPONENT, Math.max(MIN_EXPONENT, measured));
  }
  const ns = last.ns * (size / last.size) ** exponent;
  const shape = exponent >= QUADRATIC_FROM ? ', roughly quadratic' : '';
  const basis = before
    ? `extrapolated from ${formatSize(last.size)}, where time grows as size^${exponent.toFixed(1)}${shape}`
    : `extrapolated linearly from ${formatSize(last.size)}`;
  return { ns, basis };
}

