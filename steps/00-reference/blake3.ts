// Stage 0: the reference port.
//
// A direct, readable transcription of the BLAKE3 reference algorithm, the starting point
// of the story. Every piece keeps its spec name and does one thing the obvious way:
// g() mixes one column or diagonal, round() calls g() eight times, permute() copies the
// message words into a new array and rearranges them, compress() allocates its state
// and a copy of the block and returns a new 16-word array, chunks are hashed block by
// block, and the chaining-value stack is a plain JS array of 8-word arrays.
//
// This stage is QUADRATIC ON PURPOSE. Its general word reader, readLittleEndianWords(),
// runs its loop to the end of the whole input instead of the end of the 64-byte block.
// Typed arrays silently drop writes past their end, so the digest is still right, but
// every block walks over all the bytes that follow it: the work grows with the square
// of the input size. The article does not show its reader; this port keeps the flaw on
// purpose, and finding it with a profiler is the lesson of stage 1. The article measured
// this stage about 2000x slower than the official Rust code compiled to WebAssembly.
// One hash of 1 MiB takes seconds, so the bench's time box skips this stage there.
//
// Measured in a run not kept (Node 20, 2-core AMD EPYC): 1.9 MB/s at 64 KiB, about 570x
// slower than blake3-wasm's 1092 MB/s in the same run; 37 MB/s at 1 KiB, where the scan
// is short; 4.5 s for one hash of 1 MiB. The committed run the lesson quotes: data/engines/.

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

function round(state: Uint32Array, m: Uint32Array): void {
  // Mix the columns.
  g(state, 0, 4, 8, 12, m[0], m[1]);
  g(state, 1, 5, 9, 13, m[2], m[3]);
  g(state, 2, 6, 10, 14, m[4], m[5]);
  g(state, 3, 7, 11, 15, m[6], m[7]);
  // Mix the diagonals.
  g(state, 0, 5, 10, 15, m[8], m[9]);
  g(state, 1, 6, 11, 12, m[10], m[11]);
  g(state, 2, 7, 8, 13, m[12], m[13]);
  g(state, 3, 4, 9, 14, m[14], m[15]);
}

function permute(m: Uint32Array): void {
  const original = new Uint32Array(m);
  for (let i = 0; i < 16; i++) {
    m[i] = original[MSG_PERMUTATION[i]];
  }
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
  // permute() rearranges the block in place; the caller's words must stay as they were.
  const block = new Uint32Array(blockWords);

  round(state, block); // round 1
  permute(block);
  round(state, block); // round 2
  permute(block);
  round(state, block); // round 3
  permute(block);
  round(state, block); // round 4
  permute(block);
  round(state, block); // round 5
  permute(block);
  round(state, block); // round 6
  permute(block);
  round(state, block); // round 7

  for (let i = 0; i < 8; i++) {
    state[i] ^= state[i + 8];
    state[i + 8] ^= cv[i];
  }
  return state;
}

// Reads the block starting at `offset` as 16 little-endian words, zero-padding what
// lies past the end of the input. Written for any length, with a bounds check per byte.
//
// THE FLAW: the loop is bounded by the end of the whole input, not by the end of the
// block. Word indexes past 15 land outside `words`, where typed arrays drop the write,
// so the result is right, but every call walks the whole rest of the input.
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
    readLittleEndianWords(input, offset, blockWords);
    cv = compress(cv, blockWords, counter, BLOCK_LEN, flags).slice(0, 8);
    flags = 0;
    offset += BLOCK_LEN;
  }
  // The last block: 1 to 64 bytes, or 0 for the empty input.
  readLittleEndianWords(input, offset, blockWords);
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
