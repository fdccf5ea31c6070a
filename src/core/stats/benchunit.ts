// Units and their display, as benchstat does it: raw Go units are "tidied" to base units
// (ns/op -> sec/op, MB/s -> B/s) so prefixes never stack ("µns/op"), and each row is
// printed with one common SI prefix (1.718µ) or binary prefix for bytes (1.171Gi),
// keeping at least three significant digits.

import { formatFixed } from './format.ts';

/** Throughput in MB/s (10^6 bytes per second, as Go's benchmarks report it) of one hash of `size` bytes taking `nsPerOp`. */
export function mbPerSec(size: number, nsPerOp: number): number {
  return (size * 1e3) / nsPerOp;
}

export type UnitClass = 'decimal' | 'binary';

export interface Scaler {
  /** Digits after the decimal point. */
  digits: number;
  /** Value of one prefix unit, e.g. 1e-6 for "µ". */
  factor: number;
  prefix: string;
}

/** Split a unit into tokens, noting which are in the denominator ("B/s": B up, s down). */
function unitTokens(unit: string): { token: string; start: number; denominator: boolean }[] {
  const tokens = [];
  let denominator = false;
  const re = /[*/]|[^*/\-\s]+/g;
  for (const m of unit.matchAll(re)) {
    if (m[0] === '*') denominator = false;
    else if (m[0] === '/') denominator = true;
    else tokens.push({ token: m[0], start: m.index, denominator });
  }
  return tokens;
}

/** Rescale a value in a Go unit to base units: [1726, "ns/op"] -> [1.726e-6, "sec/op"]. */
export function tidy(value: number, unit: string): { value: number; unit: string } {
  if (unit === 'ns/op') return { value: value * 1e-9, unit: 'sec/op' };
  if (unit === 'MB/s') return { value: value * 1e6, unit: 'B/s' };
  let factor = 1;
  let out = unit;
  // Edit from the right so earlier offsets stay valid; only numerator tokens change.
  for (const { token, start, denominator } of unitTokens(unit).reverse()) {
    if (denominator) continue;
    if (token === 'ns') {
      out = `${out.slice(0, start)}sec${out.slice(start + 2)}`;
      factor /= 1e9;
    } else if (token === 'MB') {
      out = `${out.slice(0, start)}B${out.slice(start + 2)}`;
      factor *= 1e6;
    }
  }
  return { value: value * factor, unit: out };
}

/** Bytes in the numerator get binary prefixes (Ki, Mi); everything else SI prefixes. */
export function unitClass(unit: string): UnitClass {
  const bytes = unitTokens(unit).some((t) => !t.denominator && (t.token === 'B' || t.token === 'MB' || t.token === 'bytes'));
  return bytes ? 'binary' : 'decimal';
}

interface Factor {
  factor: number;
  prefix: string;
  /** Smallest values that print as 100.0, 10.00 and 1.000 with this prefix. */
  t100: number;
  t10: number;
  t1: number;
}

// Thresholds are the rounding points (99.995 prints as 100.0), so a value never prints
// as "1000.0k" instead of "1.000M".
const SI_FACTORS: Factor[] = ['T', 'G', 'M', 'k', '', 'm', 'µ', 'n'].map((prefix, i) => {
  const exp = 12 - 3 * i;
  return {
    factor: 10 ** exp,
    prefix,
    t100: Number(`99.995e${exp}`),
    t10: Number(`9.9995e${exp}`),
    t1: Number(`.99995e${exp}`),
  };
});

// Binary prefixes bottom out at plain bytes; 2^k scaling of the decimal thresholds is exact.
const IEC_FACTORS: Factor[] = ['Ti', 'Gi', 'Mi', 'Ki', ''].map((prefix, i) => {
  const scale = 2 ** (40 - 10 * i);
  return { factor: scale, prefix, t100: 99.995 * scale, t10: 9.9995 * scale, t1: 0.99995 * scale };
});

/** Below the smallest prefix, up to 10 decimals: thresholds for 3, 4, ... digits after the point. */
const SMALL_THRESHOLDS = [-1, -2, -3, -4, -5, -6, -7, -8].map((exp) => Number(`9.9995e${exp}`));
const SMALL_BASE_DIGITS = 3;

/** One scale for a row of values, chosen by the non-zero value closest to zero. */
export function commonScale(values: readonly number[], cls: UnitClass): Scaler {
  let min = 0;
  for (const v of values) {
    const a = Math.abs(v);
    if (a !== 0 && (min === 0 || a < min)) min = a;
  }
  if (min === 0) return { digits: 3, factor: 1, prefix: '' };
  const factors = cls === 'binary' ? IEC_FACTORS : SI_FACTORS;
  for (const f of factors) {
    if (min >= f.t100) return { digits: 1, factor: f.factor, prefix: f.prefix };
    if (min >= f.t10) return { digits: 2, factor: f.factor, prefix: f.prefix };
    if (min >= f.t1) return { digits: 3, factor: f.factor, prefix: f.prefix };
  }
  const smallest = factors[factors.length - 1];
  const scaled = min / smallest.factor;
  for (let i = 0; i < SMALL_THRESHOLDS.length; i++) {
    if (scaled >= SMALL_THRESHOLDS[i] || i === SMALL_THRESHOLDS.length - 1) {
      return { digits: i + SMALL_BASE_DIGITS, factor: smallest.factor, prefix: smallest.prefix };
    }
  }
  throw new Error('unreachable');
}

export function formatScaled(value: number, scaler: Scaler): string {
  return formatFixed(value / scaler.factor, scaler.digits) + scaler.prefix;
}

/** A lone value with its own scale: "2.295µ". */
export function formatScaledValue(value: number, cls: UnitClass): string {
  return formatScaled(value, commonScale([value], cls));
}
