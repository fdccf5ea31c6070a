// Stage 9: SIMD WebAssembly, generated at runtime.
//
// Change from stage 8: whole chunks are hashed by one small WebAssembly function,
// compress4x, that runs four compressions at once in 128-bit vectors: lane k of every
// vector holds a word of input k, so the scalar algorithm carries over word for word
// (i32x4.add for +, v128.xor for ^, two shifts and an or for a rotation, or one byte
// swizzle when it moves whole bytes). No .wasm file exists anywhere: wasm.ts writes the
// module's bytes when the first hash() needs them, from the WebAssembly text in
// compress4x.ts, which gen.ts generates with the message permutation resolved in
// advance. The module imports one 64 KiB page of memory (min 1, max 1, so it can never
// grow), whatever the input size.
//
// Up to 32 whole chunks at a time are copied into that memory as they are and hashed
// there as the complete subtree they form. compress4x takes four chunks side by side,
// transposing each block into lanes as it loads it (i8x16.shuffle), and loops over their
// 16 blocks; it writes the four chaining values one after the other, so two neighbours
// are exactly a parent's 64-byte block, and the parents are hashed level by level, four
// at a time, by the same function. The subtree enters stage 8's stack as one entry of its
// height. Stage 8's path does the rest: the parents above the subtrees, fewer than four
// whole chunks left, and a final chunk shorter than 1 KiB. The tree is BLAKE3's: left
// subtrees complete and as large as possible, the final chunk (or the subtree ending on
// it) never merged eagerly, ROOT on the last compression only. (The original stage 9
// sized its stack from the chunk count without room for the entries its four-at-a-time
// path pushed, and hashed some inputs above 512 KiB wrong. Here a subtree is one entry
// where its chunks would have merged into one anyway, so stage 8's bound holds.)
//
// The article's stage 9 kept the parents in JS and transposed in JS, with about a dozen
// instruction kinds. We hash the parents in the module too, because with the same kernel,
// parents in JS measured 1.92-1.95x blake3-wasm against 2.27-2.30x (a JS compression
// costs about three SIMD lanes'); the transposition and the block loop moved in with
// them. That takes 19 instruction kinds: local.get/set/tee, i32.const/add/sub, loop,
// br_if, end, v128.const/load/store/or/xor, i32x4.add/shl/shr_u, i8x16.shuffle and
// i8x16.swizzle.
//
// WebAssembly memory is little-endian. Counters go in and chaining values come out
// through a Uint32Array view, which is little-endian only on little-endian machines, so
// a big-endian machine (and hashPortable(), which stands in for one) runs stage 8's path
// alone. Inputs are copied in bytes, so any byteOffset takes the SIMD path.
//
// Without WebAssembly SIMD, hash() throws: simdSupported() tells beforehand, and wat()
// prints the module as text, from the same lines the bytes come from.
//
// Why: the chunks of an input are independent until their parents combine them, so four
// can go side by side, and one vector instruction does the work of four scalar ones. The
// article measured 1.39x over stage 8, 2.21x the WebAssembly build of the Rust reference.
//
// Measured (2-core AMD EPYC), ratio to blake3-wasm in the same interleaved runs, medians:
// Chromium 156 in a worker (npm run bench -- --browser), 2.24-2.40x at 64 KiB and
// 2.24-2.38x at 1 MiB over six runs (the original article code did 1.80x and 1.62-1.78x
// here); Node 20, 1.68-1.70x and 1.69x. That is 2.3-3.1x stage 8, which itself moved
// between 0.7x and 1.0x blake3-wasm from run to run on this shared machine while stage
// 9's ratio held. At 1 KiB there is no subtree: stage 8.
// Step by step, in Chromium at 64 KiB / 1 MiB, each step measured against the one before:
//   transposing in JS, compress4x called per block, parents in JS     1.32x / 1.42x
//   subtrees in the module: transposition, block loop and parents     1.76x / 1.65-1.74x
//   rotations by 16 and 8 as byte swizzles, byte orders in locals     1.94x / 1.93x
//   subtrees of 32 chunks instead of 16                               +2-3%
//   the message word added to s[a] before s[b], off the critical path 1.96x -> 2.15x
//   the four g's of a half-round interleaved, statement by statement  2.15x -> 2.28x
// Tried and not kept: rotations as i8x16.shuffle (V8's x64 code rebuilds its byte order
// at every use), slower than shifts for the rotation by 8, 1.77x against 1.83x;
// transposing with v128.load32_lane instead of shuffles, 1.95x against 1.97x; message
// words read from memory at each use, no change once the rotations were swizzles; two
// groups of four chunks interleaved in one call, +8-11% (2.47x / 2.46x), but twice the
// module for code that no longer reads as one compression on four lanes. Copying the
// input into the module costs at most 3%.

import { compress } from './compress.ts';
import * as simd from './compress4x.ts';
import { assemble, printWat } from './wasm.ts';

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

// True when this machine stores a 32-bit 1 with its low byte first, as BLAKE3 does.
const IS_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

// Scratch space for every call: the block being compressed, as words.
const blockWords = new Uint32Array(16);
// Chaining values of complete left subtrees, waiting for their right siblings, 8 words
// each, plus the slot of the chunk being hashed. Replaced by a larger one when needed.
let cvStack = new Uint32Array(0);

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

// Hashes input[start, end) as chunk number `counter` and writes its chaining value to
// cv[cvOffset..+8], where each block's output becomes the next block's chaining value.
// `isRoot` is set only when this chunk is the whole input.
// `inputWords` is the input seen as words, on the little-endian fast path, or null.
function chunkChainingValue(
  input: Uint8Array,
  inputWords: Uint32Array | null,
  start: number,
  end: number,
  counter: number,
  isRoot: boolean,
  cv: Uint32Array,
  cvOffset: number,
): void {
  cv.set(IV, cvOffset); // the key words; plain hashing uses the IV
  let flags = CHUNK_START;
  let offset = start;
  // Every block but the last is full.
  while (end - offset > BLOCK_LEN) {
    if (inputWords !== null) {
      compress(cv, cvOffset, inputWords, offset / 4, cv, cvOffset, true, counter, BLOCK_LEN, flags);
    } else {
      readLittleEndianWordsFull(input, offset, blockWords);
      compress(cv, cvOffset, blockWords, 0, cv, cvOffset, true, counter, BLOCK_LEN, flags);
    }
    flags = 0;
    offset += BLOCK_LEN;
  }
  flags |= CHUNK_END | (isRoot ? ROOT : 0);
  // The last block: 1 to 64 bytes, or 0 for the empty input. Only the input's very last
  // block can be short, so the general reader now runs once per hash.
  if (end - offset === BLOCK_LEN && inputWords !== null) {
    compress(cv, cvOffset, inputWords, offset / 4, cv, cvOffset, true, counter, BLOCK_LEN, flags);
    return;
  }
  if (end - offset === BLOCK_LEN) {
    readLittleEndianWordsFull(input, offset, blockWords);
  } else {
    readLittleEndianWords(input, offset, blockWords);
  }
  compress(cv, cvOffset, blockWords, 0, cv, cvOffset, true, counter, end - offset, flags);
}

// The left and right children at cvStack[offset..+8] and [offset + 8..+8] are, side by
// side, the parent's block: compress it in place, leaving the parent's chaining value
// where the left child was.
function parentChainingValue(cvStack: Uint32Array, offset: number, flags: number): void {
  compress(IV, 0, cvStack, offset, cvStack, offset, true, 0, BLOCK_LEN, PARENT | flags);
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

// The SIMD path: compress4x hashes four chunks, or four parents, at once.

const LANES = 4;
const VECTOR = 16; // bytes in a v128: four 32-bit lanes
const CV_LEN = 32;
const BLOCKS_PER_CHUNK = CHUNK_LEN / BLOCK_LEN;

let moduleBytes: Uint8Array<ArrayBuffer> | undefined;
// Set by the first hash(): the module's function and views of its memory. The memory
// cannot grow, so the views stay valid for good.
let compress4x: ((input: number, stride: number, blocks: number, flags: number, output: number) => void) | undefined;
let simdWords = new Uint32Array(0);
let simdBytes = new Uint8Array(0);

function wasmBytes(): Uint8Array<ArrayBuffer> {
  moduleBytes ??= assemble(simd.COMPRESS4X);
  return moduleBytes;
}

/** Whether this runtime runs the module: WebAssembly with the SIMD instructions. */
export function simdSupported(): boolean {
  return typeof WebAssembly === 'object' && WebAssembly.validate(wasmBytes());
}

/** The module as WebAssembly text (WAT), printed from the lines its bytes come from. */
export function wat(): string {
  return printWat(simd.COMPRESS4X);
}

function instantiate(): void {
  if (!simdSupported()) {
    throw new Error(
      'WebAssembly SIMD is not available in this browser: stage 9 needs its 128-bit vector ' +
        'instructions. The other stages run without them.',
    );
  }
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1 });
  const instance = new WebAssembly.Instance(new WebAssembly.Module(wasmBytes()), { env: { memory } });
  simdWords = new Uint32Array(memory.buffer);
  simdBytes = new Uint8Array(memory.buffer);
  // The constants, the same word in all four lanes.
  const fill = (at: number, word: number) => simdWords.fill(word, at / 4, at / 4 + LANES);
  IV.forEach((word, i) => fill(simd.IV + VECTOR * i, word));
  fill(simd.BLOCK_LEN, BLOCK_LEN);
  for (let b = 0; b < BLOCKS_PER_CHUNK; b++) {
    fill(simd.CHUNK_FLAGS + VECTOR * b, b === 0 ? CHUNK_START : b === BLOCKS_PER_CHUNK - 1 ? CHUNK_END : 0);
  }
  fill(simd.PARENT_FLAGS, PARENT);
  fill(simd.ROOT_FLAGS, PARENT | ROOT);
  compress4x = instance.exports.compress4x as typeof compress4x;
}

// Hashes the `chunks` whole chunks at input[offset..] (a power of two from 4 to
// simd.SUBTREE_CHUNKS), numbered from `counter`, as the complete subtree they form, and
// leaves its chaining value at simd.CVS. The chunks go four at a time, then the parents
// level by level, four at a time again: at simd.CVS the two children of parent j sit side
// by side at 64 * j, so a level is read as 64-byte blocks and written back, half as long,
// over itself. With fewer than four parents left, the spare lanes hash stale chaining
// values, and their output is never read.
function subtreeChainingValue(input: Uint8Array, offset: number, chunks: number, counter: number, isRoot: boolean): void {
  const mem = simdWords;
  simdBytes.set(input.subarray(offset, offset + chunks * CHUNK_LEN), simd.INPUT);
  for (let first = 0; first < chunks; first += LANES) {
    for (let k = 0; k < LANES; k++) {
      const chunk = counter + first + k;
      mem[simd.COUNTER_LOW / 4 + k] = chunk; // the Uint32Array keeps the low 32 bits
      mem[simd.COUNTER_HIGH / 4 + k] = chunk / 0x100000000; // and this truncates to the high ones
    }
    compress4x!(simd.INPUT + first * CHUNK_LEN, CHUNK_LEN, BLOCKS_PER_CHUNK, simd.CHUNK_FLAGS, simd.CVS + first * CV_LEN);
  }
  // Parents count nothing: counter 0.
  mem.fill(0, simd.COUNTER_LOW / 4, simd.COUNTER_LOW / 4 + LANES);
  mem.fill(0, simd.COUNTER_HIGH / 4, simd.COUNTER_HIGH / 4 + LANES);
  for (let parents = chunks / 2; parents >= 1; parents /= 2) {
    const flags = parents === 1 && isRoot ? simd.ROOT_FLAGS : simd.PARENT_FLAGS;
    for (let first = 0; first < parents; first += LANES) {
      compress4x!(simd.CVS + first * BLOCK_LEN, BLOCK_LEN, 1, flags, simd.CVS + first * CV_LEN);
    }
  }
}

/** BLAKE3 of `input`: a fresh 32-byte digest. */
export function hash(input: Uint8Array): Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw new TypeError('hash() expects a Uint8Array');
  }
  if (compress4x === undefined) instantiate(); // throws without WebAssembly SIMD
  // A Uint32Array view must start at a multiple of 4 bytes into its buffer.
  return hashInput(input, IS_LITTLE_ENDIAN && input.byteOffset % 4 === 0, IS_LITTLE_ENDIAN);
}

/**
 * The same digest as hash(), always through the path that big-endian machines take
 * (copying, no SIMD), so that path can be tested and measured on any machine.
 */
export function hashPortable(input: Uint8Array): Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw new TypeError('hashPortable() expects a Uint8Array');
  }
  return hashInput(input, false, false);
}

function hashInput(input: Uint8Array, useWordView: boolean, useSimd: boolean): Uint8Array {
  // Only full blocks are read through the view; shorter inputs have none.
  const inputWords =
    useWordView && input.length >= BLOCK_LEN
      ? new Uint32Array(input.buffer, input.byteOffset, Math.floor(input.length / 4))
      : null;
  // Before chunk t (from 0) the stack holds one entry per 1 bit of t, plus the slot of
  // chunk t, so the bit length of the last t, plus one, is always enough.
  const chunkCount = Math.max(1, Math.ceil(input.length / CHUNK_LEN));
  const stackWordsNeeded = 8 * (33 - Math.clz32(chunkCount - 1));
  if (cvStack.length < stackWordsNeeded) {
    cvStack = new Uint32Array(stackWordsNeeded);
  }
  let cvStackLen = 0; // in words: the next free slot
  let chunkCounter = 0;
  let offset = 0;
  // Whole chunks go to the module as complete subtrees of 32, 16, 8 or 4 chunks, largest
  // first, so each starts at a multiple of its size and is a node of BLAKE3's tree. Each
  // enters the stack as one entry, merged as a chunk's would be once per trailing zero bit
  // of the count so far, counted in subtrees of its size: the stack never holds more
  // entries than stage 8's. A subtree ending on the final chunk takes that chunk's slot:
  // never merged eagerly, and the root itself when it is the whole input.
  const wholeChunks = Math.floor(input.length / CHUNK_LEN);
  for (let chunks = simd.SUBTREE_CHUNKS; useSimd && chunks >= LANES; chunks /= 2) {
    while (wholeChunks - chunkCounter >= chunks) {
      const isFinal = chunkCounter + chunks === chunkCount;
      subtreeChainingValue(input, offset, chunks, chunkCounter, isFinal && chunkCounter === 0);
      cvStack.set(simdWords.subarray(simd.CVS / 4, simd.CVS / 4 + 8), cvStackLen);
      chunkCounter += chunks;
      offset += chunks * CHUNK_LEN;
      if (isFinal) break;
      cvStackLen += 8;
      for (let total = chunkCounter / chunks; (total & 1) === 0; total >>= 1) {
        cvStackLen -= 8;
        parentChainingValue(cvStack, cvStackLen - 8, 0);
      }
    }
  }
  // Every chunk but the last: the last one may need the ROOT flag, so it waits.
  while (input.length - offset > CHUNK_LEN) {
    chunkChainingValue(input, inputWords, offset, offset + CHUNK_LEN, chunkCounter, false, cvStack, cvStackLen);
    cvStackLen += 8;
    chunkCounter++;
    // One merge per trailing zero bit of the number of chunks so far.
    for (let total = chunkCounter; (total & 1) === 0; total >>= 1) {
      cvStackLen -= 8;
      parentChainingValue(cvStack, cvStackLen - 8, 0);
    }
    offset += CHUNK_LEN;
  }

  if (chunkCounter < chunkCount) {
    const isOnlyChunk = cvStackLen === 0;
    chunkChainingValue(input, inputWords, offset, input.length, chunkCounter, isOnlyChunk, cvStack, cvStackLen);
  }
  // Fold the stack from the top into the last chunk; the final merge is the root.
  while (cvStackLen > 0) {
    cvStackLen -= 8;
    parentChainingValue(cvStack, cvStackLen, cvStackLen === 0 ? ROOT : 0);
  }
  return wordsToBytes(cvStack);
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
  if (compress4x === undefined) instantiate(); // throws without WebAssembly SIMD
  const useSimd = IS_LITTLE_ENDIAN;
  // Only full blocks are read through the view, which must start at a multiple of 4 bytes.
  const inputWords =
    IS_LITTLE_ENDIAN && input.byteOffset % 4 === 0 && input.length >= BLOCK_LEN
      ? new Uint32Array(input.buffer, input.byteOffset, Math.floor(input.length / 4))
      : null;
  const stackWordsNeeded = 8 * (33 - Math.clz32(chunkCount - 1));
  if (cvStack.length < stackWordsNeeded) cvStack = new Uint32Array(stackWordsNeeded);
  let cvStackLen = 0; // in words: the next free slot
  let done = 0; // chunks hashed so far
  // Whole chunks in module subtrees, largest first, merged as in hashInput(); the part
  // starts at a multiple of its own size, so each subtree is a node of the whole tree.
  const wholeChunks = Math.floor(input.length / CHUNK_LEN);
  for (let chunks = simd.SUBTREE_CHUNKS; useSimd && chunks >= LANES; chunks /= 2) {
    while (wholeChunks - done >= chunks) {
      subtreeChainingValue(input, done * CHUNK_LEN, chunks, counter + done, false);
      cvStack.set(simdWords.subarray(simd.CVS / 4, simd.CVS / 4 + 8), cvStackLen);
      cvStackLen += 8;
      done += chunks;
      for (let total = done / chunks; (total & 1) === 0; total >>= 1) {
        cvStackLen -= 8;
        parentChainingValue(cvStack, cvStackLen - 8, 0);
      }
    }
  }
  for (; done < chunkCount; done++) {
    const start = done * CHUNK_LEN;
    chunkChainingValue(input, inputWords, start, Math.min(start + CHUNK_LEN, input.length), counter + done, false, cvStack, cvStackLen);
    cvStackLen += 8;
    // No ROOT flag to wait for, so the last chunk merges at once like the others.
    for (let total = done + 1; (total & 1) === 0; total >>= 1) {
      cvStackLen -= 8;
      parentChainingValue(cvStack, cvStackLen - 8, 0);
    }
  }
  // What is left are right edges of the tree: fold them from the top.
  while (cvStackLen > 8) {
    cvStackLen -= 8;
    parentChainingValue(cvStack, cvStackLen - 8, 0);
  }
  return wordsToBytes(cvStack);
}
