// Text forms of summaries and comparisons, character for character as benchstat prints
// them: "± 2%", "-17.20%", "~", "p=0.000 n=10". Numbers go through formatFixed, which
// rounds exact halves to even as Go's strconv does (JavaScript's toFixed rounds them up),
// so a value like 2.5% prints the same here and in benchstat.

import { percentChange, type Comparison } from './ab-test.ts';
import type { Summary } from './median.ts';

/** Exact binary value of a finite double: |x| = mantissa * 2^exponent. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (biased === 0) return { mantissa: fraction, exponent: -1074 };
  return { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/** Go's strconv.FormatFloat(x, 'f', digits, 64): fixed notation, exact halves to even. */
export function formatFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const { mantissa, exponent } = decompose(Math.abs(x));
  const shift = -exponent;
  if (shift > 0) {
    // x * 10^digits = scaled / 2^shift; a tie is a remainder of exactly one half.
    const scaled = mantissa * 10n ** BigInt(digits);
    const half = 1n << BigInt(shift - 1);
    if ((scaled & ((half << 1n) - 1n)) === half) {
      let q = scaled >> BigInt(shift);
      if (q % 2n === 1n) q += 1n;
      const text = q.toString().padStart(digits + 1, '0');
      const whole = text.slice(0, text.length - digits);
      return sign + (digits > 0 ? `${whole}.${text.slice(text.length - digits)}` : whole);
    }
  }
  // toFixed switches to exponent notation from 1e21; doubles that large are integers.
  if (Math.abs(x) >= 1e21) return sign + BigInt(Math.abs(x)).toString() + (digits > 0 ? `.${'0'.repeat(digits)}` : '');
  return sign + Math.abs(x).toFixed(digits);
}

/** Go's "%+.Nf": always signed. */
export function formatSigned(x: number, digits: number): string {
  const text = formatFixed(x, digits);
  return text.startsWith('-') || text.startsWith('+') ? text : `+${text}`;
}

function sign(x: number): number {
  return x === 0 ? 0 : x < 0 ? -1 : x > 0 ? 1 : NaN;
}

/**
 * The half-width of the interval as a percentage of the median, the larger side, as in
 * "1.718µ ± 1%": "∞" when a bound is infinite (too few samples), "?" when the bounds do
 * not share the median's sign.
 */
export function formatPlusMinus(summary: Pick<Summary, 'center' | 'lo' | 'hi'>): string {
  const { center, lo, hi } = summary;
  if (!Number.isFinite(lo) && !Number.isNaN(lo)) return '∞';
  if (!Number.isFinite(hi) && !Number.isNaN(hi)) return '∞';
  const s = sign(center);
  if (s !== sign(lo) || s !== sign(hi)) return '?';
  if (center === 0) return '0%';
  const spread = Math.max(hi / center - 1, 1 - lo / center);
  return `${formatFixed(100 * spread, 0)}%`;
}

/** The "vs base" cell: "~" when not significant, else the signed change of the medians ("-17.20%"). */
export function formatDelta(cmp: Pick<Comparison, 'significant' | 'oldCenter' | 'newCenter'>): string {
  if (!cmp.significant) return '~';
  const pct = percentChange(cmp.oldCenter, cmp.newCenter);
  if (pct === null) return '?';
  return pct === 0 ? '0.00%' : `${formatSigned(pct, 2)}%`;
}

/** "p=0.000 n=10", or "p=0.032 n=5+6" when the sample sizes differ (benchstat omits p when it is exactly 0). */
export function formatP(cmp: Pick<Comparison, 'p' | 'n1' | 'n2'>): string {
  const p = cmp.p !== 0 ? `p=${formatFixed(cmp.p, 3)} ` : '';
  return cmp.n1 === cmp.n2 ? `${p}n=${cmp.n1}` : `${p}n=${cmp.n1}+${cmp.n2}`;
}

/** A p-value alone, three decimals ("0.004"), for adjusted p beside benchstat's raw one. */
export function formatPValue(p: number): string {
  return formatFixed(p, 3);
}
