// The file page's state: the files chosen, the stage that hashes them, the threads it
// runs on (or why only one), the estimate before a hash starts, progress while it runs,
// and each file's b3sum line. Files are hashed one after another, each on every worker
// the stage uses. On demand the same workers only read the files, which says how fast
// this browser can read them: the most any stage can hash them here. Kept for the visit:
// leaving the page stops a hash, the lines stay.

import { STAGES } from '../../../steps/index.ts';
import { detectCapabilities, type Capabilities } from '../../core/bench/capabilities.ts';
import { b3sumLine } from '../../core/file/b3sum.ts';
import { estimatePlanMs, prefixBytes, REFUSE_OVER_MS } from '../../core/file/estimate.ts';
import { EVERY_CORE_STAGE } from '../../core/file/part-hasher.ts';
import { Cancelled, ON_PAGE_PIECE_BYTES, startOnPage, startWorkers, type FileHasher } from '../../core/file/pool.ts';
import { READER_NAMES, type ReaderKind, type ReaderSwitch, type ReadOptions } from '../../core/file/readers.ts';
import { startFileWorker } from '../ui/run/file-worker.ts';
import { PIECES_PER_WORKER_IN_FLIGHT, planParts, toHex, type PartPlan } from '../../core/file/tree.ts';
import { speedsOf } from './speeds.ts';

export type FileStatus = 'waiting' | 'hashing' | 'done' | 'failed' | 'cancelled';

export interface FileEntry {
  id: number;
  file: File;
  status: FileStatus;
  /** The bytes hashed: the whole file, or a prefix when the whole would take too long. */
  bytes: number;
  stage?: number;
  line?: string;
  hex?: string;
  ms?: number;
  error?: string;
}

export interface FileProgress {
  /** Reading only, to time it; else hashing. */
  reading?: boolean;
  done: number;
  total: number;
  startedAt: number;
  now: number;
  /** The file being hashed now, 1-based, its name, and how many there are. */
  file: number;
  name: string;
  files: number;
}

/** How fast the chosen files were read, nothing hashed: the most a stage can hash them here. */
export interface ReadSpeed {
  bytes: number;
  ms: number;
  stage: number;
  /** Threads that read (0: the page's own). */
  workers: number;
  readers: ReaderKind[];
  /** The files' ids: the figure belongs to these files. */
  ids: number[];
}

declare global {
  // For the tests: how the workers read (another order, a shorter watchdog, a reader that stalls).
  var __BLAKE3_LAB_FILE_READS__: ReadOptions | undefined;
}

/** Workers stage 11 starts: one per core the browser reports, at most this many. */
export const MAX_WORKERS = 16;
/** Progress is drawn at most this often: each part finished is an event. */
const PROGRESS_EVERY_MS = 100;

/** How stage `index` can run here: its threads (0: the page's own), or why it cannot run at all. */
export interface StageUse {
  workers: number;
  unavailable?: string;
}

class FileSession {
  entries = $state<FileEntry[]>([]);
  stage = $state(EVERY_CORE_STAGE);
  running = $state(false);
  progress = $state<FileProgress | null>(null);
  /** Why the hash runs on fewer threads than the stage would use, when it does. */
  notice = $state<string | null>(null);
  /** The last choice refused as too long, with the prefix offered instead. */
  refused = $state<{ ms: number; prefix: number } | null>(null);
  /** The last time the files were read without hashing, or why that failed. */
  readSpeed = $state<ReadSpeed | { error: string } | null>(null);
  /** What the reads of the last hash did: the readers, and any given up for stalling. */
  reading = $state<{ readers: ReaderKind[]; stalled: ReaderSwitch[] } | null>(null);

  readonly capabilities: Capabilities = detectCapabilities();
  readonly cores = Math.max(1, Math.min(MAX_WORKERS, globalThis.navigator?.hardwareConcurrency ?? 1));
  readonly canStartWorkers = typeof Worker === 'function';
  private hasher: { key: string; hasher: FileHasher } | null = null;
  private nextId = 1;
  /** Counts hashes started and cancelled: a hash that is no longer the latest changes nothing. */
  private run = 0;

  constructor() {
    this.stage = this.use(EVERY_CORE_STAGE).unavailable ? (this.use(10).unavailable ? 8 : 10) : EVERY_CORE_STAGE;
  }

  /** Where stage `index` runs here: every core for stage 11, one worker for the others, the page's thread without workers. */
  use(index: number): StageUse {
    const stage = STAGES[index];
    if (stage.requires === 'wasm-simd' && !this.capabilities.wasmSimd) {
      return { workers: 0, unavailable: 'needs WebAssembly SIMD, which this browser does not offer' };
    }
    if (!this.canStartWorkers) {
      return index === EVERY_CORE_STAGE ? { workers: 0, unavailable: 'needs Web Workers, which this page cannot start' } : { workers: 0 };
    }
    return { workers: index === EVERY_CORE_STAGE ? this.cores : 1 };
  }

  /** How a file of `size` bytes is cut for stage `index` here (for `workers` threads, 0 being the page's own). */
  plan(size: number, index = this.stage, workers = this.use(index).workers): PartPlan {
    return planParts(size, Math.max(1, workers), workers === 0 ? ON_PAGE_PIECE_BYTES : undefined);
  }

  /** The estimated time for `sizes` on stage `index`, or undefined without figures for it. */
  estimateMs(sizes: readonly number[], index = this.stage): number | undefined {
    const { points } = speedsOf(index);
    const workers = Math.max(1, this.use(index).workers);
    let ms = 0;
    for (const size of sizes) {
      const one = estimatePlanMs(this.plan(size, index), points, workers);
      if (one === undefined) return undefined;
      ms += one;
    }
    return ms;
  }

  /** The most bytes of a file read and not yet hashed at once with stage `index` here, for the largest file chosen. */
  inFlight(index = this.stage): { workers: number; pieceBytes: number; bytes: number } {
    const largest = Math.max(0, ...this.entries.map((e) => e.file.size));
    const workers = Math.max(1, this.use(index).workers);
    const plan = this.plan(largest, index);
    const bytes = plan.pieces === 0 ? plan.size : Math.min(largest, workers * PIECES_PER_WORKER_IN_FLIGHT * plan.pieceBytes);
    return { workers, pieceBytes: plan.pieces === 0 ? plan.size : plan.pieceBytes, bytes };
  }

  /** New files replace the old ones; they are hashed at once unless that would take too long. */
  choose(files: readonly File[]): void {
    if (files.length === 0) return;
    this.cancel();
    this.entries = files.map((file) => ({ id: this.nextId++, file, status: 'waiting', bytes: file.size }));
    this.readSpeed = null;
    void this.start();
  }

  /** Hashes every chosen file with the current stage: whole, or the first `prefix` bytes of each. */
  async start(prefix?: number): Promise<void> {
    if (this.running || this.entries.length === 0) return;
    const sizes = this.entries.map((e) => (prefix === undefined ? e.file.size : Math.min(prefix, e.file.size)));
    this.refused = prefix === undefined ? this.tooLong(sizes) : null;
    if (this.refused) return;
    this.entries = this.entries.map((e, i) => ({ id: e.id, file: e.file, status: 'waiting', bytes: sizes[i] }));
    const run = ++this.run;
    const current = () => this.run === run;
    this.running = true;
    const total = sizes.reduce((a, b) => a + b, 0);
    const startedAt = performance.now();
    this.progress = { done: 0, total, startedAt, now: startedAt, file: 1, name: this.entries[0].file.name, files: this.entries.length };
    this.reading = null;
    let before = 0;
    try {
      for (const [i, entry] of this.entries.entries()) {
        const hasher = await this.hasherFor(this.stage);
        if (!current()) throw new Cancelled();
        this.update(entry.id, { status: 'hashing', stage: this.stage });
        this.progress = { ...this.progress!, file: i + 1, name: entry.file.name };
        await this.hashEntry(entry, hasher, before, current);
        before += entry.bytes;
        this.progress = { ...this.progress!, done: before, now: performance.now() };
      }
    } catch (error) {
      if (current() && !(error instanceof Cancelled)) {
        const reason = error instanceof Error ? error.message : String(error);
        this.entries = this.entries.map((e) => (e.status === 'waiting' || e.status === 'hashing' ? { ...e, status: 'failed', error: reason } : e));
      }
    } finally {
      if (current()) this.running = false;
    }
  }

  /** The refusal, with the prefix that fits, when hashing files of `sizes` whole would take longer than REFUSE_OVER_MS; else null. */
  private tooLong(sizes: number[]): { ms: number; prefix: number } | null {
    const ms = this.estimateMs(sizes);
    if (ms === undefined || ms <= REFUSE_OVER_MS) return null;
    const { points } = speedsOf(this.stage);
    const workers = Math.max(1, this.use(this.stage).workers);
    const cap = this.use(this.stage).workers === 0 ? ON_PAGE_PIECE_BYTES : undefined;
    return { ms, prefix: prefixBytes(sizes, points, workers, cap) };
  }

  /**
   * Hashes one file (its first `entry.bytes`) and marks it done with its line, or failed;
   * `before` is the bytes of the files before it, for the progress. Throws Cancelled when
   * this hash is no longer `current`.
   */
  private async hashEntry(entry: FileEntry, hasher: FileHasher, before: number, current: () => boolean): Promise<void> {
    const began = performance.now();
    let drawn = 0;
    try {
      const blob = entry.bytes === entry.file.size ? entry.file : entry.file.slice(0, entry.bytes);
      const digest = await hasher.hash(blob, this.plan(entry.bytes, this.stage, hasher.workers), (bytes) => {
        const now = performance.now();
        if (!current()) return;
        if (now - drawn < PROGRESS_EVERY_MS && bytes < entry.bytes) return;
        drawn = now;
        this.progress = { ...this.progress!, done: before + bytes, now };
      });
      if (!current()) throw new Cancelled();
      this.noteReads(hasher);
      const hex = toHex(digest);
      // A prefix is b3sum's line for that many bytes of the file read from stdin.
      const line = entry.bytes === entry.file.size ? b3sumLine(hex, entry.file.name) : `${hex}  -`;
      this.update(entry.id, { status: 'done', hex, line, ms: performance.now() - began });
    } catch (error) {
      if (error instanceof Cancelled || !current()) throw new Cancelled();
      this.noteReads(hasher);
      this.update(entry.id, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
      this.dropHasher(); // a worker that failed may be gone: the next file gets fresh ones
    }
  }

  /**
   * Reads every chosen file whole with the current stage's threads, reader and pieces, and
   * hashes nothing: how fast this browser reads them, the ceiling of any hash here.
   */
  async measureRead(): Promise<void> {
    if (this.running || this.entries.length === 0 || this.use(this.stage).unavailable) return;
    const run = ++this.run;
    const current = () => this.run === run;
    this.running = true;
    this.readSpeed = null;
    const total = this.entries.reduce((sum, e) => sum + e.file.size, 0);
    const startedAt = performance.now();
    this.progress = { reading: true, done: 0, total, startedAt, now: startedAt, file: 1, name: this.entries[0].file.name, files: this.entries.length };
    const readers = new Set<ReaderKind>();
    let ms = 0;
    let before = 0;
    let workers = 0;
    try {
      for (const [i, entry] of this.entries.entries()) {
        const hasher = await this.hasherFor(this.stage);
        if (!current()) return;
        workers = hasher.workers;
        this.progress = { ...this.progress!, file: i + 1, name: entry.file.name };
        let drawn = 0;
        const began = performance.now();
        await hasher.read(entry.file, this.plan(entry.file.size, this.stage, hasher.workers), (bytes) => {
          const now = performance.now();
          if (!current() || (now - drawn < PROGRESS_EVERY_MS && bytes < entry.file.size)) return;
          drawn = now;
          this.progress = { ...this.progress!, done: before + bytes, now };
        });
        ms += performance.now() - began;
        for (const reader of hasher.lastPass.readers) readers.add(reader);
        before += entry.file.size;
      }
      if (!current()) return;
      this.progress = { ...this.progress!, done: total, now: performance.now() };
      this.readSpeed = { bytes: total, ms, stage: this.stage, workers, readers: [...readers], ids: this.entries.map((e) => e.id) };
    } catch (error) {
      if (!current() || error instanceof Cancelled) return;
      this.readSpeed = { error: error instanceof Error ? error.message : String(error) };
      this.dropHasher();
    } finally {
      if (current()) this.running = false;
    }
  }

  /** The readers of the hash that just ended, and the reads that stalled and were read again by the next reader. */
  private noteReads(hasher: FileHasher): void {
    const { readers, switches } = hasher.lastPass;
    const stalled = [...(this.reading?.stalled ?? []), ...switches.filter((s) => s.why === 'stalled')];
    this.reading = { readers: [...new Set([...(this.reading?.readers ?? []), ...readers])], stalled };
  }

  /** Stops at once: the workers are terminated mid-part; files not finished are marked cancelled. */
  cancel(): void {
    this.dropHasher();
    if (!this.running) return;
    this.run++;
    this.running = false;
    this.entries = this.entries.map((e) => (e.status === 'waiting' || e.status === 'hashing' ? { ...e, status: 'cancelled' } : e));
  }

  private update(id: number, change: Partial<FileEntry>): void {
    this.entries = this.entries.map((e) => (e.id === id ? { ...e, ...change } : e));
  }

  private dropHasher(): void {
    this.hasher?.hasher.terminate();
    this.hasher = null;
  }

  // The workers for stage `index`, kept between files and hashes; where they cannot start,
  // the page's own thread, and the notice says why.
  private async hasherFor(index: number): Promise<FileHasher> {
    const { workers } = this.use(index);
    const key = `${index}/${workers}`;
    if (this.hasher?.key === key) return this.hasher.hasher;
    this.dropHasher();
    const run = this.run;
    this.notice = workers === 0 ? 'This page cannot start Web Workers here, so files are hashed on its own thread, a megabyte at a time, slower and between its other work.' : null;
    let hasher: FileHasher;
    const reading = globalThis.__BLAKE3_LAB_FILE_READS__ ?? {};
    if (workers === 0) hasher = await startOnPage(index, this.capabilities, reading);
    else {
      try {
        hasher = await startWorkers(index, workers, this.capabilities, startFileWorker, reading);
      } catch (error) {
        this.notice = `The file workers did not start (${error instanceof Error ? error.message : String(error)}), so files are hashed on the page's own thread, a megabyte at a time.`;
        hasher = await startOnPage(index, this.capabilities, reading);
      }
    }
    // Cancelled while the workers started: they are no one's, so they stop here.
    if (this.run !== run) {
      hasher.terminate();
      throw new Cancelled();
    }
    this.hasher = { key, hasher };
    return hasher;
  }
}

/** "a BYOB stream reader into kept buffers", or two of them joined, for the page's sentences. */
export function readerNames(readers: readonly ReaderKind[]): string {
  return readers.map((r) => READER_NAMES[r]).join(', then ');
}

export const session = new FileSession();
