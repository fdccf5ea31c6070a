// Sizes and speeds as the file page shows them: sizes in binary units ("3 MiB", "1.5 GiB"),
// speeds in MB/s (10^6 bytes a second, the unit the bench's tables use).

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** "1025 B", "64 KiB", "3.01 MiB", "5 GiB": bytes exactly below 64 KiB, else three significant digits at most. */
export function formatBytes(bytes: number): string {
  if (bytes < 64 * 1024 && bytes % 1024 !== 0) return `${bytes} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(value) : Number(value.toPrecision(3)).toString();
  return `${text} ${UNITS[unit]}`;
}

/** "850 MB/s", "12.5 MB/s": bytes over milliseconds. */
export function formatRate(bytes: number, ms: number): string {
  if (!(ms > 0)) return '';
  const mbPerS = bytes / 1e3 / ms;
  return `${mbPerS >= 100 ? Math.round(mbPerS) : Number(mbPerS.toPrecision(3))} MB/s`;
}
