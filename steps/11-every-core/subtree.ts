// One shared WebAssembly.Memory for every thread, and what one thread hashes in it: the
// work a pool worker does for each piece it takes, and the calling thread for its own.
//
// The memory's layout, byte addresses:
//
//   0 .. 463       the constants compress4x reads (compress4x.ts): IV, block length and
//                  flags vectors, the same for every thread, written once;
//   AREAS ..       one area per thread (0 the calling thread, 1.. the pool workers): the
//                  four lanes' chunk counters; room for the chaining values of a piece's
//                  chunks, which its parents then overwrite level by level; and room for
//                  one piece the thread copies in itself (its staging);
//   input address  from the first 64 KiB page after the areas: the pieces the calling
//                  thread copies in for the workers (a window of them at a time, when the
//                  input is larger than the memory may grow).
//
// Every thread instantiates the same module (wasm.ts, compress4x.ts) on this memory and
// reads each piece where it lies, in the input region or in its own staging. A thread
// that copies a piece copies it once, whole, where the module reads it (stage 10 copies
// every 32 chunks into its page). Only its own thread ever writes to a staging: a worker
// that is late with a piece of an earlier hash can write nowhere the next hash reads.
// A piece is a complete subtree, a power-of-two number of
// chunks starting at a multiple of that number, numbered from `counter`, its place in the
// whole input: the chunk counter is the one thing in a chunk's hash that depends on where
// it sits. The tail, the part after the last whole piece, is hashed by the calling
// thread: its whole subtrees of four chunks and more in the module too, and its last
// three chunks at most, with the partial one, by stage 10's JavaScript compress(), as are
// the parents above the pieces (a few dozen compressions against tens of thousands).

import { compress } from '../10-simd-one-block/compress.ts';
import * as simd from './compress4x.ts';
import { assemble } from './wasm.ts';

const BLOCK_LEN = 64;
const CHUNK_LEN = 1024;
const BLOCKS_PER_CHUNK = CHUNK_LEN / BLOCK_LEN;
const LANES = 4;
const VECTOR = 16; // bytes in a v128
const CV_WORDS = 8;
const CV_LEN = 32;
const PAGE = 65536;

// Domain flags used by plain hashing.
const CHUNK_START = 1 << 0;
const CHUNK_END = 1 << 1;
const PARENT = 1 << 2;
export const ROOT = 1 << 3;

export const IV = new Uint32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** The largest piece, in chunks (1 MiB): its chunks' chaining values fill a thread's area. */
export const MAX_PIECE_CHUNKS = 1024;
/** Where the threads' areas start: past the constants. */
const AREAS = 512;
/** One thread's area: 32 bytes of counters (padded to 64), a piece's chaining values, then its staging. */
const AREA_BYTES = 64 + MAX_PIECE_CHUNKS * CV_LEN + MAX_PIECE_CHUNKS * CHUNK_LEN;

/** Where the input starts in a memory laid out for `threads` threads: a page boundary. */
export function inputAddress(threads: number): number {
  return Math.ceil((AREAS + threads * AREA_BYTES) / PAGE) * PAGE;
}

/**
 * A shared memory for `threads` threads and at most `inputBytes` of input at a time, with
 * the constants written. It starts with the areas only and grows as inputs need
 * (growInput), since a page once grown stays with it.
 */
export function createMemory(threads: number, inputBytes: number): WebAssembly.Memory {
  const initial = inputAddress(threads) / PAGE;
  const memory = new WebAssembly.Memory({ initial, maximum: initial + Math.ceil(inputBytes / PAGE), shared: true });
  const words = new Uint32Array(memory.buffer);
  const splat = (at: number, word: number) => words.fill(word, at / 4, at / 4 + LANES);
  IV.forEach((word, i) => splat(simd.IV + VECTOR * i, word));
  splat(simd.BLOCK_LEN, BLOCK_LEN);
  for (let b = 0; b < BLOCKS_PER_CHUNK; b++) {
    splat(simd.CHUNK_FLAGS + VECTOR * b, (b === 0 ? CHUNK_START : 0) | (b === BLOCKS_PER_CHUNK - 1 ? CHUNK_END : 0));
  }
  splat(simd.PARENT_FLAGS, PARENT);
  splat(simd.ROOT_FLAGS, PARENT | ROOT);
  return memory;
}

/** Grows `memory` so that `bytes` of input fit from `address` on. */
export function growInput(memory: WebAssembly.Memory, address: number, bytes: number): void {
  const pages = Math.ceil((address + bytes) / PAGE) - memory.buffer.byteLength / PAGE;
  if (pages > 0) memory.grow(pages);
}

/** Merges the children at cvs[offset..+8] and [offset + 8..+8] into their parent, in place. */
export function mergeParent(cvs: Uint32Array, offset: number, flags = 0): void {
  compress(IV, 0, cvs, offset, cvs, offset, true, 0, BLOCK_LEN, PARENT | flags);
}

/** Whether this thread can run the module: WebAssembly with SIMD and threads, on a little-endian machine. */
export function subtreeSupported(): boolean {
  const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  return littleEndian && typeof WebAssembly === 'object' && WebAssembly.validate(assemble(simd.COMPRESS4X));
}

type Compress4x = (input: number, stride: number, blocks: number, flags: number, output: number, counters: number) => void;

// One block as 16 words, zero-padded, for the tail's last chunks.
const block = new Uint32Array(16);
const blockBytes = new Uint8Array(block.buffer);

/** One thread's instance of the module over the shared memory, and its area there. */
export class ThreadHasher {
  private readonly compress4x: Compress4x;
  /** The whole memory as words and bytes; the areas never move, and a shared buffer is never detached. */
  private readonly words: Uint32Array;
  private bytes: Uint8Array;
  private readonly counters: number;
  private readonly cvs: number;
  /** Where this thread copies a piece it hashes itself. */
  private readonly staging: number;
  // Chaining values of the tail's subtrees waiting for a sibling, 8 words each, with the
  // chunks each covers; 64 entries, more than a 2^53-byte input could need.
  private readonly stack = new Uint32Array(64 * CV_WORDS);
  private readonly stackChunks: number[] = [];

  constructor(
    private readonly memory: WebAssembly.Memory,
    thread: number,
  ) {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(assemble(simd.COMPRESS4X)), { env: { memory } });
    this.compress4x = instance.exports.compress4x as Compress4x;
    this.words = new Uint32Array(memory.buffer);
    this.bytes = new Uint8Array(memory.buffer);
    this.counters = AREAS + thread * AREA_BYTES;
    this.cvs = this.counters + 64;
    this.staging = this.cvs + MAX_PIECE_CHUNKS * CV_LEN;
  }

  /** Copies `part` (at most a piece) into this thread's staging and returns its address there. */
  stage(part: Uint8Array): number {
    this.bytes.set(part, this.staging);
    return this.staging;
  }

  /** Copies the `length` bytes (at most a piece) at byte `address` of the memory into this thread's staging; returns its address there. */
  stageFrom(address: number, length: number): number {
    if (this.bytes.length < address + length) this.bytes = new Uint8Array(this.memory.buffer); // the memory grew
    this.bytes.copyWithin(this.staging, address, address + length);
    return this.staging;
  }

  /**
   * The chaining value of the `chunks` whole chunks at byte `address` of the memory (a
   * power of two from 4 to MAX_PIECE_CHUNKS), numbered from `counter`, as the subtree they
   * form, written to out[outOffset..+8]. The chunks go four at a time, then the parents
   * level by level, four at a time again: in the area the two children of parent j sit
   * side by side at 64 * j, so a level is read as 64-byte blocks and written back, half as
   * long, over itself. With fewer than four parents left, the spare lanes hash stale
   * chaining values, and their output is never read.
   */
  subtree(address: number, chunks: number, counter: number, out: Uint32Array, outOffset: number): void {
    const { words, counters, cvs } = this;
    const low = counters / 4;
    const high = low + LANES;
    for (let first = 0; first < chunks; first += LANES) {
      for (let k = 0; k < LANES; k++) {
        const chunk = counter + first + k;
        words[low + k] = chunk; // the Uint32Array keeps the low 32 bits
        words[high + k] = chunk / 0x100000000; // and this truncates to the high ones
      }
      this.compress4x(address + first * CHUNK_LEN, CHUNK_LEN, BLOCKS_PER_CHUNK, simd.CHUNK_FLAGS, cvs + first * CV_LEN, counters);
    }
    words.fill(0, low, high + LANES); // parents count nothing
    for (let parents = chunks / 2; parents >= 1; parents /= 2) {
      for (let first = 0; first < parents; first += LANES) {
        this.compress4x(cvs + first * BLOCK_LEN, BLOCK_LEN, 1, simd.PARENT_FLAGS, cvs + first * CV_LEN, counters);
      }
    }
    out.set(words.subarray(cvs / 4, cvs / 4 + CV_WORDS), outOffset);
  }

  /**
   * The chaining value (never the root's) of the input's tail, `part` (shorter than the
   * largest piece), whose bytes also lie at byte `address` of the memory and whose first
   * chunk is number `counter`; written to out[outOffset..+8]. At least one byte long.
   */
  tail(part: Uint8Array, address: number, counter: number, out: Uint32Array, outOffset: number): void {
    const { stack, stackChunks } = this;
    stackChunks.length = 0;
    const wholeChunks = Math.floor(part.length / CHUNK_LEN);
    let done = 0; // chunks hashed so far
    // Whole chunks in module subtrees, largest first, so each starts at a multiple of its size.
    for (let chunks = MAX_PIECE_CHUNKS; chunks >= LANES; chunks /= 2) {
      while (wholeChunks - done >= chunks) {
        this.subtree(address + done * CHUNK_LEN, chunks, counter + done, stack, stackChunks.length * CV_WORDS);
        this.push(chunks);
        done += chunks;
      }
    }
    // Up to three whole chunks and a partial one, read from `part` itself.
    for (let start = done * CHUNK_LEN; start < part.length; start += CHUNK_LEN) {
      scalarChunk(part, start, Math.min(start + CHUNK_LEN, part.length), counter + done, stack, stackChunks.length * CV_WORDS);
      this.push(1);
      done++;
    }
    // What is left are right edges of the tree: fold them from the top.
    for (let n = stackChunks.length; n >= 2; n--) mergeParent(stack, (n - 2) * CV_WORDS);
    out.set(stack.subarray(0, CV_WORDS), outOffset);
  }

  // Pushes the entry just written at the top of the stack, merging while the two on top
  // cover as many chunks each: BLAKE3's tree, built left to right like a binary counter.
  private push(chunks: number): void {
    const { stack, stackChunks } = this;
    stackChunks.push(chunks);
    let n = stackChunks.length;
    while (n >= 2 && stackChunks[n - 1] === stackChunks[n - 2]) {
      mergeParent(stack, (n - 2) * CV_WORDS);
      stackChunks.pop();
      stackChunks[n - 2] *= 2;
      n--;
    }
  }
}

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
