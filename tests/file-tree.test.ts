// A file hashed in parts (src/core/file/tree.ts): every stage's chainingValue() over the
// parts of an input, merged by rootFromParts(), must give the digest of the whole, at every
// part size and every tree edge; the plan must keep its bound on memory in flight.
import { blake3 } from '@noble/hashes/blake3.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { STAGES, type Hasher } from '../steps/index.ts';
import {
  CHUNK_LEN, MAX_IN_FLIGHT_BYTES, MAX_PIECE_BYTES, MIN_PIECE_BYTES, PIECES_PER_WORKER_IN_FLIGHT,
  maxPieceBytes, partAt, partCount, planParts, rootFromParts, toHex,
} from '../src/core/file/tree.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Bytes that differ at every position and from run to run of the same length. */
function input(length: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x;
  }
  return bytes;
}

/** The digest of `bytes` hashed in parts of `pieceChunks` chunks and a tail, through `hasher`. */
function hashInParts(hasher: Hasher, bytes: Uint8Array, pieceChunks: number, offsetBy = 0): string {
  const pieceBytes = pieceChunks * CHUNK_LEN;
  if (bytes.length <= pieceBytes) return toHex(hasher.hash(bytes));
  const cvs: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += pieceBytes) {
    let part = bytes.subarray(start, Math.min(start + pieceBytes, bytes.length));
    if (offsetBy) {
      // The same bytes at an odd offset into a larger buffer: no word view can start there.
      const shifted = new Uint8Array(part.length + offsetBy);
      shifted.set(part, offsetBy);
      part = shifted.subarray(offsetBy);
    }
    cvs.push(hasher.chainingValue!(part, start / CHUNK_LEN));
  }
  return toHex(rootFromParts(cvs));
}

const stages = STAGES.filter((stage) => stage.index <= 10);
const hashers = new Map<string, Hasher>();
beforeAll(async () => {
  for (const stage of stages) hashers.set(stage.id, await stage.load());
});

describe('chainingValue() of every stage, merged', () => {
  it('is exported by stages 0 to 10', () => {
    for (const stage of stages) expect(typeof hashers.get(stage.id)!.chainingValue, stage.id).toBe('function');
  });

  // Tree edges around the parts: one chunk and one byte, pieces exactly, pieces and a
  // partial chunk, pieces that are not a power of two, a tail of whole chunks.
  const lengths = [1025, 2047, 2048, 2049, 3 * KiB + 7, 4 * KiB, 4 * KiB + 1, 7 * KiB - 1, 33 * KiB, 64 * KiB + 1, 100 * KiB + 7, 192 * KiB, 256 * KiB - 1, 300 * KiB + 3];
  for (const stage of stages) {
    it(`${stage.id}: parts of 1, 2, 4, 32 and 64 chunks give the digest of the whole`, () => {
      const hasher = hashers.get(stage.id)!;
      for (const length of lengths) {
        const bytes = input(length, length);
        const expected = toHex(blake3(bytes));
        for (const pieceChunks of [1, 2, 4, 32, 64]) {
          // Stage 0 reads to the end of each part for every block: its parts stay small.
          if (stage.index === 0 && pieceChunks * length > 64 * 64 * KiB) continue;
          expect(hashInParts(hasher, bytes, pieceChunks), `${length} B in parts of ${pieceChunks} chunks`).toBe(expected);
        }
      }
    });
  }

  it('agrees on large parts, at an odd byte offset and with a counter past 2^32 chunks', () => {
    const bytes = input(3 * MiB + 7, 3);
    const expected = toHex(blake3(bytes));
    for (const stage of stages.filter((s) => s.index >= 5)) {
      const hasher = hashers.get(stage.id)!;
      expect(hashInParts(hasher, bytes, 1024), stage.id).toBe(expected);
      expect(hashInParts(hasher, bytes, 256, 1), `${stage.id} at an odd offset`).toBe(expected);
    }
    // Chunk counters above 32 bits (a part 4 TiB into a file) reach compress() in both halves.
    const part = input(64 * KiB, 9);
    const counter = 2 ** 32 + 64;
    const reference = toHex(hashers.get('05-no-copies')!.chainingValue!(part, counter));
    for (const stage of stages.filter((s) => s.index >= 1)) {
      expect(toHex(hashers.get(stage.id)!.chainingValue!(part, counter)), stage.id).toBe(reference);
    }
  });

  it('refuses what is not a part of a tree: empty, misaligned, negative or fractional counters, other types', () => {
    for (const stage of stages) {
      const cv = hashers.get(stage.id)!.chainingValue!;
      expect(() => cv(new Uint8Array(0), 0), stage.id).toThrow(RangeError);
      expect(() => cv(new Uint8Array(2 * KiB), 1), stage.id).toThrow(/multiple of 2 chunks/);
      expect(() => cv(new Uint8Array(3 * KiB), 2), stage.id).toThrow(/multiple of 4 chunks/);
      expect(() => cv(new Uint8Array(KiB), -1), stage.id).toThrow(RangeError);
      expect(() => cv(new Uint8Array(KiB), 0.5), stage.id).toThrow(RangeError);
      expect(() => cv([1, 2, 3] as unknown as Uint8Array, 0), stage.id).toThrow(TypeError);
    }
  });
});

describe('planParts', () => {
  it('hashes a file of one piece or less whole, as its root', () => {
    for (const size of [0, 1, 1024, MIN_PIECE_BYTES]) {
      const plan = planParts(size, 2);
      expect(partCount(plan)).toBe(1);
      expect(partAt(plan, 0)).toEqual({ index: 0, start: 0, end: size, counter: 0, root: true });
    }
  });

  it('cuts larger files into power-of-two pieces at least 64 KiB long and a shorter tail', () => {
    for (const [size, workers] of [[MIN_PIECE_BYTES + 1, 1], [3 * MiB + 7, 2], [100 * MiB, 2], [5 * 1024 * MiB, 2], [5 * 1024 * MiB, 64]]) {
      const plan = planParts(size, workers);
      expect(Math.log2(plan.pieceBytes) % 1, `${size}`).toBe(0);
      expect(plan.pieceBytes).toBeGreaterThanOrEqual(MIN_PIECE_BYTES);
      expect(plan.pieces * plan.pieceBytes + plan.tailBytes).toBe(size);
      expect(plan.tailBytes).toBeLessThan(plan.pieceBytes);
      const last = partAt(plan, partCount(plan) - 1);
      expect(last.end).toBe(size);
      expect(last.counter % (plan.pieceBytes / CHUNK_LEN)).toBe(0);
    }
    // Enough pieces for every worker to finish at about the same time.
    expect(planParts(100 * MiB, 2).pieces).toBeGreaterThanOrEqual(8);
    expect(planParts(5 * 1024 * MiB, 2).pieceBytes).toBe(MAX_PIECE_BYTES);
  });

  it('never lets more than 256 MiB of the file be in flight, for any number of workers', () => {
    for (let workers = 1; workers <= 256; workers++) {
      const plan = planParts(64 * 1024 * MiB, workers);
      expect(workers * PIECES_PER_WORKER_IN_FLIGHT * plan.pieceBytes, `${workers} workers`).toBeLessThanOrEqual(MAX_IN_FLIGHT_BYTES);
    }
    expect(2 * PIECES_PER_WORKER_IN_FLIGHT * maxPieceBytes(2)).toBe(64 * MiB);
  });

  it('refuses a size that is not a whole number of bytes', () => {
    expect(() => planParts(-1, 1)).toThrow(RangeError);
    expect(() => planParts(1.5, 1)).toThrow(RangeError);
  });
});
