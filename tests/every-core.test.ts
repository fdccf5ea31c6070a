// Stage 11 beyond what every stage passes (tests/stages.test.ts): its pool at 1, 2 and 4
// workers on 16 MiB and 64 MiB, inputs already in shared memory, every piece boundary and
// tail shape, the official vectors on the pool, inputs larger than the shared memory
// takes at once, the split and its timeline, a worker that dies or hangs (an error, never
// a wrong digest), and the reasons it gives when it hashes on one thread.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { baselineById, type BaselineHasher } from '../steps/baselines.ts';
import * as stage from '../steps/11-every-core/blake3.ts';
import { WINDOW_BYTES, workersShare } from '../steps/11-every-core/split.ts';
import { patternInput, toHex } from '../src/core/vectors.ts';
import { officialVectors } from './fixtures/official-vectors.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** xorshift32 bytes: a fixed seed, the same input on every run. */
function randomBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  const words = new Uint32Array(bytes.buffer, 0, length >>> 2);
  let x = seed;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x;
  }
  for (let i = words.length * 4; i < length; i++) bytes[i] = i;
  return bytes;
}

function inSharedMemory(bytes: Uint8Array, offset: number): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length + offset + 8), offset, bytes.length);
  shared.set(bytes);
  return shared;
}

/** The official vectors' lengths and default hashes (tests/fixtures/official-vectors.ts). */
const VECTORS = officialVectors().cases;

let wasm: BaselineHasher;
const expectedHex = async (input: Uint8Array) => toHex(await wasm.hash(input.slice()));

beforeAll(async () => {
  wasm = await baselineById('blake3-wasm')!.load();
});
afterAll(() => stage.stop());

describe.each([1, 2, 4])('with %i pool workers', (workers) => {
  beforeAll(async () => {
    await stage.start({ workers, minBytes: 16 * MiB });
    expect(stage.threadUse()).toEqual({ threads: workers + 1, minBytes: 16 * MiB, minSharedBytes: 16 * MiB });
  });

  it('hashes 16 MiB and 64 MiB (plus a few bytes) right, copied or already shared', async () => {
    for (const length of [16 * MiB, 16 * MiB + 1, 64 * MiB + 3 * KiB + 5]) {
      const input = randomBytes(length, 0x9e3779b9 ^ length);
      const expected = await expectedHex(input);
      expect(toHex(stage.hash(input)), `${length} B`).toBe(expected);
      expect(toHex(stage.hash(inSharedMemory(input, 5))), `${length} B shared at offset 5`).toBe(expected);
    }
  });

  it('hashes every piece and tail shape right, down to two pieces', async () => {
    await stage.start({ workers, minBytes: 1 });
    const lengths = [1, 1023, 1024, 64 * KiB, 128 * KiB - 1, 128 * KiB, 128 * KiB + 1, 192 * KiB + 1025, 1 * MiB + 3 * KiB + 17, 3 * MiB - 64];
    const data = randomBytes(3 * MiB, 77);
    for (const length of lengths) {
      const input = data.subarray(0, length);
      expect(toHex(stage.hash(input)), `${length} B`).toBe(await expectedHex(input));
    }
    await stage.start({ workers, minBytes: 16 * MiB });
  });
});

/** Lengths on either side of every piece boundary of pieces of `pieceChunks` chunks, up to `pieces` pieces, and tails of every shape. */
function pieceBoundaries(pieceChunks: number, pieces: number): number[] {
  const piece = pieceChunks * KiB;
  const lengths: number[] = [];
  for (let k = 2; k <= pieces; k++) lengths.push(k * piece - 1, k * piece, k * piece + 1);
  // Tails after two pieces: each power-of-two subtree the tail holds, with 0 to 3 whole
  // chunks and a partial one after it.
  for (let chunks = 4; chunks < pieceChunks; chunks *= 2) {
    for (const extra of [0, 1, 3]) lengths.push(2 * piece + (chunks + extra) * KiB, 2 * piece + (chunks + extra) * KiB + 65);
  }
  return [...new Set(lengths)].sort((a, b) => a - b);
}

describe('piece boundaries', () => {
  afterAll(() => stage.start());

  it.each([4, 16, 64])('hashes right on either side of every boundary of pieces of %i chunks, on 3 threads', async (pieceChunks) => {
    await stage.start({ workers: 2, minBytes: 1, pieceChunks });
    const lengths = pieceBoundaries(pieceChunks, 9);
    const data = randomBytes(lengths[lengths.length - 1], pieceChunks);
    for (const length of lengths) {
      const input = data.subarray(0, length);
      expect(toHex(stage.hash(input)), `${length} B`).toBe(await expectedHex(input));
      const pieces = Math.floor(length / (pieceChunks * KiB));
      if (pieces >= 2) expect(stage.threadUse().lastSplit?.pieces, `${length} B`).toBe(pieces);
    }
  });

  it('hashes the official vectors right with every vector of 8 KiB or more on the pool (pieces of 4 chunks)', async () => {
    await stage.start({ workers: 2, minBytes: 1, pieceChunks: 4 });
    const pooled = VECTORS.filter((vector) => vector.length >= 8 * KiB);
    expect(pooled.length).toBeGreaterThanOrEqual(5);
    for (const vector of VECTORS) {
      expect(toHex(stage.hash(patternInput(vector.length))), `${vector.length} B`).toBe(vector.hash);
      if (vector.length >= 8 * KiB) expect(stage.threadUse().lastSplit?.pieces).toBe(Math.floor(vector.length / (4 * KiB)));
    }
  });

  it('hashes an input larger than the memory takes at once right, window by window', async () => {
    await stage.start({ workers: 1, minBytes: 1 });
    // Pieces of 1 MiB, 64 to a window: the second window holds one piece and the tail.
    const length = WINDOW_BYTES + MiB + 3 * KiB + 5;
    const input = randomBytes(length, 65);
    expect(toHex(stage.hash(input))).toBe(await expectedHex(input));
    expect(stage.threadUse().lastSplit?.pieces).toBe(65);
    expect(toHex(stage.hash(inSharedMemory(input, 3)))).toBe(await expectedHex(input));
  });
});

describe('the split', () => {
  afterAll(() => stage.start());

  it('gives the workers the share after which both sides finish together', () => {
    // Copy 0.2 ms a MiB, hash 0.6 on each thread, one worker: (0.2 + 0.6) / (0.6 + 0.6) of 12 MiB.
    expect(workersShare(12 * MiB, { copy: 0.2, own: 0.6, worker: 0.6 }, 1)).toBeCloseTo(8 * MiB);
    // With nothing to copy and equal speeds, each of 4 threads gets a quarter.
    expect(workersShare(12 * MiB, { copy: 0, own: 0.6, worker: 0.6 }, 3)).toBeCloseTo(9 * MiB);
    // A worker twice as slow takes less: (0.2 + 0.6) / (0.6 + 1.2).
    expect(workersShare(18 * MiB, { copy: 0.2, own: 0.6, worker: 1.2 }, 1)).toBeCloseTo(8 * MiB);
  });

  it('measures the speeds it follows, and keeps a timeline of both threads where every piece is hashed', async () => {
    await stage.start({ workers: 1, minBytes: 4 * MiB, timeline: true });
    const input = randomBytes(16 * MiB + 5, 31);
    const expected = await expectedHex(input);
    // On a machine busy with other tests the worker may get no core in time and the calling
    // thread redoes its pieces (right, but no timeline of two threads): hash again, a few times at most.
    let events: NonNullable<ReturnType<typeof stage.lastTimeline>> = [];
    for (let attempt = 0; attempt < 5 && !events.some((event) => event.thread === 1 && event.what === 'hash'); attempt++) {
      expect(toHex(stage.hash(input))).toBe(expected);
      events = stage.lastTimeline()!;
    }
    const speeds = stage.speeds()!;
    for (const value of Object.values(speeds)) expect(value).toBeGreaterThan(0);
    const { pieces } = stage.threadUse().lastSplit!;
    for (const event of events) expect(event.end).toBeGreaterThanOrEqual(event.start);
    expect(events.some((event) => event.thread === 0 && event.what === 'copy')).toBe(true);
    expect(events.some((event) => event.thread === 1 && event.what === 'hash')).toBe(true);
    expect(events.filter((event) => event.what === 'tail')).toHaveLength(1);
    const hashed = new Set(events.filter((event) => event.what === 'hash' || event.what === 'redo').map((event) => event.piece));
    expect(hashed.size).toBe(pieces);
  });
});

describe('the size from which the pool is used', () => {
  afterAll(() => stage.start());

  it('is measured when the pool starts, for shared inputs and then for copied ones: the first size at which the pool clearly beat one thread, else the largest tried', async () => {
    await stage.start({ workers: 1 });
    const use = stage.threadUse();
    expect(use.threads).toBe(2);
    const shared = use.crossover!.filter((row) => row.shared);
    const copied = use.crossover!.filter((row) => !row.shared);
    expect(use.crossover).toEqual([...shared, ...copied]);
    for (const row of use.crossover!) {
      expect(row.oneThreadMs).toBeGreaterThan(0);
      expect(row.poolMs).toBeGreaterThan(0);
    }
    // Each search tries sizes in order from where it starts and stops at the first the
    // pool won; its last row is its threshold. Copied inputs start where shared ones ended.
    const sizes = stage.CALIBRATION_SIZES;
    const threshold = (rows: typeof shared) => {
      rows.slice(0, -1).forEach((row) => expect(stage.poolWon(row), `${row.bytes} B`).toBe(false));
      const last = rows[rows.length - 1];
      if (!stage.poolWon(last)) expect(last.bytes).toBe(sizes.at(-1));
      return last.bytes;
    };
    expect(shared.map((row) => row.bytes)).toEqual(sizes.slice(0, shared.length));
    expect(use.minSharedBytes).toBe(threshold(shared));
    const from = sizes.indexOf(use.minSharedBytes);
    expect(copied.map((row) => row.bytes)).toEqual(sizes.slice(from, from + copied.length));
    expect(use.minBytes).toBe(threshold(copied));
    // Below a threshold one thread hashes; from it on, the pool (its split is recorded).
    const input = randomBytes(use.minBytes, 21);
    expect(toHex(stage.hash(input.subarray(0, use.minBytes - 1)))).toBe(await expectedHex(input.subarray(0, use.minBytes - 1)));
    expect(stage.threadUse().lastSplit).toBeUndefined();
    expect(toHex(stage.hash(input))).toBe(await expectedHex(input));
    expect(stage.threadUse().lastSplit?.pieces).toBeGreaterThanOrEqual(2);
  });

  it('takes inputs already in shared memory from their own threshold', async () => {
    await stage.start({ workers: 1 });
    const { minSharedBytes } = stage.threadUse();
    const input = randomBytes(minSharedBytes, 22);
    const below = inSharedMemory(input.subarray(0, minSharedBytes - 1), 0);
    expect(toHex(stage.hash(below))).toBe(await expectedHex(input.subarray(0, minSharedBytes - 1)));
    expect(stage.threadUse().lastSplit).toBeUndefined();
    expect(toHex(stage.hash(inSharedMemory(input, 0)))).toBe(await expectedHex(input));
    expect(stage.threadUse().lastSplit?.pieces).toBeGreaterThanOrEqual(2);
  });

  it('is the one given, without timing anything, when start() is told it', async () => {
    await stage.start({ workers: 1, minBytes: 3 * MiB });
    expect(stage.threadUse()).toEqual({ threads: 2, minBytes: 3 * MiB, minSharedBytes: 3 * MiB });
  });
});

/**
 * Hashes `input` on the pool until the calling thread has redone a piece a worker took,
 * checking every digest, for up to 20 s. A fault strikes on the next piece the worker
 * takes, and on a machine busy with other tests the worker may wake too late to take a
 * piece of several hashes in a row: the calling thread then hashes them all itself.
 */
function hashUntilRedone(input: Uint8Array, expected: string): void {
  const deadline = Date.now() + 20_000;
  do expect(toHex(stage.hash(input))).toBe(expected);
  while (!stage.threadUse().lastSplit?.redone && Date.now() < deadline);
  expect(stage.threadUse().lastSplit?.redone, 'a piece the worker took, redone by the calling thread').toBeGreaterThanOrEqual(1);
}

describe('a broken pool', () => {
  afterEach(() => stage.start());

  it.each(['hang', 'exit', 'crash'] as const)('never gives a wrong digest when a worker goes "%s" mid-hash, and throws with the reason once that is known', async (fault) => {
    await stage.start({ workers: 2, timeoutMs: 1500, minBytes: 4 * MiB });
    const input = randomBytes(16 * MiB, 5);
    const expected = await expectedHex(input);
    stage.injectFault(0, fault);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the worker reads its message
    // The calling thread redoes the piece the worker took and never finished.
    hashUntilRedone(input, expected);
    // A dead worker is known as soon as its thread's exit is seen; a stuck one once it is
    // past the time limit. From then on every call throws the reason; until then every
    // hash is still right. On a machine busy with other tests the exit can come late.
    const reasons = {
      hang: /stage 11 cannot hash: a pool worker did not finish a piece of an earlier hash within 1500 ms/,
      exit: /stage 11 cannot hash: pool worker 1 of 2 stopped/,
      crash: /stage 11 cannot hash: pool worker 1 of 2 stopped: .*deliberate crash of a pool worker/,
    };
    await new Promise((resolve) => setTimeout(resolve, 1600));
    let failure: unknown;
    for (const deadline = Date.now() + 30_000; failure === undefined && Date.now() < deadline; ) {
      try {
        expect(toHex(stage.hash(input))).toBe(expected);
        await new Promise((resolve) => setTimeout(resolve, 200));
      } catch (error) {
        failure = error;
      }
    }
    expect(() => {
      throw failure ?? new Error('no call threw within 30 s');
    }).toThrow(reasons[fault]);
    expect(() => stage.hash(input)).toThrow(/stage 11 cannot hash/);
    // Inputs the calling thread hashes alone do not need the pool.
    expect(toHex(stage.hash(input.subarray(0, 1000)))).toBe(await expectedHex(input.subarray(0, 1000)));
  });

  it('throws with the reason when a worker died between hashes', async () => {
    await stage.start({ workers: 2, timeoutMs: 3000, minBytes: 4 * MiB });
    stage.injectFault(1, 'exit');
    // The worker dies on its next piece; the hash that gives it one is still right (the
    // calling thread redoes that piece). Once the death is seen, hashes throw.
    const input = randomBytes(16 * MiB, 6);
    expect(toHex(stage.hash(input))).toBe(await expectedHex(input));
    await vi.waitFor(() => expect(() => stage.hash(new Uint8Array(4 * MiB))).toThrow(/stage 11 cannot hash: .*stopped/));
  });

  it('redoes a piece its worker is slow on, and the result is right', async () => {
    await stage.start({ workers: 1, minBytes: 4 * MiB });
    stage.injectFault(0, 'slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const input = randomBytes(8 * MiB, 7);
    const expected = await expectedHex(input);
    hashUntilRedone(input, expected);
    // The worker comes back after its pause and finishes the piece late; the pool keeps working.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(toHex(stage.hash(input))).toBe(expected);
    expect(stage.threadUse().lastSplit?.pieces).toBeGreaterThanOrEqual(2);
  });
});

describe('one thread, with the reason', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await stage.start();
  });

  const cases: [string, () => void, RegExp][] = [
    ['one core', () => {}, /one core/],
    ['no SharedArrayBuffer', () => vi.stubGlobal('SharedArrayBuffer', undefined), /no SharedArrayBuffer/],
    ['a page that is not cross-origin isolated', () => vi.stubGlobal('crossOriginIsolated', false), /not cross-origin isolated/],
    ["a page's main thread", () => vi.stubGlobal('window', {}), /main thread/],
  ];
  it.each(cases)('%s', async (name, simulate, reason) => {
    simulate();
    await stage.start({ workers: name === 'one core' ? 0 : 2 });
    const use = stage.threadUse();
    expect(use.threads).toBe(1);
    expect(use.fallback).toMatch(reason);
    vi.unstubAllGlobals();
    const input = randomBytes(2 * MiB + 5, 9);
    expect(toHex(stage.hash(input))).toBe(await expectedHex(input));
  });

  it('stopped, and before the pool was ever started', async () => {
    stage.stop();
    expect(stage.threadUse().fallback).toMatch(/stopped/);
    vi.resetModules();
    const fresh = await import('../steps/11-every-core/blake3.ts');
    expect(fresh.threadUse()).toMatchObject({ threads: 1, fallback: expect.stringMatching(/not started/) });
    const input = randomBytes(1 * MiB, 10);
    expect(toHex(fresh.hash(input))).toBe(await expectedHex(input));
  });
});
