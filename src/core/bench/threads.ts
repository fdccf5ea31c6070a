// How a contestant chose to hash, said in words: how many threads (only stage 11 uses
// more than the one it is called on; a multi-core figure must never be read as one
// core's, and a stage that fell back to one thread says why), and which one-block code
// stage 10 timed fastest on this machine. The bench records this beside its figures and
// the self-test shows it.

import { poolWon, type Crossover } from '../../../steps/11-every-core/blake3.ts';
import type { OneBlockChoice, ThreadUse } from '../../../steps/index.ts';
import { formatSize } from '../format.ts';

export function describeThreadUse(use: ThreadUse): string {
  if (use.fallback) return `hashes on one thread: ${use.fallback}`;
  const workers = use.threads - 1;
  const shared = use.minSharedBytes === use.minBytes ? '' : ` (${formatSize(use.minSharedBytes)} or more if already in shared memory)`;
  return (
    `hashes inputs of ${formatSize(use.minBytes)} or more${shared} on ${use.threads} threads at once ` +
    `(the calling thread and ${workers} pool worker${workers === 1 ? '' : 's'}), so it uses ${use.threads} cores` +
    (use.crossover?.length ? `; timed when it loaded, the pool ${describeCrossover(use.crossover)}` : '')
  );
}

// What the stage measured when it loaded to choose those sizes: the last size it timed
// for each kind of input, shared first. Kept short: results refuse notes over 400 characters.
function describeCrossover(rows: Crossover[]): string {
  const ms = (value: number) => `${value >= 10 ? Math.round(value) : value.toPrecision(2)} ms`;
  const kinds = [true, false].flatMap((shared) => {
    const last = rows.filter((row) => row.shared === shared).at(-1);
    if (!last) return [];
    const input = shared ? 'a shared input' : 'a copied one';
    const timing = `${ms(last.poolMs)} against ${ms(last.oneThreadMs)} on one thread`;
    return poolWon(last) ? `first won at ${formatSize(last.bytes)} with ${input} (${timing})` : `won at no size up to ${formatSize(last.bytes)} with ${input} (there ${timing})`;
  });
  return kinds.join(' and ');
}

/** Stage 10's one-block code, and the timing that chose it when it loaded. */
export function describeOneBlockChoice(choice: OneBlockChoice): string {
  const names = { rows: 'SIMD rows (compress1xRows)', words: '32-bit words (compress1xWords)' };
  const other = choice.code === 'rows' ? 'words' : 'rows';
  const ns = choice.nsPerBlock;
  if (!ns) return `hashes single blocks with its ${names[choice.code]}, not timed against its ${names[other]}`;
  return (
    `hashes single blocks with its ${names[choice.code]}, the faster when it loaded: ` +
    `${Math.round(ns[choice.code])} ns a block against ${Math.round(ns[other])} for its ${names[other]}`
  );
}
