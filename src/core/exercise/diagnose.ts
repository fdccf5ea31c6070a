// A wrong digest said in words a learner can act on. BLAKE3 is built from 64-byte blocks
// chained into 1024-byte chunks, and chunks are leaves of a tree; so when a draft is wrong
// at some length, the shortest useful clue is the longest start of the same input that it
// still hashes right: "length 1025: the first 1024 bytes hash right, so look at how the
// second chunk starts". The starts tried are the block and chunk edges below the failing
// length (at most a few dozen hashes), each checked by the caller against BLAKE3.
const BLOCK = 64;
const CHUNK = 1024;

/** The starts worth trying below `length`, longest first: chunk edges (doubling), then the block edges of the first chunk. */
export function startsToTry(length: number): number[] {
  const starts = new Set<number>();
  for (let chunks = 1; chunks * CHUNK < length; chunks *= 2) starts.add(chunks * CHUNK);
  // The last whole chunk before the end, where a tree of an odd number of chunks goes wrong.
  if (length > CHUNK) starts.add(Math.floor((length - 1) / CHUNK) * CHUNK);
  for (let blocks = 1; blocks * BLOCK < Math.min(length, CHUNK + 1); blocks++) starts.add(blocks * BLOCK);
  return [...starts].filter((start) => start > 0 && start < length).sort((a, b) => b - a);
}

const ordinal = (n: number) => ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'][n - 1] ?? `${n}th`;
const bytes = (n: number) => (n % CHUNK === 0 && n > 0 ? `${n / CHUNK} KiB` : `${n} bytes`);

/** Where to look, from the longest start that hashes right (0 when none does). */
export function clue(length: number, rightUpTo: number): string {
  if (length === 0) return 'the empty input is one empty block: look at how hash() handles an input with no bytes at all';
  if (rightUpTo === 0) {
    if (length <= BLOCK) return `a ${length}-byte input is one block, and it hashes wrong: look at how a block is read into words and compressed (its length, its flags)`;
    return 'not even the first block hashes right on its own: look at the compression of one block (the word reader, `g`, the rounds)';
  }
  if (rightUpTo % CHUNK === 0 && length > rightUpTo) {
    const next = rightUpTo / CHUNK + 1;
    return `the first ${bytes(rightUpTo)} hash right, so look at how the ${ordinal(next)} chunk starts (its counter, the chaining values kept for the tree, the parent nodes)`;
  }
  const block = rightUpTo / BLOCK + 1;
  const last = block === Math.ceil(length / BLOCK) ? (length % BLOCK === 0 ? ', the last block, and a full one' : ', the last block, and a short one') : '';
  return `the first ${rightUpTo} bytes hash right, so look at block ${block} of the chunk${last}: how a block after the first is chained, flagged or read`;
}

/**
 * The first failure in words: tries the starts of the failing input, longest first, and
 * names the longest one the draft hashes right. `hashesRight` runs the draft on the
 * input's first `n` bytes and compares with BLAKE3.
 */
export async function whereItBreaks(length: number, hashesRight: (n: number) => Promise<boolean>): Promise<string> {
  let rightUpTo = 0;
  for (const start of startsToTry(length)) {
    if (await hashesRight(start)) {
      rightUpTo = start;
      break;
    }
  }
  return `length ${length}: the digest differs from BLAKE3's; ${clue(length, rightUpTo)}.`;
}
