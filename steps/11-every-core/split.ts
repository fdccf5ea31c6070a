// One hash on the pool, from the calling thread's side: how the input is cut, copied into
// the shared memory and shared out, and how the pieces' chaining values meet at the root.
//
// The input is cut into pieces of equal size (subtree.ts), at most 32 a thread, so that
// the threads finish close together and a piece a stalled worker holds is cheap to redo.
// The calling thread copies the input into the memory once, the workers' pieces first, in
// order, so each worker starts as soon as its first piece is there; then it takes its
// own pieces from the back, copying each into its staging right before it hashes it (the
// same few hundred KiB again and again, which stay in its cache), and the tail. Workers
// can only read shared memory, so that first copy is the calling thread's alone, the one
// copy any WebAssembly hash makes, since the module reads only its memory (stage 10 makes
// it 32 chunks at a time, into its page). A worker copies each of its pieces a second
// time, into its own staging (worker.ts says why).
//
// How many pieces to copy for the workers first follows each thread's measured speed. The
// calling thread copies everything (c ms a MiB) and hashes its share (h ms a MiB); k
// workers hash the rest (w ms a MiB each). Both sides finish together when the workers
// take the share W of N bytes with c N + h (N - W) = w W / k, that is
// W = N (c + h) / (h + w / k). Every hash measures c, h and w again (the workers record
// when each piece was ready and done) and the estimates follow, half old, half new.
// Pieces are still claimed one by one from both ends, so a thread that turns out faster
// or slower than predicted only takes more or fewer; the prediction saves the calling
// thread from stopping its own hashing to copy for a worker that ran ahead.
//
// An input larger than WINDOW_BYTES goes through the memory a window at a time, each a
// whole number of pieces: the memory never grows past one window, which stays with it.

import { BY, CLAIMS, claimBack, claimedByWorkers, clock, COPIED, CVS, DONE, fail, failure, FINISHED, isFinished, markFinished, MAX_PIECES, READY, RECORD_FIELDS, records, STAGED, TAKEN, createControl, type Job } from './job.ts';
import type { Pool } from './pool.ts';
import { growInput, inputAddress, MAX_PIECE_CHUNKS, mergeParent, ROOT, ThreadHasher } from './subtree.ts';

const CHUNK_LEN = 1024;
const MiB = 1024 * 1024;

/** The most input in the memory at once; larger inputs go through it in windows. */
export const WINDOW_BYTES = 64 * MiB;
/**
 * Pieces per thread (at most: pieces are never below MIN_PIECE_CHUNKS). In Chromium on a
 * 2-core Xeon (`npm run bench:cores -- --browser`, 15 rounds, seven pairs of runs at 4
 * and 16 MiB), 32 gave a speedup at least as high as 8 in six pairs: a weak signal on a
 * noisy machine, but the cost of a piece is one claim and one merge.
 */
const PIECES_PER_THREAD = 32;
/** The smallest piece, in chunks: 64 KiB. */
const MIN_PIECE_CHUNKS = 64;

/** Milliseconds a MiB: the calling thread's copy and hash, and a worker's hash. */
export interface Speeds {
  copy: number;
  own: number;
  worker: number;
}

/** How an input hashed on the pool was shared: its pieces, how many the workers took, and how many of those the calling thread hashed again. */
export interface SplitReport {
  pieces: number;
  byWorkers: number;
  redone: number;
}

/** What one thread did when, in ms since the epoch (see job.ts): the debug path's timeline. */
export interface TimelineEvent {
  thread: number;
  what: 'copy' | 'hash' | 'tail' | 'wait' | 'redo';
  start: number;
  end: number;
  piece?: number;
}

interface Overdue {
  control: Int32Array;
  workerPieces: number;
  since: number;
  limitMs: number;
}

/**
 * The bytes of `bytes` that `workers` workers should hash for every thread to finish
 * together, when the calling thread copies all of it and hashes the rest: W with
 * c N + h (N - W) = w W / k (see the header).
 */
export function workersShare(bytes: number, speeds: Speeds, workers: number): number {
  const { copy: c, own: h, worker: w } = speeds;
  return Math.min(bytes, (bytes * (c + h)) / (h + w / workers));
}

export class SplitHasher {
  /** The estimates the split follows; a guess until the first hash has measured them. */
  speeds: Speeds = { copy: 0.15, own: 0.6, worker: 0.6 };
  lastSplit: SplitReport | undefined;
  /** Filled by each hash while recording (see record()). */
  timeline: TimelineEvent[] | undefined;
  private readonly hasher: ThreadHasher;
  private readonly address: number;
  private bytes: Uint8Array;
  /** Hashes that returned while a worker was still on a piece of them: each such worker must finish in time. */
  private overdue: Overdue[] = [];

  constructor(
    readonly pool: Pool,
    private readonly timeoutMs: number | undefined,
    private readonly pieceChunks?: number,
  ) {
    const chunks = pieceChunks ?? MIN_PIECE_CHUNKS;
    if (!(chunks >= 4 && chunks <= MAX_PIECE_CHUNKS && (chunks & (chunks - 1)) === 0)) {
      throw new RangeError(`pieces are a power of two from 4 to ${MAX_PIECE_CHUNKS} chunks, not ${pieceChunks}`);
    }
    this.hasher = new ThreadHasher(pool.memory, 0);
    this.address = inputAddress(pool.size + 1);
    this.bytes = new Uint8Array(pool.memory.buffer);
  }

  /** Keep a timeline of each hash from now on (or stop); the last one is in `timeline`. */
  record(on: boolean): void {
    this.timeline = on ? [] : undefined;
  }

  /** BLAKE3 of `input` on the pool, or undefined when it makes fewer than two pieces. */
  hash(input: Uint8Array): Uint8Array | undefined {
    this.checkOverdue();
    const threads = this.pool.size + 1;
    const wholeChunks = Math.floor(input.length / CHUNK_LEN);
    let pieceChunks = this.pieceChunks ?? MIN_PIECE_CHUNKS;
    while (this.pieceChunks === undefined && pieceChunks < MAX_PIECE_CHUNKS && pieceChunks * 2 * PIECES_PER_THREAD * threads <= wholeChunks) pieceChunks *= 2;
    const pieces = Math.floor(wholeChunks / pieceChunks);
    if (pieces < 2) return undefined;
    if (this.timeline) this.timeline = [];
    const pieceBytes = pieceChunks * CHUNK_LEN;
    const perWindow = Math.min(MAX_PIECES, Math.floor(WINDOW_BYTES / pieceBytes));
    const tail = input.length - pieces * pieceBytes;
    const cvs = new Uint32Array((pieces + 1) * 8);
    const split: SplitReport = { pieces, byWorkers: 0, redone: 0 };
    for (let first = 0; first < pieces; first += perWindow) {
      const count = Math.min(perWindow, pieces - first);
      this.window(input, first, count, pieceBytes, first + count === pieces ? tail : 0, cvs, split);
    }
    this.lastSplit = split;
    return rootDigest(cvs, pieces, tail > 0);
  }

  // Pieces [first, first + count) of the input, and the tail after them when `tail` > 0:
  // their chaining values go to cvs[first * 8..], the tail's after the last piece's.
  private window(input: Uint8Array, first: number, count: number, pieceBytes: number, tail: number, cvs: Uint32Array, split: SplitReport): void {
    const { pool, address, hasher, timeline } = this;
    const shared = input.buffer instanceof SharedArrayBuffer;
    growInput(pool.memory, address, shared ? 0 : count * pieceBytes);
    if (this.bytes.length < pool.memory.buffer.byteLength) this.bytes = new Uint8Array(pool.memory.buffer);
    const bytes = this.bytes;
    const pieceChunks = pieceBytes / CHUNK_LEN;
    const begin = first * pieceBytes; // where the window starts in the input
    const control = createControl(count);
    const values = new Uint32Array(control.buffer, CVS * 4);
    const limitMs = this.timeoutMs ?? 10_000 + (count * pieceBytes) / MiB * 100;
    const job: Job = { type: 'job', control: control.buffer as SharedArrayBuffer, address, counter: first * pieceChunks, pieceBytes, sourceOffset: input.byteOffset + begin, waitMs: limitMs };
    if (shared) {
      job.source = input.buffer as SharedArrayBuffer;
      Atomics.store(control, COPIED, count); // each worker copies its own pieces
    }
    pool.post(job);

    let copied = shared ? count : 0;
    let copyMs = 0;
    let copyBytes = 0;
    // Copies input[from, to) of the window to where the workers read it, or into this thread's staging; returns the address.
    const copy = (from: number, to: number, toStaging: boolean) => {
      const start = clock();
      const part = input.subarray(begin + from, begin + to);
      let at = address + from;
      if (toStaging) at = hasher.stage(part);
      else bytes.set(part, at);
      const now = clock();
      copyMs += now - start;
      copyBytes += to - from;
      timeline?.push({ thread: 0, what: 'copy', start, end: now });
      return at;
    };
    // Copies pieces in order up to `end` (never past the ones this thread took), each made visible to the workers at once.
    const copyUpTo = (end: number) => {
      end = Math.min(end, Atomics.load(control, CLAIMS) >>> 16);
      for (; copied < end; copied++) {
        copy(copied * pieceBytes, (copied + 1) * pieceBytes, false);
        Atomics.store(control, COPIED, copied + 1);
        Atomics.notify(control, COPIED);
      }
    };

    let ownMs = 0;
    let ownBytes = 0;
    const hashOwn = (what: 'hash' | 'tail' | 'redo', piece: number, run: () => void, size: number) => {
      const start = clock();
      run();
      const now = clock();
      if (what !== 'redo') {
        ownMs += now - start;
        ownBytes += size;
      }
      timeline?.push({ thread: 0, what, start, end: now, piece: first + piece });
    };
    const hashPiece = (piece: number, at: number) => hasher.subtree(at, pieceChunks, (first + piece) * pieceChunks, values, piece * 8);

    let workerPieces: number;
    try {
      const windowBytes = count * pieceBytes + tail;
      const share = workersShare(windowBytes, this.speeds, pool.size);
      if (!shared) copyUpTo(Math.max(pool.size, Math.min(count - 1, Math.round(share / pieceBytes))));
      for (let piece = claimBack(control); piece >= 0; piece = claimBack(control)) {
        // Its own pieces go to its staging, whose cache lines it reuses piece after piece.
        const at = piece < copied && !shared ? address + piece * pieceBytes : copy(piece * pieceBytes, (piece + 1) * pieceBytes, true);
        hashOwn('hash', piece, () => hashPiece(piece, at), pieceBytes);
        // Keep the copy ahead of the pieces the workers will take next.
        if (!shared) copyUpTo(claimedByWorkers(control) + pool.size);
      }
      workerPieces = claimedByWorkers(control);
      if (!shared) copyUpTo(workerPieces);
      if (tail > 0) {
        const part = input.subarray(begin + count * pieceBytes);
        const at = copy(count * pieceBytes, count * pieceBytes + tail, true);
        hashOwn('tail', count, () => hasher.tail(part, at, (first + count) * pieceChunks, values, count * 8), tail);
      }
      // Patience for a worker's piece before this thread hashes it too: half again what a
      // piece takes a worker, as measured so far.
      const patienceMs = (1.5 * pieceBytes * Math.max(this.speeds.worker, this.speeds.own)) / MiB;
      // A piece from a shared input is in the late worker's staging, if it got that far: copy it again.
      const redo = (piece: number) => {
        const at = shared ? copy(piece * pieceBytes, (piece + 1) * pieceBytes, true) : address + piece * pieceBytes;
        hashOwn('redo', piece, () => hashPiece(piece, at), pieceBytes);
      };
      split.redone += this.finishWorkerPieces(control, workerPieces, limitMs, patienceMs, redo);
    } catch (error) {
      if (pool.broken) throw error;
      // Workers may be waiting for a copy that will never come: stop them, with the reason.
      throw this.breakPool(control, `the calling thread failed: ${String(error)}`);
    }
    if (Atomics.load(control, DONE) < workerPieces) this.overdue.push({ control, workerPieces, since: clock(), limitMs });
    split.byWorkers += workerPieces;
    // Copied out first: a worker still on a piece this thread redid may yet write its value here.
    cvs.set(values.subarray(0, count * 8), first * 8);
    if (tail > 0) cvs.set(values.subarray(count * 8, count * 8 + 8), (first + count) * 8);
    this.learn(control, first, workerPieces, pieceBytes, { copyMs, copyBytes, ownMs, ownBytes });
  }

  // Updates the speeds from this window: the calling thread's copy and hash as timed, and
  // the workers' from the median of their pieces (a piece whose thread lost its core for a
  // while should not move the estimate much). Half old, half new.
  private learn(control: Int32Array, first: number, workerPieces: number, pieceBytes: number, mine: { copyMs: number; copyBytes: number; ownMs: number; ownBytes: number }): void {
    const { copyMs, copyBytes, ownMs, ownBytes } = mine;
    const times = records(control);
    const perMiB: number[] = [];
    for (let piece = 0; piece < workerPieces; piece++) {
      const record = piece * RECORD_FIELDS;
      // Redone and never finished by its worker in time, or finished while being read here.
      if (times[record + BY] === 0 || !(times[record + FINISHED] > times[record + READY])) continue;
      perMiB.push(((times[record + FINISHED] - times[record + READY]) * MiB) / pieceBytes);
      const by = times[record + BY];
      this.timeline?.push(
        { thread: by, what: 'wait', start: times[record + TAKEN], end: times[record + READY], piece: first + piece },
        { thread: by, what: 'copy', start: times[record + READY], end: times[record + STAGED], piece: first + piece },
        { thread: by, what: 'hash', start: times[record + STAGED], end: times[record + FINISHED], piece: first + piece },
      );
    }
    const blend = (old: number, measured: number) => (Number.isFinite(measured) && measured > 0 ? (old + measured) / 2 : old);
    perMiB.sort((a, b) => a - b);
    this.speeds = {
      copy: copyBytes > 0 ? blend(this.speeds.copy, (copyMs * MiB) / copyBytes) : this.speeds.copy,
      own: ownBytes > 0 ? blend(this.speeds.own, (ownMs * MiB) / ownBytes) : this.speeds.own,
      worker: perMiB.length > 0 ? blend(this.speeds.worker, perMiB[perMiB.length >> 1]) : this.speeds.worker,
    };
  }

  // Waits until every piece the workers took has its chaining value; returns how many of
  // them this thread hashed itself. Each time no worker finishes a piece for `patienceMs`,
  // it hashes the pending piece taken earliest (the likeliest to be stalled) itself. Throws
  // when a worker failed, or when the pieces are not done by the time limit.
  private finishWorkerPieces(control: Int32Array, workerPieces: number, limitMs: number, patienceMs: number, redo: (piece: number) => void): number {
    const deadline = performance.now() + limitMs;
    let redone = 0;
    for (let piece = 0; piece < workerPieces; ) {
      const reason = failure(control);
      if (reason !== undefined) throw this.breakPool(control, reason);
      if (isFinished(control, piece)) {
        piece++;
        continue;
      }
      const left = deadline - performance.now();
      if (left <= 0) throw this.breakPool(control, `the pieces the workers took were not done within ${Math.round(limitMs)} ms`);
      const done = Atomics.load(control, DONE);
      if (isFinished(control, piece)) continue;
      const start = clock();
      const outcome = Atomics.wait(control, DONE, done, Math.min(patienceMs, left));
      this.timeline?.push({ thread: 0, what: 'wait', start, end: clock() });
      if (outcome === 'timed-out') {
        redo(piece);
        markFinished(control, piece);
        redone++;
      }
    }
    const reason = failure(control);
    if (reason !== undefined) throw this.breakPool(control, reason);
    return redone;
  }

  // A worker still on a piece of an earlier hash (redone here, so that hash was right) may
  // only be slow; past the time limit it is stuck or dead, and the pool is no longer used.
  private checkOverdue(): void {
    const late = (job: Overdue) => Atomics.load(job.control, DONE) < job.workerPieces;
    for (const job of this.overdue) {
      const reason = failure(job.control);
      if (reason !== undefined) throw this.breakPool(job.control, reason);
      if (late(job) && clock() - job.since > job.limitMs) {
        throw this.breakPool(job.control, `a pool worker did not finish a piece of an earlier hash within ${Math.round(job.limitMs)} ms`);
      }
    }
    this.overdue = this.overdue.filter(late);
  }

  private breakPool(control: Int32Array, reason: string): Error {
    fail(control, reason);
    this.pool.break(reason);
    return new Error(`stage 11 cannot hash: ${reason}`);
  }
}

// The pieces' chaining values (and the tail's after them) are the leaves of the top of
// the tree. Merged left to right like a binary counter, except the last entry, which is
// never merged eagerly: the last merge is the root.
function rootDigest(cvs: Uint32Array, pieces: number, hasTail: boolean): Uint8Array {
  const entries = pieces + (hasTail ? 1 : 0);
  const sizes: number[] = []; // in pieces, of the entries on the stack at cvs[0..]
  for (let entry = 0; entry < entries - 1; entry++) {
    cvs.copyWithin(sizes.length * 8, entry * 8, entry * 8 + 8);
    sizes.push(1);
    while (sizes.length >= 2 && sizes[sizes.length - 1] === sizes[sizes.length - 2]) {
      sizes.pop();
      sizes[sizes.length - 1] *= 2;
      mergeParent(cvs, (sizes.length - 1) * 8);
    }
  }
  cvs.copyWithin(sizes.length * 8, (entries - 1) * 8, entries * 8);
  for (let n = sizes.length + 1; n >= 2; n--) mergeParent(cvs, (n - 2) * 8, n === 2 ? ROOT : 0);
  // A little-endian machine (the pool needs one), so the words' bytes are the digest's.
  return new Uint8Array(cvs.slice(0, 8).buffer);
}
