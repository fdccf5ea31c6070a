// How the lab writes a figure, everywhere: a duration and a size in words (the bench's
// messages, the stage pages, the file page, the profiles), and rates (MB/s, 10^6 bytes a
// second) and speed ratios with the tables' three significant digits, in the text tables
// and the charts alike. Pure functions: the same figure reads the same everywhere.
// benchstat's own notation (±, p-values, deltas) is stats/format.ts.

/** Whole from 10 up, else three significant digits: "78", "2.26", "0.5". */
const figure = (value: number) => (value >= 10 ? String(Math.round(value)) : String(Number(value.toPrecision(3))));

/** A duration as people say it: "78 µs", "2.26 ms", "850 ms", "1.5 s", "12 s", "2 min 5 s", "25 min", "20 h", "3 days". */
export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (ms < 1) return `${figure(ms * 1000)} µs`;
  if (ms < 1000) return `${figure(ms)} ms`;
  if (s < 10) return `${Number(s.toFixed(1))} s`;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 600) return `${Math.floor(Math.round(s) / 60)} min ${Math.round(s) % 60} s`.replace(/ 0 s$/, '');
  if (s < 48 * 3600) return s < 3600 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

/** A duration as an estimate is said, in whole units: "under a second", "about 4 s", "about 3 min", "about 20 h", "about 3 days". */
export function formatRoughDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 1) return 'under a second';
  if (s < 60) return `about ${Math.round(s)} s`;
  if (s < 3600) return `about ${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `about ${Math.round(s / 3600)} h`;
  return `about ${Math.round(s / 86400)} days`;
}

const BINARY: [suffix: string, bytes: number][] = [
  ['TiB', 1024 ** 4],
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
];

/** A whole or half binary unit ("1 KiB", "1.5 MiB"), or undefined. */
function roundSize(bytes: number): string | undefined {
  const found = BINARY.find(([, unit]) => bytes >= unit && (bytes * 2) % unit === 0);
  return found && `${bytes / found[1]} ${found[0]}`;
}

/** A size exactly, as a bench size must be: "96 B", "1 KiB", "1.5 KiB", "1 MiB", and "1025 B" for one that is not a whole or half unit. */
export function formatSize(bytes: number): string {
  return roundSize(bytes) ?? `${bytes} B`;
}

/** A file's size as people read it: exact below 64 KiB ("1025 B"), else three significant digits ("3.01 MiB", "1.5 GiB"). */
export function formatRoughSize(bytes: number): string {
  const round = roundSize(bytes);
  if (round || bytes < 64 * 1024) return round ?? `${bytes} B`;
  const [suffix, unit] = BINARY.find(([, unit]) => bytes >= unit)!;
  return `${Number((bytes / unit).toPrecision(3))} ${suffix}`;
}

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

/** A rate in MB/s with three significant digits: "435 MB/s". */
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

/** The file page's speeds, bytes over milliseconds: "850 MB/s", "1,250 MB/s"; nothing for a time not yet measured. */
export function formatRate(bytes: number, ms: number): string {
  return ms > 0 ? formatMBps(bytes / 1e3 / ms) : '';
}
