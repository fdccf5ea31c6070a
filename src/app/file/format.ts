// The file page's speeds: bytes over milliseconds, written as every table of the lab
// writes MB/s (10^6 bytes a second).
import { formatMBps } from '../../core/results/text/format.ts';

/** "850 MB/s", "1,250 MB/s"; nothing for a time not yet measured. */
export function formatRate(bytes: number, ms: number): string {
  return ms > 0 ? formatMBps(bytes / 1e3 / ms) : '';
}
