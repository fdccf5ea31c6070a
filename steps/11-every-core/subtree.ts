// The chaining value of one part of an input, wherever it sits in BLAKE3's tree: the
// work a pool worker does for each piece it takes, and the calling thread for its own.
//
// A part starts on a chunk boundary and is either a complete subtree (a power-of-two
// number of chunks, starting at a multiple of that number) or the input's tail, the part
// after the last complete piece. Its chunks are numbered from `counter`, its place in the
// whole input: the chunk counter is the one thing in a chunk's hash that depends on where
// the chunk sits. Its chaining value is never the root: the calling thread merges it with
// the others and sets ROOT on the last merge.
//
// The hashing itself is stage 10's: the same generated SIMD module (compress4x, four
// chunks or parents at once, subtrees of up to 32 chunks), and for the few parents above
// those subtrees and the last few chunks, the compress() its portable path keeps. Stage 10
// keeps its instance private, so each thread sets up its own instance here; a module
// instance and its one-page memory belong to one thread anyway.

import { compress } from '../10-simd-one-block/compress.ts';
import * as simd from '../10-simd-one-block/compress4x.ts';
import { assemble } from '../10-simd-one-block/wasm.ts';

const BLOCK_LEN = 64;
const CHUNK_LEN = 1024;
const BLOCKS_PER_CHUNK = CHUNK_LEN / BLOCK_LEN;
const LANES = 4;
const VECTOR = 16; // bytes in a v128
const CV_WORDS = 8;

// Domain flags used by plain hashing.
const CHUNK_START = 1 << 0;
const CHUNK_END = 1 << 1;
const PARENT = 1 << 2;
export const ROOT = 1 << 3;

export const IV = new Uint32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** Merges the children at cvs[offset..+8] and [offset + 8..+8] into their parent, in place. */
export function mergeParent(cvs: Uint32Array, offset: number, flags = 0): void {
  compress(IV, 0, cvs, offset, cvs, offset, true, 0, BLOCK_LEN, PARENT | flags);
}

let compress4x: ((input: number, stride: number, blocks: number, flags: number, output: number) => void) | undefined;
let simdWords = new Uint32Array(0);
let simdBytes = new Uint8Array(0);

// Instantiates the module and writes its constants, as stage 10 does on its first hash.
function instantiate(): void {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1 });
  const module = new WebAssembly.Module(assemble(simd.COMPRESS4X));
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  simdWords = new Uint32Array(memory.buffer);
  simdBytes = new Uint8Array(memory.buffer);
  const splat = (at: number, word: number) => simdWords.fill(word, at / 4, at / 4 + LANES);
  IV.forEach((word, i) => splat(simd.IV + VECTOR * i, word));
  splat(simd.BLOCK_LEN, BLOCK_LEN);
  for (let b = 0; b < BLOCKS_PER_CHUNK; b++) {
    const flags = (b === 0 ? CHUNK_START : 0) | (b === BLOCKS_PER_CHUNK - 1 ? CHUNK_END : 0);
    splat(simd.CHUNK_FLAGS + VECTOR * b, flags);
  }
  splat(simd.PARENT_FLAGS, PARENT);
  compress4x = instance.exports.compress4x as typeof compress4x;
}

// `chunks` whole chunks (4 to 32, a power of two) at input[offset..], numbered from
// `counter`, hashed in the module as the subtree they form; the chaining value goes to
// out[outOffset..+8].
function simdSubtree(input: Uint8Array, offset: number, chunks: number, counter: number, out: Uint32Array, outOffset: number): void {
  const mem = simdWords;
  simdBytes.set(input.subarray(offset, offset + chunks * CHUNK_LEN), simd.INPUT);
  for (let first = 0; first < chunks; first += LANES) {
    for (let k = 0; k < LANES; k++) {
      const chunk = counter + first + k;
      mem[simd.COUNTER_LOW / 4 + k] = chunk;
      mem[simd.COUNTER_HIGH / 4 + k] = chunk / 0x100000000;
    }
    compress4x!(simd.INPUT + first * CHUNK_LEN, CHUNK_LEN, BLOCKS_PER_CHUNK, simd.CHUNK_FLAGS, simd.CVS + first * 32);
  }
  mem.fill(0, simd.COUNTER_LOW / 4, simd.COUNTER_HIGH / 4 + LANES); // parents count nothing
  for (let parents = chunks / 2; parents >= 1; parents /= 2) {
    for (let first = 0; first < parents; first += LANES) {
      compress4x!(simd.CVS + first * BLOCK_LEN, BLOCK_LEN, 1, simd.PARENT_FLAGS, simd.CVS + first * 32);
    }
  }
  out.set(mem.subarray(simd.CVS / 4, simd.CVS / 4 + CV_WORDS), outOffset);
}

// One block as 16 words, zero-padded; the tail is rare enough to read a byte at a time.
const block = new Uint32Array(16);
const blockBytes = new Uint8Array(block.buffer);

// The chunk input[start, end) (1 to 1024 bytes), numbered `counter`, with compress() alone.
function scalarChunk(input: Uint8Array, start: number, end: number, counter: number, out: Uint32Array, outOffset: number): void {
  out.set(IV, outOffset);
  const blocks = Math.max(1, Math.ceil((end - start) / BLOCK_LEN));
  for (let b = 0; b < blocks; b++) {
    const from = start + b * BLOCK_LEN;
    const length = Math.min(BLOCK_LEN, end - from);
    blockBytes.fill(0);
    blockBytes.set(input.subarray(from, from + length));
    const flags = (b === 0 ? CHUNK_START : 0) | (b === blocks - 1 ? CHUNK_END : 0);
    compress(out, outOffset, block, 0, out, outOffset, true, counter, length, flags);
  }
}

// Chaining values of subtrees waiting for a sibling, 8 words each, with the number of
// chunks each covers. 64 entries: more than a 2^53-byte input could need.
const stack = new Uint32Array(64 * CV_WORDS);
const stackChunks: number[] = [];

// Pushes the entry just written at the top of the stack, merging while the two on top
// cover as many chunks each: BLAKE3's tree, built left to right like a binary counter.
function pushEntry(chunks: number): void {
  stackChunks.push(chunks);
  let n = stackChunks.length;
  while (n >= 2 && stackChunks[n - 1] === stackChunks[n - 2]) {
    mergeParent(stack, (n - 2) * CV_WORDS);
    stackChunks.pop();
    stackChunks[n - 2] *= 2;
    n--;
  }
}

/** Whether this thread can run the module: WebAssembly with SIMD, on a little-endian machine. */
export function subtreeSupported(): boolean {
  const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  return littleEndian && typeof WebAssembly === 'object' && WebAssembly.validate(assemble(simd.COMPRESS4X));
}

/**
 * Writes to out[outOffset..+8] the chaining value (never the root's) of `part`, whose first
 * chunk is chunk number `counter` of the whole input. `part` is a complete subtree or the
 * input's tail (see the header); it is at least one byte long.
 */
export function partChainingValue(part: Uint8Array, counter: number, out: Uint32Array, outOffset: number): void {
  if (compress4x === undefined) instantiate();
  stackChunks.length = 0;
  const wholeChunks = Math.floor(part.length / CHUNK_LEN);
  let done = 0; // chunks hashed so far
  // Whole chunks in module subtrees, largest first, so each starts at a multiple of its size.
  for (let chunks = simd.SUBTREE_CHUNKS; chunks >= LANES; chunks /= 2) {
    while (wholeChunks - done >= chunks) {
      simdSubtree(part, done * CHUNK_LEN, chunks, counter + done, stack, stackChunks.length * CV_WORDS);
      pushEntry(chunks);
      done += chunks;
    }
  }
  // Up to three whole chunks and a partial one.
  for (let start = done * CHUNK_LEN; start < part.length; start += CHUNK_LEN) {
    scalarChunk(part, start, Math.min(start + CHUNK_LEN, part.length), counter + done, stack, stackChunks.length * CV_WORDS);
    pushEntry(1);
    done++;
  }
  // What is left are right edges of the tree: fold them from the top.
  for (let n = stackChunks.length; n >= 2; n--) mergeParent(stack, (n - 2) * CV_WORDS);
  out.set(stack.subarray(0, CV_WORDS), outOffset);
}
