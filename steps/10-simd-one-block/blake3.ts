// Stage 10: one block at a time in the module. Past the end of the article.
//
// Change from stage 9: what stage 9 still hashed in JavaScript goes through a second
// kind of function in the module, compress1x: inputs of one chunk or less, up to three
// whole chunks and a short final chunk of larger inputs (no whole chunks when the input
// is a multiple of 4 KiB), and every parent above the subtrees. compress1x takes one chunk that JS has copied into the page, zero-padded to
// whole blocks, and compresses its blocks in a loop, the chaining value staying in the
// function; a parent is the same call on the two children's 64 bytes. An input of 1 KiB
// or less is one copy, one call and a copy of the 32-byte digest out of the page, with
// no other allocation. The stack of chaining values moves into the page on this path (after
// compress4x's layout), so a parent's two children already lie side by side as its block.
// compress4x and its subtrees are stage 9's, unchanged. gen.ts writes compress1x from the
// same kind of listing as compress4x; all are assembled at runtime into modules over
// one imported page: no .wasm file, one 64 KiB page whatever the input, and wat() prints
// them; wasm.ts is stage 9's assembler with the nine instructions compress1x needs
// besides, written from stage 9's file by gen-wasm.ts. The portable path (big-endian
// machines, hashPortable()) is stage 9's JS; the word view of the input, which only
// served JS chunks on little-endian machines, is gone.
//
// Why: one chunk is one chain of blocks, each waiting for the previous one's output, so
// stage 9's four chunk lanes have nothing to hold below 4 KiB. A JS call per block, with
// typed-array reads and rotations built from two shifts, is what was left to remove.
//
// compress1x comes in two versions with the same arguments and results (gen.ts):
// compress1xRows, BLAKE3's SSE4.1 way, the state as four rows of four lanes and the
// diagonals lined up by lane shuffles; and compress1xWords, 16 i32 locals, every g written
// out, i32.rotr for rotations, the four g's of a half-round interleaved statement by
// statement. Which is faster depends on the processor, and on one machine can change
// from load to load, as chooseOneBlockCode() finds when the stage loads, compressing one
// chunk again and again: in Chromium on a 2-core AMD EPYC the words took 54-55 ns a block
// and an earlier rows version 96-98; on a 2-core Intel Xeon the words took about twice as long as
// the rows (that load's own figures, 200-250 and 95-140 ns, were more than the Xeon's
// bench then gave a whole 1 KiB hash, 63 ns a block with the call: only their ratio is
// kept). On the EPYC which one wins, and by how much, changes from load to load: this
// stage's note in each committed run gives that load's two figures (data/native/ and
// data/engines/; earlier runs in the git history of data/native/). So chooseOneBlockCode(), which the stage's
// load() awaits, times both on the machine that runs them and keeps the faster; hash()
// without it uses the rows.
//
// Measured with the words on the EPYC (Chromium 156, in a Web Worker), medians of the
// quietest of several `npm run bench -- --browser --stages 9,10 --sizes
// 96B,512B,1KiB,64KiB,1MiB` runs: 96 B 513 MB/s, 512 B 938, 1 KiB 957; 1.54x, 1.26x and
// 1.35x blake3-jit, 2.22x, 1.63x and 1.52x blake3-wasm. With the rows on the Xeon, one
// 8-round run at 96 B, 512 B and 1 KiB: 2.74x, 2.30x and 1.83x blake3-wasm, 2.24x, 2.07x
// and 2.10x blake3-jit, 2.8x, 2.5x and 2.1x stage 9. At 64 KiB and up stage 10 runs stage
// 9's compress4x; the two are level or stage 10 slightly ahead.
//
// Against native code in one run (2026-11-26, in git history; data/native/ now: `npm run
// bench -- --browser --stages 10,11 --sizes 96B,1KiB,64KiB,1MiB,4MiB,16MiB --rounds 20
// --native`, Chromium 156 on the 2-core AMD EPYC, the machine shared): 0.55x the blake3
// crate on one thread with SSE4.1 at 96 B, 0.79x at 1 KiB, 0.87x at 64 KiB and 0.83x at
// 1 MiB. A 1 KiB hash cost stage 10 88 ns a block and native code 69, each call's own
// costs included. At 96 B stage 10 took 117 ns a hash longer than native code: that
// bounds the per-call costs native code does not pay and a JavaScript hash() must (the
// copy into the page and the fresh digest out) at about 7 ns a block at 1 KiB, so most
// of the 19 ns a block is the compression itself (content/stages/10 computes these).
//
// Without WebAssembly SIMD, hash() throws, as in stage 9: simdSupported() tells beforehand.

import { compress } from './compress.ts';
import * as simd from './compress4x.ts';
import * as one from './compress1x.ts';
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
// `isRoot` is set only when this chunk is the whole input. This is the path of machines
// without the module (big-endian ones, and hashPortable()): the SIMD path hashes every
// chunk in the module now, so stage 9's word view of the input went with it.
function chunkChainingValue(
  input: Uint8Array,
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
    readLittleEndianWordsFull(input, offset, blockWords);
    compress(cv, cvOffset, blockWords, 0, cv, cvOffset, true, counter, BLOCK_LEN, flags);
    flags = 0;
    offset += BLOCK_LEN;
  }
  flags |= CHUNK_END | (isRoot ? ROOT : 0);
  // The last block: 1 to 64 bytes, or 0 for the empty input.
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

// The SIMD path: compress4x hashes four chunks, or four parents, at once; compress1x
// hashes one chunk, or one parent, a block at a time, four words at once.

const LANES = 4;
const VECTOR = 16; // bytes in a v128: four 32-bit lanes
const CV_LEN = 32;
const BLOCKS_PER_CHUNK = CHUNK_LEN / BLOCK_LEN;

// Past compress4x's layout, the rest of the page holds the stack of chaining values on
// the SIMD path: a parent's two children then lie side by side in the module's memory,
// already its block. 34 entries cover any input up to 2^33 chunks (8 TiB); the bottom
// entry ends up holding the root, so the digest is read from CV_STACK.
const CV_STACK = simd.INPUT + simd.SUBTREE_CHUNKS * CHUNK_LEN;
const CV_STACK_WORDS = 34 * 8;
if (CV_STACK + 4 * CV_STACK_WORDS > 65536) throw new Error('the CV stack does not fit in the 64 KiB page');

type Compress1x = (
  input: number,
  length: number,
  counterLow: number,
  counterHigh: number,
  startFlags: number,
  endFlags: number,
  output: number,
) => void;

/** The two one-block codes: the state as four SIMD rows, or as 16 i32 words. */
export type OneBlockCode = 'rows' | 'words';

/** Which one-block code hashes, and when it was chosen by timing, what each took. */
export interface OneBlockChoice {
  code: OneBlockCode;
  /** Nanoseconds a block, the fastest of the timed runs; absent until chooseOneBlockCode() ran. */
  nsPerBlock?: Record<OneBlockCode, number>;
}

let moduleBytes: Uint8Array<ArrayBuffer>[] | undefined;
// Set by the first hash(): the modules' functions and views of their one memory. The
// memory cannot grow, so the views stay valid for good.
let compress4x: ((input: number, stride: number, blocks: number, flags: number, output: number) => void) | undefined;
let oneBlock: Record<OneBlockCode, Compress1x>;
// The one-block code in use: rows until chooseOneBlockCode() has timed both.
let compress1x: Compress1x;
let choice: OneBlockChoice = { code: 'rows' };
let simdWords = new Uint32Array(0);
let simdBytes = new Uint8Array(0);
// The bottom of the stack as bytes, where the digest ends up.
let rootBytes = new Uint8Array(0);

/** The three modules' bytes: compress4x and the two compress1x, each a function over the same imported page. */
function wasmBytes(): Uint8Array<ArrayBuffer>[] {
  moduleBytes ??= [simd.COMPRESS4X, one.COMPRESS1X_ROWS, one.COMPRESS1X_WORDS].map(assemble);
  return moduleBytes;
}

/** Whether this runtime runs the modules: WebAssembly with the SIMD instructions. */
export function simdSupported(): boolean {
  return typeof WebAssembly === 'object' && wasmBytes().every((bytes) => WebAssembly.validate(bytes));
}

/** The modules as WebAssembly text (WAT), printed from the lines their bytes come from. */
export function wat(): string {
  return [
    ';; Three modules over one imported page: compress4x (four inputs at once, as in stage 9)',
    ';; and two ways to hash one input a block at a time, of which the faster one here is used:',
    ';; compress1xRows (the state as four vectors) and compress1xWords (as 16 i32 words).',
    '',
    printWat(simd.COMPRESS4X),
    printWat(one.COMPRESS1X_ROWS),
    printWat(one.COMPRESS1X_WORDS),
  ].join('\n');
}

function instantiate(): void {
  if (!simdSupported()) {
    throw new Error(
      'WebAssembly SIMD is not available in this browser: stage 10 needs its 128-bit vector ' +
        'instructions. The stages before 9 run without them.',
    );
  }
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1 });
  const [bytes4x, bytesRows, bytesWords] = wasmBytes();
  const exportsOf = (bytes: Uint8Array<ArrayBuffer>) =>
    new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports;
  simdWords = new Uint32Array(memory.buffer);
  simdBytes = new Uint8Array(memory.buffer);
  rootBytes = simdBytes.subarray(CV_STACK, CV_STACK + OUT_LEN);
  // The constants, the same word in all four lanes.
  const fill = (at: number, word: number) => simdWords.fill(word, at / 4, at / 4 + LANES);
  IV.forEach((word, i) => fill(simd.IV + VECTOR * i, word));
  fill(simd.BLOCK_LEN, BLOCK_LEN);
  for (let b = 0; b < BLOCKS_PER_CHUNK; b++) {
    fill(simd.CHUNK_FLAGS + VECTOR * b, b === 0 ? CHUNK_START : b === BLOCKS_PER_CHUNK - 1 ? CHUNK_END : 0);
  }
  fill(simd.PARENT_FLAGS, PARENT);
  fill(simd.ROOT_FLAGS, PARENT | ROOT);
  oneBlock = {
    rows: exportsOf(bytesRows).compress1xRows as Compress1x,
    words: exportsOf(bytesWords).compress1xWords as Compress1x,
  };
  compress1x = oneBlock[choice.code];
  compress4x = exportsOf(bytes4x).compress4x as typeof compress4x;
}

/** The one-block code hash() uses, and what timing chose it, if it was timed. */
export function oneBlockChoice(): OneBlockChoice {
  return choice;
}

/** Makes hash() use one of the two one-block codes (tests run both; chooseOneBlockCode() times them). */
export function useOneBlockCode(code: OneBlockCode): void {
  if (compress4x === undefined) instantiate();
  choice = { code };
  compress1x = oneBlock[code];
}

/**
 * Times the two one-block codes on this machine and keeps the faster (see the header for
 * what it found on two processors). Asynchronous so the engine can finish optimizing both in the background
 * between the warm-up and the timing: freshly loaded code runs first in a quickly
 * compiled form that says little about the final speed. The stage's load() awaits it;
 * without it, hash() uses rows. Does nothing without WebAssembly SIMD.
 */
export async function chooseOneBlockCode(): Promise<OneBlockChoice> {
  if (!IS_LITTLE_ENDIAN || !simdSupported()) return choice;
  if (compress4x === undefined) instantiate();
  const codes: OneBlockCode[] = ['rows', 'words'];
  // A whole chunk of zeros, 16 blocks, compressed again and again; its chaining value goes where the root's would.
  simdBytes.fill(0, simd.INPUT, simd.INPUT + CHUNK_LEN);
  const run = (code: OneBlockCode, calls: number) => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) oneBlock[code](simd.INPUT, CHUNK_LEN, i, 0, CHUNK_START, CHUNK_END, CV_STACK);
    return ((performance.now() - start) * 1e6) / (calls * BLOCKS_PER_CHUNK);
  };
  for (let warm = 0; warm < 3; warm++) {
    for (const code of codes) run(code, 300);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const nsPerBlock = { rows: Infinity, words: Infinity };
  for (let round = 0; round < 7; round++) {
    for (const code of codes) nsPerBlock[code] = Math.min(nsPerBlock[code], run(code, 100));
  }
  const code = nsPerBlock.rows <= nsPerBlock.words ? 'rows' : 'words';
  choice = { code, nsPerBlock };
  compress1x = oneBlock[code];
  return choice;
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

// Copies input[start, end) (at most a chunk) to simd.INPUT and zeroes the rest of its
// last block, or the whole block for the empty input: compress1x reads whole blocks.
function copyChunk(input: Uint8Array, start: number, end: number): void {
  const length = end - start;
  simdBytes.set(start === 0 && end === input.length ? input : input.subarray(start, end), simd.INPUT);
  // At most 64 bytes: a loop costs less here than a call to fill() (13 against 35 ns for 32).
  const padded = length === 0 ? BLOCK_LEN : (length + BLOCK_LEN - 1) & -BLOCK_LEN;
  for (let i = simd.INPUT + length; i < simd.INPUT + padded; i++) simdBytes[i] = 0;
}

// A fresh copy of the digest at the bottom of the stack: new and set() took 37 ns where
// slice() of the page took 44-48 (Node 20 on a 2-core AMD EPYC, fastest of 30 runs of
// 200 000 calls, three times).
function digest(): Uint8Array {
  const bytes = new Uint8Array(OUT_LEN);
  bytes.set(rootBytes);
  return bytes;
}

// Chunks and parents on either path. On the SIMD path `cv` is the module's memory (as
// words) and the work is done there; otherwise it is cvStack and the work is stage 8's.

function chunkOnPath(
  useSimd: boolean,
  input: Uint8Array,
  start: number,
  end: number,
  counter: number,
  isRoot: boolean,
  cv: Uint32Array,
  cvOffset: number,
): void {
  if (!useSimd) return chunkChainingValue(input, start, end, counter, isRoot, cv, cvOffset);
  copyChunk(input, start, end);
  // An i32 parameter keeps the low 32 bits of the counter, and truncates counter / 2^32 to the high ones.
  compress1x(simd.INPUT, end - start, counter, counter / 0x100000000, CHUNK_START, CHUNK_END | (isRoot ? ROOT : 0), cvOffset * 4);
}

function parentOnPath(useSimd: boolean, cv: Uint32Array, offset: number, flags: number): void {
  if (!useSimd) return parentChainingValue(cv, offset, flags);
  compress1x(offset * 4, BLOCK_LEN, 0, 0, PARENT, flags, offset * 4);
}

/** BLAKE3 of `input`: a fresh 32-byte digest. */
export function hash(input: Uint8Array): Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw new TypeError('hash() expects a Uint8Array');
  }
  if (compress4x === undefined) instantiate(); // throws without WebAssembly SIMD
  if (!IS_LITTLE_ENDIAN) return hashInput(input, false);
  // One chunk or less, the inputs stage 9 hashed in JS: one copy, one call, the digest.
  if (input.length <= CHUNK_LEN) {
    copyChunk(input, 0, input.length);
    compress1x(simd.INPUT, input.length, 0, 0, CHUNK_START, CHUNK_END | ROOT, CV_STACK);
    return digest();
  }
  return hashInput(input, true);
}

/**
 * The same digest as hash(), always through the path that big-endian machines take
 * (copying, no SIMD), so that path can be tested and measured on any machine.
 */
export function hashPortable(input: Uint8Array): Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw new TypeError('hashPortable() expects a Uint8Array');
  }
  return hashInput(input, false);
}

function hashInput(input: Uint8Array, useSimd: boolean): Uint8Array {
  // Before chunk t (from 0) the stack holds one entry per 1 bit of t, plus the slot of
  // chunk t, so the bit length of the last t, plus one, is always enough.
  const chunkCount = Math.max(1, Math.ceil(input.length / CHUNK_LEN));
  const stackWordsNeeded = 8 * (33 - Math.clz32(chunkCount - 1));
  if (!useSimd && cvStack.length < stackWordsNeeded) {
    cvStack = new Uint32Array(stackWordsNeeded);
  }
  if (useSimd && stackWordsNeeded > CV_STACK_WORDS) {
    throw new RangeError(`hash() takes inputs up to 2^33 chunks; this one has ${chunkCount}`);
  }
  // The stack, and its bottom and next free slot, in words.
  const stack = useSimd ? simdWords : cvStack;
  const bottom = useSimd ? CV_STACK / 4 : 0;
  let top = bottom;
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
      stack.copyWithin(top, simd.CVS / 4, simd.CVS / 4 + 8);
      chunkCounter += chunks;
      offset += chunks * CHUNK_LEN;
      if (isFinal) break;
      top += 8;
      for (let total = chunkCounter / chunks; (total & 1) === 0; total >>= 1) {
        top -= 8;
        parentOnPath(useSimd, stack, top - 8, 0);
      }
    }
  }
  // Every chunk but the last: the last one may need the ROOT flag, so it waits.
  while (input.length - offset > CHUNK_LEN) {
    chunkOnPath(useSimd, input, offset, offset + CHUNK_LEN, chunkCounter, false, stack, top);
    top += 8;
    chunkCounter++;
    // One merge per trailing zero bit of the number of chunks so far.
    for (let total = chunkCounter; (total & 1) === 0; total >>= 1) {
      top -= 8;
      parentOnPath(useSimd, stack, top - 8, 0);
    }
    offset += CHUNK_LEN;
  }

  if (chunkCounter < chunkCount) {
    chunkOnPath(useSimd, input, offset, input.length, chunkCounter, top === bottom, stack, top);
  }
  // Fold the stack from the top into the last chunk; the final merge is the root.
  while (top > bottom) {
    top -= 8;
    parentOnPath(useSimd, stack, top, top === bottom ? ROOT : 0);
  }
  return useSimd ? digest() : wordsToBytes(cvStack);
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
  const stackWordsNeeded = 8 * (33 - Math.clz32(chunkCount - 1));
  if (!useSimd && cvStack.length < stackWordsNeeded) {
    cvStack = new Uint32Array(stackWordsNeeded);
  }
  if (useSimd && stackWordsNeeded > CV_STACK_WORDS) {
    throw new RangeError(`chainingValue() takes parts up to 2^33 chunks; this one has ${chunkCount}`);
  }
  // The stack, and its bottom and next free slot, in words, as in hashInput().
  const stack = useSimd ? simdWords : cvStack;
  const bottom = useSimd ? CV_STACK / 4 : 0;
  let top = bottom;
  let done = 0; // chunks hashed so far
  // Whole chunks in module subtrees, largest first, merged as in hashInput(); the part
  // starts at a multiple of its own size, so each subtree is a node of the whole tree.
  const wholeChunks = Math.floor(input.length / CHUNK_LEN);
  for (let chunks = simd.SUBTREE_CHUNKS; useSimd && chunks >= LANES; chunks /= 2) {
    while (wholeChunks - done >= chunks) {
      subtreeChainingValue(input, done * CHUNK_LEN, chunks, counter + done, false);
      stack.copyWithin(top, simd.CVS / 4, simd.CVS / 4 + 8);
      top += 8;
      done += chunks;
      for (let total = done / chunks; (total & 1) === 0; total >>= 1) {
        top -= 8;
        parentOnPath(useSimd, stack, top - 8, 0);
      }
    }
  }
  for (; done < chunkCount; done++) {
    const start = done * CHUNK_LEN;
    chunkOnPath(useSimd, input, start, Math.min(start + CHUNK_LEN, input.length), counter + done, false, stack, top);
    top += 8;
    // No ROOT flag to wait for, so the last chunk merges at once like the others.
    for (let total = done + 1; (total & 1) === 0; total >>= 1) {
      top -= 8;
      parentOnPath(useSimd, stack, top - 8, 0);
    }
  }
  // What is left are right edges of the tree: fold them from the top.
  while (top > bottom + 8) {
    top -= 8;
    parentOnPath(useSimd, stack, top - 8, 0);
  }
  return useSimd ? digest() : wordsToBytes(cvStack);
}
