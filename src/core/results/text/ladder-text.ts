// The runtime ladder (analysis/runtime-ladder.ts) as plain text for the command line:
// MB/s and the multiple of blake3-wasm, one column pair per runtime.
import { formatSize, formatRatio, formatSig } from '../../format.ts';
import type { RuntimeLadder } from '../analysis/runtime-ladder.ts';

/** One size of the ladder: a header row, then one row per contestant. */
export function formatLadderText(ladder: RuntimeLadder): string {
  const header = ['', ...ladder.runtimes.flatMap((r) => [`${r.name} MB/s`, 'x wasm'])];
  const lines = [
    header,
    ...ladder.rows.map((row) => [
      row.contestant,
      ...row.cells.flatMap((cell) => (cell?.estimate ? [formatSig(cell.estimate.center), formatRatio(cell.ratio)] : [cell ? cell.reason.split(':')[0] : '–', '–'])),
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  const text = lines.map((l) => l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('   ').trimEnd());
  return `size=${formatSize(ladder.size).replace(' ', '')}\n${text.join('\n')}\n`;
}
