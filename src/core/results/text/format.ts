// Number and label formatting shared by the results tables, charts and the stage page.
// Pure functions: the same figure reads the same everywhere.
import type { RuntimeInfo, Environment } from '../../bench/results.ts';

/** Three significant digits, without exponent notation for the values a benchmark produces. */
export function formatSig(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (value === 0) return '0';
  // The format follows the value as rounded for display: 0.996 reads "1.00" (not "1.0"), 9.996 "10.0".
  const abs = Math.abs(value);
  const shown = Math.abs(Number(value.toPrecision(abs < 1 ? 2 : 3)));
  if (shown >= 100) return Math.round(value).toLocaleString('en-US');
  if (shown >= 10) return value.toFixed(1);
  if (shown >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

export function formatMBps(value: number): string {
  return `${formatSig(value)} MB/s`;
}

/** A speed ratio: "2.21x", "0.0005x" (stage 0 is thousands of times slower). */
export function formatRatio(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return `${formatSig(value)}x`;
}

/**
 * A speed ratio against a yardstick in the direction a reader says it, as the article does:
 * "1.6x faster", "about 420x slower" (never "0.0024x"). Ratios near 1 read as percent-free
 * multiples too ("1.05x faster"); big slowdowns are rounded to two digits, as a guess.
 */
export function formatVersus(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio) || ratio <= 0) return '–';
  if (ratio >= 1) return `${formatSig(ratio)}x faster`;
  const slower = 1 / ratio;
  if (slower >= 100) return `about ${Number(slower.toPrecision(2)).toLocaleString('en-US')}x slower`;
  return `${formatSig(slower)}x slower`;
}

/** One line naming where a result set was measured, for headings and share pages. Plain text. */
export function describeEnvironment(env: Environment): string {
  const parts = [env.runtimeVersion, env.os, `${env.cores} ${env.cores === 1 ? 'core' : 'cores'}`];
  const date = new Date(env.date);
  if (!Number.isNaN(date.getTime())) parts.push(date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC');
  return parts.filter((part) => part && part.trim()).join(' · ');
}

/** The user's label, or the browser(s) and OS when there is none: names one side of a comparison. */
export function shortName(env: Environment, runtimes: readonly RuntimeInfo[] = []): string {
  const label = env.label?.trim();
  if (label) return label;
  const runtime = runtimes.length > 1 ? runtimes.map((r) => r.name).join(' + ') : env.runtimeVersion;
  return `${runtime} on ${env.os}`;
}
