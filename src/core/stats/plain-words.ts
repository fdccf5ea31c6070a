// p-values and noise said the way a learner reads them, beside benchstat's notation
// (format.ts), which the text reports keep. Two habits of benchstat mislead a reader:
// "p=0.000" reads as impossible, and a Holm-adjusted p capped at 1 ("p=1.000") shown
// alone reads as "certainly identical". Here a tiny p is "p<0.001", the raw p comes
// first and the adjusted one follows with what it was corrected for, and a run that
// finds no difference says how large a difference it could have seen.

import { summarize } from './median.ts';

/** Below this a p-value is printed as "<0.001": three decimals cannot show it. */
const SMALLEST_SHOWN = 0.001;

/** A p-value alone: "<0.001", "0.006" (three decimals under 0.01), "0.31", "1.0" (never "1.00", never "0.000"). */
export function readerP(p: number): string {
  if (!Number.isFinite(p)) return '?';
  if (p < SMALLEST_SHOWN) return '<0.001';
  if (p < 0.01) return p.toFixed(3);
  if (p >= 0.995) return '1.0';
  return p.toFixed(2);
}

/** "p<0.001" or "p=0.31": the p-value with its sign of relation. */
export function readerPEquals(p: number): string {
  const text = readerP(p);
  return text.startsWith('<') ? `p${text}` : `p=${text}`;
}

/**
 * The raw p and, when a correction changed it, the adjusted one and what it corrected for:
 * "p=0.31, 1.0 after correcting for 4 sizes". `family` names what was compared ("sizes").
 */
export function describePValues(raw: number, adjusted: number, count: number, family = 'sizes'): string {
  const first = readerPEquals(raw);
  if (count <= 1 || readerP(raw) === readerP(adjusted)) return first;
  return `${first}, ${readerP(adjusted)} after correcting for ${count} ${family}`;
}

/**
 * How large a change of the median this run could have told from noise, in percent of
 * the first sample's median: the half-widths of the two medians' 95% intervals added.
 * Two medians closer than that have overlapping intervals, so a difference that small is
 * within the noise of this run. Null when an interval is infinite (too few samples).
 */
export function detectableChangePct(a: readonly number[], b: readonly number[]): number | null {
  const sa = summarize(a);
  const sb = summarize(b);
  const halfWidth = (s: typeof sa) => Math.max(s.hi - s.center, s.center - s.lo);
  const width = halfWidth(sa) + halfWidth(sb);
  if (!Number.isFinite(width) || sa.center <= 0) return null;
  return (100 * width) / sa.center;
}

/** "about ±7%": a detectable change, rounded as a guess should be (never "±0%"). */
export function describeNoise(pct: number): string {
  const shown = pct < 1 ? pct.toFixed(1) : String(Math.round(pct));
  return `about ±${shown === '0.0' ? '0.1' : shown}%`;
}

/** The rounds to try when a run of `rounds` found no difference: three times as many, at least 30. */
export const moreRounds = (rounds: number): number => Math.max(30, rounds * 3);

/**
 * What to say when a run finds no difference: what it could have seen and what to try.
 * "This run could only have seen a change larger than about ±9% at 96 B; try 30 rounds,
 * or close other tabs and measure 96 B alone."
 */
export function noDifferenceAdvice(pct: number | null, sizeText: string, rounds: number): string {
  const more = moreRounds(rounds);
  const seen = pct === null ? `This run had too few samples at ${sizeText} to see any change` : `This run could only have seen a change larger than ${describeNoise(pct)} at ${sizeText}`;
  return `${seen}; try ${more} rounds, or close other tabs and measure ${sizeText} alone.`;
}
