// The playground's answer in words: the draft against the original stage, size by
// size, with benchstat's test (Mann-Whitney U on the samples) and the Holm correction
// over the sizes, as the results pages judge a step between stages. A difference is
// claimed only where the adjusted p-value is below 0.05; elsewhere the answer is "no
// measurable difference", which is a result, not a failure.

import type { Results } from '../../core/bench/results.ts';
import { formatSize } from '../../core/format.ts';
import { compareSamples, holm } from '../../core/stats/index.ts';
import { describePValues, describeNoise, detectableChangePct, noDifferenceAdvice } from '../../core/stats/plain-words.ts';

export const ALPHA = 0.05;

export interface SizeVerdict {
  size: number;
  /** Original median time over the draft's: above 1 the draft is faster. */
  speedup: number;
  /** Holm-adjusted p-value over the sizes compared. */
  p: number;
  /** The U test's own p-value at this size, before the correction. */
  rawP: number;
  /** The smallest change of the median this run could tell from its noise, percent; null with too few samples. */
  detectablePct: number | null;
  significant: boolean;
  /** "12% faster (p<0.001)", "no measurable difference (p=0.31, 1.0 after correcting for 3 sizes; median 18% faster, within this run's noise of about ±25%)". */
  text: string;
}

export interface Verdict {
  headline: string;
  sizes: SizeVerdict[];
  /** When a size did not move: how large a change the run could have seen there, and what to try. */
  advice: string | null;
}

/** "12% faster", "3.1x faster", "25% slower": throughput terms, as a learner reads them. */
export function describeSpeedup(speedup: number): string {
  if (speedup >= 2) return `${speedup.toFixed(1)}x faster`;
  if (speedup >= 1) return `${Math.round((speedup - 1) * 100)}% faster`;
  if (speedup > 0.5) return `${Math.round((1 - speedup) * 100)}% slower`;
  return `${(1 / speedup).toFixed(1)}x slower`;
}

function samples(results: Results, contestant: string, size: number): number[] | null {
  const run = results.runs.find((r) => r.contestant === contestant && r.size === size);
  return run && run.status === 'ok' && run.nsPerOp.length > 0 ? run.nsPerOp : null;
}

/** The verdict of `draft` against `original`; null when no size has samples of both. */
export function judge(results: Results, draft: string, original: string, originalName: string): Verdict | null {
  const compared: { size: number; a: number[]; b: number[] }[] = [];
  for (const size of results.config.sizes) {
    const a = samples(results, original, size);
    const b = samples(results, draft, size);
    if (a && b) compared.push({ size, a, b });
  }
  if (compared.length === 0) return null;
  const comparisons = compared.map(({ a, b }) => compareSamples(a, b, ALPHA));
  const adjusted = holm(comparisons.map((c) => c.p));
  const sizes = compared.map(({ size, a, b }, i): SizeVerdict => {
    const c = comparisons[i];
    const speedup = c.oldCenter / c.newCenter;
    const p = adjusted[i];
    const significant = p <= ALPHA && speedup !== 1;
    const ps = describePValues(c.p, p, compared.length);
    const detectablePct = detectableChangePct(a, b);
    const noise = detectablePct === null ? '' : `, within this run's noise of ${describeNoise(detectablePct)}`;
    const text = significant ? `${describeSpeedup(speedup)} (${ps})` : `no measurable difference (${ps}; median ${describeSpeedup(speedup)}${noise})`;
    return { size, speedup, p, rawP: c.p, detectablePct, significant, text };
  });
  return { headline: headline(sizes, originalName), sizes, advice: advice(sizes, results.config.rounds) };
}

/** For the quiet size the run saw least clearly: how large a change it could have seen, and what to try. */
function advice(sizes: SizeVerdict[], rounds: number): string | null {
  const quiet = sizes.filter((s) => !s.significant);
  if (quiet.length === 0) return null;
  const noisiest = quiet.reduce((m, s) => ((s.detectablePct ?? Infinity) > (m.detectablePct ?? Infinity) ? s : m));
  return noDifferenceAdvice(noisiest.detectablePct, formatSize(noisiest.size), rounds);
}

function headline(sizes: SizeVerdict[], originalName: string): string {
  const faster = sizes.filter((s) => s.significant && s.speedup > 1);
  const slower = sizes.filter((s) => s.significant && s.speedup < 1);
  if (faster.length === 0 && slower.length === 0) return `No measurable difference from ${originalName}.`;
  const sizesOf = (list: SizeVerdict[]) => list.map((s) => formatSize(s.size)).join(', ');
  if (faster.length > 0 && slower.length > 0) {
    return `Mixed: your change is faster than ${originalName} at ${sizesOf(faster)} and slower at ${sizesOf(slower)}.`;
  }
  const moved = faster.length > 0 ? faster : slower;
  // The clearest result leads; the other sizes follow in a few words.
  const best = moved.reduce((m, s) => (s.p < m.p ? s : m));
  const lead = `Your change is ${describeSpeedup(best.speedup)} than ${originalName}`;
  const p = `(${describePValues(best.rawP, best.p, sizes.length)})`;
  if (sizes.length === 1) return `${lead} ${p}.`;
  const direction = faster.length > 0 ? 'faster' : 'slower';
  const quiet = sizes.filter((s) => !s.significant);
  if (quiet.length === 0) return `${lead} at ${formatSize(best.size)} ${p}, and ${direction} at every size.`;
  const others = moved.filter((s) => s !== best);
  const also = others.length > 0 ? `, ${direction} at ${sizesOf(others)} too` : '';
  return `${lead} at ${formatSize(best.size)} ${p}${also}; no measurable difference at ${sizesOf(quiet)}.`;
}
