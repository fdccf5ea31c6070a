// How a file's pieces are read where they are hashed (a file worker, or the page's thread
// where no worker can start), and what happens when a read stops making progress.
//
// Four ways to read bytes [start, end) of a File:
//   byob    file.slice().stream() through a BYOB reader, into a buffer kept for the next piece
//   slice   file.slice().arrayBuffer(), a fresh buffer for every piece
//   stream  file.slice().stream() through its default reader, its chunks copied into a kept buffer
//   sync    FileReaderSync, in workers only: the thread waits until the bytes are there
// READER_ORDER is tried in turn. A reader the browser does not offer is passed over at once
// (WPE WebKit 2.38's Blob streams are not byte streams, so it has no BYOB reader); a read
// that makes no progress for STALL_MS is given up and that piece is read again, from its
// first byte, by the next reader, which then reads the rest of the file. A piece is hashed
// only once all its bytes are there, so a reader given up costs time, never a byte or a
// wrong line; when every reader has failed, the file fails with the reasons.
//
// Why BYOB first: it reads fastest where it exists and reuses the worker's buffers (the
// figures are in READER_ORDER's comment).
//
// Why readers are held in LIVE_READERS: a Blob's stream whose only reference is its own
// pending read is garbage to the JavaScript engine, and in Chromium 156 collecting it
// leaves that read pending for ever. With a garbage collection forced before every read
// (--js-flags=--expose-gc), two concurrent BYOB reads in one worker hung in every one of 6
// runs of a 1 GiB file; holding the reader (or its stream; holding the Blob was not enough)
// until the read ends, none did. A worker that hashed between reads made garbage and so
// collections, which is why the hang came "now and then once the worker hashed between reads".

/** The readers, by what they call. */
export const READER_KINDS = ['byob', 'slice', 'stream', 'sync'] as const;
export type ReaderKind = (typeof READER_KINDS)[number];

/**
 * The order readers are tried in, the same in every engine: each engine's fastest reader
 * it offers comes first. `npm run bench -- --file F --browser chromium,firefox,webkit
 * --readers byob,slice,stream,sync --rounds 5`, F 1 GiB of random bytes in the page cache,
 * a 2-core AMD EPYC, medians, seconds to read it only / to hash it (stage 11; stage 8 in
 * WebKit) with that reader alone:
 *   Chromium 156  byob 0.73 / 1.27, slice 1.13 / 1.51, stream 1.34 / 1.76, sync 1.49 / 2.02
 *                 (CPU seconds per GiB read: byob 1.37, of it 0.35 in the workers; slice 2.12, 0.93)
 *   Firefox 153   byob 1.11 / 1.54, stream 1.24 / 1.69, sync 1.27 / 2.05, slice 1.81 / 2.42
 *   WPE WebKit 2.38  no byob; slice 1.59 / 4.23, sync 1.53 / 5.47, stream 1.92 / 5.03
 * FileReaderSync comes last whatever it measures: it blocks its worker, which then hashes
 * nothing while it reads, and nothing can notice that it stalled.
 */
export const READER_ORDER: readonly ReaderKind[] = ['byob', 'slice', 'stream', 'sync'];

/** What the page says a reader is. */
export const READER_NAMES: Record<ReaderKind, string> = {
  byob: 'a BYOB stream reader into kept buffers',
  slice: 'Blob.slice().arrayBuffer()',
  stream: 'a stream reader, copied into kept buffers',
  sync: 'FileReaderSync',
};

/** A read that made no progress this long is given up. */
export const STALL_MS = 5000;
/** How often the watchdog looks at the reads under way. */
const TICK_MS = 250;

/** How a worker reads: the order, the watchdog's patience, and for the tests a reader that stalls. */
export interface ReadOptions {
  readers?: readonly ReaderKind[];
  stallMs?: number;
  /** For the tests: this reader stops for good once the first bytes of a piece are there. */
  stall?: ReaderKind;
  /** For the tests: a full garbage collection before every stream read, where the engine offers gc() (V8's --expose-gc). */
  collect?: boolean;
}

/** A reader given up: why, and the one that took over (none when it was the last). */
export interface ReaderSwitch {
  from: ReaderKind;
  to?: ReaderKind;
  why: 'stalled' | 'unavailable';
  detail: string;
}

class ReaderUnavailable extends Error {}
class ReadStalled extends Error {}

interface Cancellable {
  cancel(reason?: unknown): Promise<void>;
}

// Readers with a read under way, kept reachable until it ends (see the header).
const LIVE_READERS = new Set<Cancellable>();

const never = new Promise<never>(() => {});

/** One read under the watchdog's eye. */
class Watch {
  last: number;
  private reader: Cancellable | undefined;

  constructor(
    now: number,
    private readonly hangs: boolean,
    private readonly collects: boolean,
    readonly giveUp: (error: Error) => void,
  ) {
    this.last = now;
  }

  /** Before a stream read: under the tests' option, collects garbage (other reads of this thread are pending meanwhile). */
  beforeRead(): void {
    if (this.collects) (globalThis as { gc?: () => void }).gc?.();
  }

  /** Keeps the stream's reader reachable while its read is under way, and cancels it if the read is given up. */
  hold(reader: Cancellable): void {
    this.reader = reader;
    LIVE_READERS.add(reader);
  }

  /** Bytes arrived; under the tests' fault the read stops here for good, its piece unfinished. */
  progress(now: number): Promise<never> | undefined {
    this.last = now;
    return this.hangs ? never : undefined;
  }

  end(): void {
    if (!this.reader) return;
    LIVE_READERS.delete(this.reader);
    this.reader.cancel().catch(() => {});
    this.reader = undefined;
  }
}

/** Buffers of one piece size, reused piece after piece: at most `slots` are kept. */
class PieceBuffers {
  private free: ArrayBuffer[] = [];

  constructor(
    readonly bytes: number,
    private readonly slots: number,
  ) {}

  take(): ArrayBuffer {
    return this.free.pop() ?? new ArrayBuffer(this.bytes);
  }

  give(buffer: ArrayBuffer): void {
    if (buffer.byteLength === this.bytes && this.free.length < this.slots && !this.free.includes(buffer)) this.free.push(buffer);
  }
}

type Now = () => number;

async function readByob(blob: Blob, length: number, buffers: PieceBuffers, watch: Watch, now: Now): Promise<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = blob.stream().getReader({ mode: 'byob' });
  } catch (error) {
    throw new ReaderUnavailable(`this browser's Blob streams have no BYOB reader (${error instanceof Error ? error.message : String(error)})`);
  }
  watch.hold(reader);
  let buffer = buffers.take();
  let filled = 0;
  while (filled < length) {
    // The buffer moves into the read and comes back as value.buffer.
    watch.beforeRead();
    const { value, done } = await reader.read(new Uint8Array(buffer, filled, length - filled));
    if (value) {
      buffer = value.buffer;
      filled += value.byteLength;
    }
    if (done) break;
    const halt = watch.progress(now());
    if (halt) await halt;
  }
  if (filled !== length) throw new ShortFile();
  return new Uint8Array(buffer, 0, length);
}

async function readStream(blob: Blob, length: number, buffers: PieceBuffers, watch: Watch, now: Now): Promise<Uint8Array> {
  if (typeof blob.stream !== 'function') throw new ReaderUnavailable('this browser has no Blob.stream()');
  const reader = blob.stream().getReader();
  watch.hold(reader);
  const into = new Uint8Array(buffers.take(), 0, length);
  let filled = 0;
  for (;;) {
    watch.beforeRead();
    const { value, done } = await reader.read();
    if (done) break;
    if (filled + value.byteLength > length) throw new Error('the file is longer than when it was chosen: was it changed?');
    into.set(value, filled);
    filled += value.byteLength;
    const halt = watch.progress(now());
    if (halt) await halt;
  }
  if (filled !== length) throw new ShortFile();
  return into;
}

async function readSlice(blob: Blob, length: number, _buffers: PieceBuffers, watch: Watch, now: Now): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer !== 'function') throw new ReaderUnavailable('this browser has no Blob.arrayBuffer()');
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const halt = watch.progress(now());
  if (halt) await halt;
  if (bytes.length !== length) throw new ShortFile();
  return bytes;
}

async function readSync(blob: Blob, length: number, _buffers: PieceBuffers, watch: Watch, now: Now): Promise<Uint8Array> {
  if (typeof FileReaderSync !== 'function') throw new ReaderUnavailable('FileReaderSync exists only in workers');
  const bytes = new Uint8Array(new FileReaderSync().readAsArrayBuffer(blob));
  const halt = watch.progress(now());
  if (halt) await halt;
  if (bytes.length !== length) throw new ShortFile();
  return bytes;
}

const READ: Record<ReaderKind, typeof readByob> = { byob: readByob, slice: readSlice, stream: readStream, sync: readSync };

class ShortFile extends Error {
  constructor() {
    super('the file is shorter than when it was chosen: was it changed?');
  }
}

/**
 * Reads pieces of files for one thread, with the readers in order, a watchdog over every
 * read under way and buffers kept from piece to piece. Pieces are at most `pieceBytes`;
 * at most `slots` are read or hashed at once (the pool's pieces in flight per worker).
 */
export class PieceReader {
  /** Readers given up so far, in order; the caller takes them with takeSwitches(). */
  private switches: ReaderSwitch[] = [];
  private current = 0;
  private readonly order: readonly ReaderKind[];
  private readonly stallMs: number;
  private readonly buffers: PieceBuffers;
  private readonly watches = new Set<Watch>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastTick = 0;

  constructor(
    pieceBytes: number,
    slots: number,
    private readonly options: ReadOptions = {},
    private readonly now: Now = () => performance.now(),
  ) {
    this.order = options.readers ?? READER_ORDER;
    this.stallMs = options.stallMs ?? STALL_MS;
    this.buffers = new PieceBuffers(pieceBytes, slots);
  }

  /** The reader that reads the next piece; undefined once every one has failed. */
  get reader(): ReaderKind | undefined {
    return this.order[this.current];
  }

  /** The readers given up since the last call. */
  takeSwitches(): ReaderSwitch[] {
    const taken = this.switches;
    this.switches = [];
    return taken;
  }

  /** Bytes [start, end) of `file`; hand them back with release() once hashed. */
  async read(file: Blob, start: number, end: number): Promise<Uint8Array> {
    const failures: string[] = [];
    for (;;) {
      const kind = this.order[this.current];
      if (kind === undefined) throw new Error(`the file could not be read here: ${failures.join('; ') || 'no reader is left'}`);
      try {
        return await this.watched(kind, file.slice(start, end), end - start);
      } catch (error) {
        const why = error instanceof ReadStalled ? 'stalled' : error instanceof ReaderUnavailable ? 'unavailable' : undefined;
        if (!why) throw readError(error);
        failures.push(`${kind}: ${(error as Error).message}`);
        // Another read of this thread may have moved on already.
        if (this.order[this.current] === kind) {
          this.current++;
          this.switches.push({ from: kind, to: this.order[this.current], why, detail: (error as Error).message });
        }
      }
    }
  }

  /** Gives a piece's buffer back for the next piece. */
  release(bytes: Uint8Array): void {
    this.buffers.give(bytes.buffer as ArrayBuffer);
  }

  private watched(kind: ReaderKind, blob: Blob, length: number): Promise<Uint8Array> {
    return new Promise<Uint8Array>((resolve, reject) => {
      const watch = new Watch(this.now(), this.options.stall === kind, this.options.collect === true, reject);
      this.watches.add(watch);
      this.startTimer();
      const done = () => {
        this.watches.delete(watch);
        watch.end();
        if (this.watches.size === 0) this.stopTimer();
      };
      READ[kind](blob, length, this.buffers, watch, this.now).then(
        (bytes) => {
          done();
          resolve(bytes);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  }

  private startTimer(): void {
    if (this.timer !== undefined) return;
    this.lastTick = this.now();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  // A tick that comes late means the thread was busy (hashing): no read could show progress
  // meanwhile, so that time does not count against any.
  private tick(): void {
    const now = this.now();
    const busy = now - this.lastTick > 4 * TICK_MS;
    this.lastTick = now;
    for (const watch of [...this.watches]) {
      if (busy) watch.last = now;
      else if (now - watch.last > this.stallMs) {
        this.watches.delete(watch);
        watch.end();
        watch.giveUp(new ReadStalled(`no bytes came for ${Math.round((now - watch.last) / 1000)} s`));
      }
    }
    if (this.watches.size === 0) this.stopTimer();
  }
}

/** A read that failed for a reason of the file's, not the reader's: moved, changed, a folder. */
function readError(error: unknown): Error {
  if (error instanceof ShortFile) return error;
  if (error instanceof Error && /longer than when/.test(error.message)) return error;
  return new Error(`the file could not be read (${error instanceof Error ? error.name || error.message : String(error)}): was it moved or changed since it was chosen?`);
}
