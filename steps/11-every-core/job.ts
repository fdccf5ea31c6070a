// What the calling thread and the pool workers share for one hash (or one window of a
// hash larger than the memory takes at once): a small block of shared memory with the
// counters they coordinate through, the chaining values they write, a flag per piece once
// its value is there, and when each piece was taken, ready and done. A fresh block per
// hash, so a worker still finishing an old one can never touch the next.
//
// The input is cut into P pieces of equal size, each a complete subtree. Workers take
// pieces from the front, the calling thread from the back, so the thread that copies the
// input into the shared memory (the calling one) copies what the workers need first. Both
// ends live in one 32-bit word and are claimed with compare-and-swap: a piece is hashed
// exactly once, unless its worker is late and the calling thread hashes it again.

/** Int32 positions in the control block. */
export const CLAIMS = 0; // front (next piece for a worker) in the low 16 bits, back (one past the last unclaimed) above
export const COPIED = 1; // pieces [0, COPIED) are in the shared input
export const DONE = 2; // pieces the workers have finished
export const FAILED = 3; // 1 once anyone gave up: everyone stops
export const MESSAGE_LENGTH = 4; // a worker's error message: its length, then its characters
export const PIECES = 5; // how many pieces the input was cut into
export const MESSAGE = 8;
export const MESSAGE_MAX = 120;
/** Where the chaining values start, 8 words a piece. */
export const CVS = MESSAGE + MESSAGE_MAX;

/** The most pieces one hash is cut into (the 16 bits of an end of CLAIMS). */
export const MAX_PIECES = 0x7fff;

/** The message a worker receives for each hash. */
export interface Job {
  type: 'job';
  control: SharedArrayBuffer;
  /** Byte address in the shared memory of piece 0; piece i lies pieceBytes * i further on. */
  address: number;
  /** The chunk counter of piece 0's first chunk: its place in the whole input. */
  counter: number;
  pieceBytes: number;
  /**
   * An input already in a SharedArrayBuffer, which workers can read: each copies its own
   * pieces into the memory. Absent when the calling thread copies them (see COPIED).
   */
  source?: SharedArrayBuffer;
  /** Where piece 0 starts in `source`. */
  sourceOffset: number;
  /** How long a worker waits for a piece to be copied before it gives up. */
  waitMs: number;
}

/** Float64 fields of a piece's record: who hashed it, and when (ms since the epoch, every thread's clock alike). */
export const RECORD_FIELDS = 5;
export const BY = 0; // the worker's thread number, from 1
export const TAKEN = 1; // claimed
export const READY = 2; // its bytes in the memory: copied there by the calling thread (or in `source`)
export const STAGED = 3; // copied into the worker's staging
export const FINISHED = 4; // its chaining value written

/** A control block for `pieces` pieces plus the input's tail: counters, chaining values, a flag per piece, then records. */
export function createControl(pieces: number): Int32Array {
  const words = recordsAt(pieces) / 4 + pieces * RECORD_FIELDS * 2;
  const control = new Int32Array(new SharedArrayBuffer(words * 4));
  control[CLAIMS] = pieces << 16;
  control[PIECES] = pieces;
  return control;
}

const finishedFlag = (control: Int32Array, piece: number) => CVS + (control[PIECES] + 1) * 8 + piece;
// Byte offset of the records: after the flags, on an 8-byte boundary for the Float64Array.
const recordsAt = (pieces: number) => Math.ceil((CVS + (pieces + 1) * 8 + pieces) / 2) * 8;

/** The pieces' records, RECORD_FIELDS numbers each; written by the thread that hashed the piece before it marks it finished. */
export function records(control: Int32Array): Float64Array {
  const pieces = control[PIECES];
  return new Float64Array(control.buffer, recordsAt(pieces), pieces * RECORD_FIELDS);
}

/** Now in ms since the epoch: comparable between threads, whose performance.now() starts at different moments. */
export function clock(): number {
  return performance.timeOrigin + performance.now();
}

/** Says that `piece`'s chaining value is written (after writing it). */
export function markFinished(control: Int32Array, piece: number): void {
  Atomics.store(control, finishedFlag(control, piece), 1);
}

/** Whether `piece`'s chaining value is written, by whichever thread hashed it. */
export function isFinished(control: Int32Array, piece: number): boolean {
  return Atomics.load(control, finishedFlag(control, piece)) === 1;
}

/** The next piece from the front (for a worker), or -1 when none is left. */
export function claimFront(control: Int32Array): number {
  for (;;) {
    const claims = Atomics.load(control, CLAIMS);
    const front = claims & 0xffff;
    if (front >= claims >>> 16) return -1;
    if (Atomics.compareExchange(control, CLAIMS, claims, claims + 1) === claims) return front;
  }
}

/** The next piece from the back (for the calling thread), or -1 when none is left. */
export function claimBack(control: Int32Array): number {
  for (;;) {
    const claims = Atomics.load(control, CLAIMS);
    const back = claims >>> 16;
    if ((claims & 0xffff) >= back) return -1;
    if (Atomics.compareExchange(control, CLAIMS, claims, claims - 0x10000) === claims) return back - 1;
  }
}

/** How many pieces the workers have claimed so far. */
export function claimedByWorkers(control: Int32Array): number {
  return Atomics.load(control, CLAIMS) & 0xffff;
}

/** Marks the job failed with a reason (the first one wins) and wakes everyone waiting. */
export function fail(control: Int32Array, reason: string): void {
  if (Atomics.compareExchange(control, FAILED, 0, 1) === 0) {
    const text = reason.slice(0, MESSAGE_MAX);
    for (let i = 0; i < text.length; i++) control[MESSAGE + i] = text.charCodeAt(i);
    Atomics.store(control, MESSAGE_LENGTH, text.length);
  }
  Atomics.notify(control, COPIED);
  Atomics.notify(control, DONE);
}

/** The reason given to fail(), or undefined while nobody has failed. */
export function failure(control: Int32Array): string | undefined {
  if (Atomics.load(control, FAILED) === 0) return undefined;
  const length = Atomics.load(control, MESSAGE_LENGTH);
  return String.fromCharCode(...control.subarray(MESSAGE, MESSAGE + length));
}
