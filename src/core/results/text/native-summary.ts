// "How close to the limit": the ratios the last two stages are judged by, from one
// runtime's part of a run that has native rows (npm run bench -- --native). Stage 10
// against native code at the same SIMD width, one thread; stage 11's gain over stage 10
// beside what native code gains from the same machine's threads.

import { formatSize, formatSig } from '../../format.ts';
import type { Results } from '../../bench/results.ts';
import { mbPerSec } from '../../stats/benchunit.ts';

const ONE_BLOCK = '10-simd-one-block';
const EVERY_CORE = '11-every-core';

export interface LimitRow {
  size: number;
  /** Median MB/s, null where not measured at this size. */
  stage10: number | null;
  stage11: number | null;
  sse41: number | null;
  best: number | null;
  threads: number | null;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median MB/s of a contestant at a size, over its trusted samples. */
function medianMBps(results: Results, contestant: string, size: number): number | null {
  const runs = results.runs.filter((r) => r.contestant === contestant && r.size === size && r.status !== 'failed');
  return median(runs.flatMap((r) => r.nsPerOp.map((ns) => mbPerSec(size, ns))));
}

export function limitRows(results: Results): LimitRow[] {
  const sizes = [...new Set(results.runs.map((r) => r.size))].sort((a, b) => a - b);
  return sizes.map((size) => ({
    size,
    stage10: medianMBps(results, ONE_BLOCK, size),
    stage11: medianMBps(results, EVERY_CORE, size),
    sse41: medianMBps(results, 'native-sse41', size),
    best: medianMBps(results, 'native-best', size),
    threads: medianMBps(results, 'native-threads', size),
  }));
}

const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? `${(a / b).toFixed(2)}x` : '–');
const mbps = (a: number | null) => (a === null ? '–' : formatSig(a));

/** The ratios as a text table; null when the part has no native rows or neither stage. */
export function formatLimitText(results: Results): string | null {
  const rows = limitRows(results).filter((r) => (r.sse41 !== null || r.best !== null) && (r.stage10 !== null || r.stage11 !== null));
  if (rows.length === 0) return null;
  const header = ['size', 'stage 10', 'native-sse41', '10 x sse41', 'native-best', '10 x best', '11 x 10', 'native-threads', 'threads x best'];
  const lines = [
    header,
    ...rows.map((r) => [
      formatSize(r.size).replace(' ', ''),
      mbps(r.stage10),
      mbps(r.sse41),
      ratio(r.stage10, r.sse41),
      mbps(r.best),
      ratio(r.stage10, r.best),
      ratio(r.stage11, r.stage10),
      mbps(r.threads),
      ratio(r.threads, r.best),
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  const text = lines.map((l) => l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('   ').trimEnd());
  return `Close to the limit (median MB/s; "11 x 10" is stage 11 over stage 10, "threads x best" native's threads over its one thread)\n${text.join('\n')}\n`;
}
