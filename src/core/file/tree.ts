// A file cut into parts that are nodes of BLAKE3's tree, and the merge of their chaining
// values into the file's digest. This is what lets each worker read and hash only its own
// slices of a file: a complete subtree's chaining value depends on its chunks and on
// where they sit (the chunk counter), never on anything hashed before it.
//
// The file is cut into pieces of one size, a power of two of chunks (so each starts at a
// multiple of its own size: a complete subtree), and a tail, what is left after the last
// whole piece: fewer chunks than a piece, starting at a multiple of the piece size, so it
// is the right edge of the tree below that point. Their chaining values merge like a
// binary counter, left subtrees complete and as large as possible, and the last merge
// gets ROOT. A file of one piece or less is one part: the stage's own hash() of it.

import { compress } from '../../../steps/10-simd-one-block/compress.ts';

export const CHUNK_LEN = 1024;
const KiB = 1024;
const MiB = 1024 * KiB;

/** The most bytes of the file read and not yet hashed at any moment, whatever its size or the number of workers. */
export const MAX_IN_FLIGHT_BYTES = 256 * MiB;
/**
 * Pieces a worker holds at once: the one it hashes and the next, already being read.
 * Memory in flight is workers x this x the piece size.
 */
export const PIECES_PER_WORKER_IN_FLIGHT = 2;
/** The largest piece: big reads cost less per byte, and 16 MiB keeps two workers far under the bound. */
export const MAX_PIECE_BYTES = 16 * MiB;
/** The smallest piece: 64 chunks, two of the SIMD module's largest subtrees. */
export const MIN_PIECE_BYTES = 64 * KiB;
/** Pieces per worker a file is cut into at least, when it is large enough: workers finishing together. */
const PIECES_PER_WORKER = 4;

/** How a file of `size` bytes is cut. */
export interface PartPlan {
  size: number;
  /** A power of two of chunks, in bytes; the whole file when it is one part. */
  pieceBytes: number;
  /** Whole pieces; 0 when the file is one part. */
  pieces: number;
  /** Bytes after the last whole piece (0 to pieceBytes - 1); the whole file when it is one part. */
  tailBytes: number;
}

/** One part to hash: bytes [start, end) of the file, its first chunk's number, and whether it is the root. */
export interface Part {
  index: number;
  start: number;
  end: number;
  counter: number;
  /** The whole file, hashed by the stage's hash(): its digest, not a chaining value. */
  root: boolean;
}

function powerOfTwoAtMost(n: number): number {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

/** The largest piece `workers` workers may hold while staying under MAX_IN_FLIGHT_BYTES. */
export function maxPieceBytes(workers: number): number {
  return Math.max(MIN_PIECE_BYTES, Math.min(MAX_PIECE_BYTES, powerOfTwoAtMost(MAX_IN_FLIGHT_BYTES / (Math.max(1, workers) * PIECES_PER_WORKER_IN_FLIGHT))));
}

/**
 * Cuts a file for `workers` workers: at least PIECES_PER_WORKER pieces each when the file
 * is large enough, pieces between MIN_PIECE_BYTES and maxPieceBytes(workers) (or `cap`).
 */
export function planParts(size: number, workers: number, cap = maxPieceBytes(workers)): PartPlan {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`a file size is a whole number of bytes, not ${size}`);
  const wanted = powerOfTwoAtMost(Math.max(1, Math.floor(size / (Math.max(1, workers) * PIECES_PER_WORKER))));
  const pieceBytes = Math.max(MIN_PIECE_BYTES, Math.min(powerOfTwoAtMost(cap), wanted));
  if (size <= pieceBytes) return { size, pieceBytes: size, pieces: 0, tailBytes: size };
  const pieces = Math.floor(size / pieceBytes);
  return { size, pieceBytes, pieces, tailBytes: size - pieces * pieceBytes };
}

/** How many parts the plan has: its pieces and the tail, or the one root part. */
export function partCount(plan: PartPlan): number {
  return plan.pieces === 0 ? 1 : plan.pieces + (plan.tailBytes > 0 ? 1 : 0);
}

/** Part `index` of the plan, in file order. */
export function partAt(plan: PartPlan, index: number): Part {
  if (plan.pieces === 0) return { index, start: 0, end: plan.size, counter: 0, root: true };
  const start = index * plan.pieceBytes;
  return { index, start, end: Math.min(start + plan.pieceBytes, plan.size), counter: start / CHUNK_LEN, root: false };
}

const IV = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
const BLOCK_LEN = 64;
const PARENT = 1 << 2;
const ROOT = 1 << 3;

// Merges the children at stack[offset..+8] and [offset + 8..+8] into their parent, in place.
function mergeParent(stack: Uint32Array, offset: number, flags: number): void {
  compress(IV, 0, stack, offset, stack, offset, true, 0, BLOCK_LEN, PARENT | flags);
}

/**
 * The digest from the parts' chaining values (32 bytes each, in file order): the pieces'
 * and then the tail's, at least two. Read little-endian word by word, as BLAKE3 is
 * defined, whatever the machine's byte order.
 */
export function rootFromParts(cvs: readonly Uint8Array[]): Uint8Array {
  if (cvs.length < 2) throw new RangeError('a file of one part is hashed whole: there is nothing to merge');
  return mergeParts(cvs, ROOT);
}

/**
 * The chaining value of a node cut the way a file is cut (equal power-of-two parts and a
 * shorter last one), from its parts' chaining values: a worker hashing a piece in steps
 * merges the steps' values with this. Never the root: at least two parts.
 */
export function nodeFromParts(cvs: readonly Uint8Array[]): Uint8Array {
  if (cvs.length < 2) throw new RangeError('a node of one part is that part: there is nothing to merge');
  return mergeParts(cvs, 0);
}

function mergeParts(cvs: readonly Uint8Array[], lastFlags: number): Uint8Array {
  const stack = new Uint32Array(8 * 64);
  const sizes: number[] = []; // in pieces, of the entries on the stack
  const push = (cv: Uint8Array) => {
    const view = new DataView(cv.buffer, cv.byteOffset, 32);
    for (let i = 0; i < 8; i++) stack[sizes.length * 8 + i] = view.getUint32(i * 4, true);
  };
  // Every entry but the last: the last waits, since the final merge may be the root.
  for (const cv of cvs.slice(0, -1)) {
    push(cv);
    sizes.push(1);
    while (sizes.length >= 2 && sizes[sizes.length - 1] === sizes[sizes.length - 2]) {
      sizes.pop();
      sizes[sizes.length - 1] *= 2;
      mergeParent(stack, (sizes.length - 1) * 8, 0);
    }
  }
  push(cvs[cvs.length - 1]);
  for (let n = sizes.length + 1; n >= 2; n--) mergeParent(stack, (n - 2) * 8, n === 2 ? lastFlags : 0);
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  for (let i = 0; i < 8; i++) out.setUint32(i * 4, stack[i], true);
  return digest;
}

/** Lower-case hex, as b3sum prints a digest. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
