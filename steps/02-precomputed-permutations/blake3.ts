// Stage 2: precomputed permutations.
//
// Change from stage 1: permute() is gone. The message permutation is the same for every
// block, so the access order of each of the 7 rounds is computed once, when the module
// loads (round 0 reads the words in order; each next order is the previous one
// permuted), and round() reads m[order[i]] instead of rearranging the words. The copy
// and allocation inside permute() go with it, and so does the block copy in compress(),
// which existed only to protect the caller's words from permute().
//
// Why: six permutations per block, each allocating and copying 16 words, for a result
// that never changes. The article measured 1.6x.
//
// Measured (Node 20, 2-core AMD EPYC): 71.4 MB/s at 64 KiB against 46.7 MB/s for stage 1
// in the same run (1.5x).

const OUT_LEN = 32;
const BLOCK_LEN = 64;
const CHUNK_LEN = 1024;

// Domain flags (only the ones plain hashing uses).
const CHUNK_START = 1 << 0;
const CHUNK_END = 1 << 1;
const PARENT = 1 << 2;
const ROOT = 1 << 3;

const IV = new Uint32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

// New message word i is old word MSG_PERMUTATION[i].
const MSG_PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];

// MSG_ACCESS_ORDERS[r][i] is the block word that sits at position i in round r, after
// r permutations: what permute() used to produce, worked out once for all blocks.
const MSG_ACCESS_ORDERS: Uint8Array[] = [Uint8Array.from({ length: 16 }, (_, i) => i)];
while (MSG_ACCESS_ORDERS.length < 7) {
  const previous = MSG_ACCESS_ORDERS[MSG_ACCESS_ORDERS.length - 1];
  MSG_ACCESS_ORDERS.push(previous.map((_, i) => previous[MSG_PERMUTATION[i]]));
}

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

// The quarter-round: mixes the four state words a, b, c, d with two message words.
// Writing into the Uint32Array wraps every sum to 32 bits.
function g(state: Uint32Array, a: number, b: number, c: number, d: number, mx: number, my: number): void {
  state[a] = state[a] + state[b] + mx;
  state[d] = rotr(state[d] ^ state[a], 16);
  state[c] = state[c] + state[d];
  state[b] = rotr(state[b] ^ state[c], 12);
  state[a] = state[a] + state[b] + my;
  state[d] = rotr(state[d] ^ state[a], 8);
  state[c] = state[c] + state[d];
  state[b] = rotr(state[b] ^ state[c], 7);
}

function round(state: Uint32Array, m: Uint32Array, order: Uint8Array): void {
  // Mix the columns.
  g(state, 0, 4, 8, 12, m[order[0]], m[order[1]]);
  g(state, 1, 5, 9, 13, m[order[2]], m[order[3]]);
  g(state, 2, 6, 10, 14, m[order[4]], m[order[5]]);
  g(state, 3, 7, 11, 15, m[order[6]], m[order[7]]);
  // Mix the diagonals.
  g(state, 0, 5, 10, 15, m[order[8]], m[order[9]]);
  g(state, 1, 6, 11, 12, m[order[10]], m[order[11]]);
  g(state, 2, 7, 8, 13, m[order[12]], m[order[13]]);
  g(state, 3, 4, 9, 14, m[order[14]], m[order[15]]);
}

// Returns all 16 output words: the first 8 are the next chaining value.
function compress(
  cv: Uint32Array,
  blockWords: Uint32Array,
  counter: number,
  blockLen: number,
  flags: number,
): Uint32Array {
  const state = new Uint32Array([
    cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7],
    IV[0], IV[1], IV[2], IV[3],
    counter, // the Uint32Array keeps the low 32 bits
    counter / 0x100000000, // and this truncates to the high 32 bits
    blockLen,
    flags,
  ]);

  round(state, blockWords, MSG_ACCESS_ORDERS[0]); // round 1
  round(state, blockWords, MSG_ACCESS_ORDERS[1]); // round 2
  round(state, blockWords, MSG_ACCESS_ORDERS[2]); // round 3
  round(state, blockWords, MSG_ACCESS_ORDERS[3]); // round 4
  round(state, blockWords, MSG_ACCESS_ORDERS[4]); // round 5
  round(state, blockWords, MSG_ACCESS_ORDERS[5]); // round 6
  round(state, blockWords, MSG_ACCESS_ORDERS[6]); // round 7

  for (let i = 0; i < 8; i++) {
    state[i] ^= state[i + 8];
    state[i + 8] ^= cv[i];
  }
  return state;
}

// Reads the block starting at `offset` as 16 little-endian words, zero-padding what
// lies past the end of the input. Written for any length, with a bounds check per byte.
//
// The loop is still bounded by the end of the whole input, not by the end of the block,
// but it now only ever reads the input's last block, where the two are the same.
function readLittleEndianWords(bytes: Uint8Array, offset: number, words: Uint32Array): void {
  words.fill(0);
  for (let i = offset, w = 0; i < bytes.length; i += 4, w++) {
    words[w] =
      bytes[i] |
      (i + 1 < bytes.length ? bytes[i + 1] << 8 : 0) |
      (i + 2 < bytes.length ? bytes[i + 2] << 16 : 0) |
      (i + 3 < bytes.length ? bytes[i + 3] << 24 : 0);
  }
}

// Reads the 64 bytes starting at `offset` as 16 little-endian words. The caller
// guarantees a full block, so there is nothing to check.
function readLittleEndianWordsFull(bytes: Uint8Array, offset: number, words: Uint32Array): void {
  for (let w = 0; w < 16; w++, offset += 4) {
    words[w] = bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24);
  }
}

// Hashes input[start, end) as chunk number `counter` and returns its chaining value.
// `isRoot` is set only when this chunk is the whole input. `blockWords` is scratch space.
function chunkChainingValue(
  input: Uint8Array,
  start: number,
  end: number,
  counter: number,
  isRoot: boolean,
  blockWords: Uint32Array,
): Uint32Array {
  let cv = IV; // the key words; plain hashing uses the IV
  let flags = CHUNK_START;
  let offset = start;
  // Every block but the last is full.
  while (end - offset > BLOCK_LEN) {
    readLittleEndianWordsFull(input, offset, blockWords);
    cv = compress(cv, blockWords, counter, BLOCK_LEN, flags).slice(0, 8);
    flags = 0;
    offset += BLOCK_LEN;
  }
  // The last block: 1 to 64 bytes, or 0 for the empty input. Only the input's very last
  // block can be short, so the general reader now runs once per hash.
  if (end - offset === BLOCK_LEN) {
    readLittleEndianWordsFull(input, offset, blockWords);
  } else {
    readLittleEndianWords(input, offset, blockWords);
  }
  flags |= CHUNK_END | (isRoot ? ROOT : 0);
  return compress(cv, blockWords, counter, end - offset, flags).slice(0, 8);
}

function parentChainingValue(left: Uint32Array, right: Uint32Array, flags: number): Uint32Array {
  const blockWords = new Uint32Array(16);
  blockWords.set(left, 0);
  blockWords.set(right, 8);
  return compress(IV, blockWords, 0, BLOCK_LEN, PARENT | flags).slice(0, 8);
}

function wordsToBytes(words: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(OUT_LEN);
  for (let i = 0; i < OUT_LEN / 4; i++) {
    bytes[i * 4] = words[i];
    bytes[i * 4 + 1] = words[i] >>> 8;
    bytes[i * 4 + 2] = words[i] >>> 16;
    bytes[i * 4 + 3] = words[i] >>> 24;
  }
  return bytes;
}

/** BLAKE3 of `input`: a fresh 32-byte digest. */
export function hash(input: Uint8Array): Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw new TypeError('hash() expects a Uint8Array');
  }
  const blockWords = new Uint32Array(16); // reused for every block of this call
  // Chaining values of complete left subtrees, waiting for their right siblings.
  const cvStack: Uint32Array[] = [];
  let chunkCounter = 0;
  let offset = 0;
  // Every chunk but the last: the last one may need the ROOT flag, so it waits.
  while (input.length - offset > CHUNK_LEN) {
    let cv = chunkChainingValue(input, offset, offset + CHUNK_LEN, chunkCounter, false, blockWords);
    chunkCounter++;
    // One merge per trailing zero bit of the number of chunks so far.
    for (let total = chunkCounter; (total & 1) === 0; total >>= 1) {
      cv = parentChainingValue(cvStack.pop()!, cv, 0);
    }
    cvStack.push(cv);
    offset += CHUNK_LEN;
  }

  const isOnlyChunk = cvStack.length === 0;
  let cv = chunkChainingValue(input, offset, input.length, chunkCounter, isOnlyChunk, blockWords);
  // Fold the stack from the top into the last chunk; the final merge is the root.
  while (cvStack.length > 0) {
    const left = cvStack.pop()!;
    cv = parentChainingValue(left, cv, cvStack.length === 0 ? ROOT : 0);
  }
  return wordsToBytes(cv);
}

/**
 * The chaining value of `input` as one part of a larger input whose first chunk is chunk
 * number `counter` of the whole: what a worker that reads only its own part of a file
 * returns, for the file page (#/file) to merge with the others'. Never the root, so never
 * a digest. The part must be a node of BLAKE3's tree: a complete subtree, or the input's
 * last part, starting at a multiple of a power of two at least as large as its chunk count.
 */
export function chainingValue(input: Uint8Array, counter: number): Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw new TypeError('chainingValue() expects a Uint8Array');
  }
  const chunkCount = Math.ceil(input.length / CHUNK_LEN);
  let span = 1; // the smallest power of two that covers the part's chunks
  while (span < chunkCount) span *= 2;
  if (chunkCount === 0 || !Number.isSafeInteger(counter) || counter < 0 || counter % span !== 0) {
    throw new RangeError(`chainingValue() takes a part of at least 1 byte at a multiple of ${span} chunks, not ${input.length} bytes at chunk ${counter}`);
  }
  const blockWords = new Uint32Array(16); // reused for every block of this call
  const cvStack: Uint32Array[] = [];
  for (let chunk = 0; chunk < chunkCount; chunk++) {
    const start = chunk * CHUNK_LEN;
    let cv = chunkChainingValue(input, start, Math.min(start + CHUNK_LEN, input.length), counter + chunk, false, blockWords);
    // No ROOT flag to wait for, so the last chunk merges at once like the others.
    for (let total = chunk + 1; (total & 1) === 0; total >>= 1) {
      cv = parentChainingValue(cvStack.pop()!, cv, 0);
    }
    cvStack.push(cv);
  }
  // What is left are right edges of the tree: fold them from the top.
  let cv = cvStack.pop()!;
  while (cvStack.length > 0) cv = parentChainingValue(cvStack.pop()!, cv, 0);
  return wordsToBytes(cv);
}
