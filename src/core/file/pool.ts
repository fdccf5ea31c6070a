// The file page's threads: a pool of file workers that each read and hash their own parts
// of a file, or, where no worker can start, the page's own thread taking the parts one by
// one between its other work. Either way the page's thread only hands out parts and
// merges 32-byte chaining values: it never holds the file's bytes (a worker) and never
// blocks for long (each part is at most ON_PAGE_PIECE_BYTES on the page's thread).
//
// Each worker holds at most PIECES_PER_WORKER_IN_FLIGHT parts: the one it hashes and the
// next, which it reads meanwhile, into buffers it keeps from piece to piece (./readers.ts).
// terminate() stops every worker at once, in the middle of a part; the pool is then done,
// and a new one starts for the next file. The page starts the workers
// (src/app/ui/run/file-worker.ts) and hands them in: core starts none itself.
//
// A pass can also read the file and hash nothing (read()): what the browser's reading alone
// costs with the same workers, reader and pieces, the ceiling of their hash.

import type { Capabilities } from '../bench/capabilities.ts';
import { Cancelled, type StartedWorker } from '../worker.ts';
import { hashPart, loadKernel, readPart } from './part-hasher.ts';
import { PieceReader, type ReaderKind, type ReaderSwitch, type ReadOptions } from './readers.ts';
import { MAX_IN_FLIGHT_BYTES, PIECES_PER_WORKER_IN_FLIGHT, partAt, partCount, rootFromParts, type Part, type PartPlan } from './tree.ts';

/** A part's 32 bytes (none when only reading) and the reader that read it, or why it failed (errors come back as data). */
export type PartResult = { cv?: Uint8Array; reader: ReaderKind; switches: ReaderSwitch[] } | { error: string; switches: ReaderSwitch[] };

/** How a worker reads the file it is handed: the pieces' size, how many it holds at once, and the readers. */
export interface OpenOptions {
  pieceBytes: number;
  slots: number;
  reading?: ReadOptions;
}

/** What a file worker (workers/file.worker.ts) offers the pool. */
export interface FileWorkerApi {
  /** Loads stage `index`; the reason when it cannot run here. */
  load(index: number, capabilities: Capabilities): Promise<string | undefined>;
  /** The file the next parts come from: a handle, its bytes stay where they are. */
  open(blob: Blob, options: OpenOptions): void;
  /** Reads the part and hashes it, or with `readOnly` only reads it. */
  part(part: Part, readOnly: boolean): Promise<PartResult>;
  /** The file is done: its buffers go. */
  close(): void;
}

/** Other pieces than the file page's: a size (a power of two, bytes), how many each worker holds, how they read. */
export interface FileTuning {
  pieceBytes?: number;
  inFlight?: number;
  reading?: ReadOptions;
}

/** One timed pass of the file bench (src/app/bench/pages/file.ts) over the chosen file. */
export interface FileHashTiming {
  ms: number;
  /** The digest; empty when only reading. */
  hex: string;
  workers: number;
  pieceBytes: number;
  readers: ReaderKind[];
  switches: ReaderSwitch[];
}

/** How one pass over a file went: the readers that read it, and any given up on the way. */
export interface PassReport {
  readers: ReaderKind[];
  switches: ReaderSwitch[];
}

/** What a pass may change: the parts each worker holds at once, how they read (the bench tries others). */
export interface PassOptions {
  inFlight?: number;
  reading?: ReadOptions;
}

/** On the page's own thread parts stay small, so no part blocks it for long. */
export const ON_PAGE_PIECE_BYTES = 1024 * 1024;
/** The longest the workers may take to start and load their stage. */
const START_TIMEOUT_MS = 20_000;

// The user stopped the hash: the same Cancelled as a worker call's.
export { Cancelled };

/** Hashes files, part by part: a pool of workers or the page's thread. */
export interface FileHasher {
  /** Workers hashing at once; 0 on the page's own thread. */
  readonly workers: number;
  /** The largest part this hasher takes (smaller on the page's thread). */
  readonly pieceCap: number | undefined;
  /** The digest of `file` cut by `plan`; `onProgress` gets the bytes hashed so far. */
  hash(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, options?: PassOptions): Promise<Uint8Array>;
  /** Reads `file` as hash() would and hashes nothing. */
  read(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, options?: PassOptions): Promise<void>;
  /** The readers of the last pass, and any given up. */
  readonly lastPass: PassReport;
  /** Stops at once; a hash under way rejects with Cancelled. */
  terminate(): void;
}

function report(results: readonly { reader?: ReaderKind; switches: ReaderSwitch[] }[]): PassReport {
  const readers = [...new Set(results.map((r) => r.reader).filter((r): r is ReaderKind => r !== undefined))];
  return { readers, switches: results.flatMap((r) => r.switches) };
}

type Thread = StartedWorker<FileWorkerApi>;

class WorkerPool implements FileHasher {
  readonly pieceCap = undefined;
  lastPass: PassReport = { readers: [], switches: [] };
  private fail: ((error: Error) => void) | undefined;
  private stopped = false;

  constructor(
    private readonly threads: Thread[],
    private readonly reading: ReadOptions,
  ) {
    for (const { failed } of threads) failed.catch((error: Error) => this.fail?.(error));
  }

  get workers(): number {
    return this.threads.length;
  }

  async hash(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, options: PassOptions = {}): Promise<Uint8Array> {
    const cvs = await this.pass(file, plan, onProgress, options, false);
    return cvs.length === 1 ? cvs[0] : rootFromParts(cvs);
  }

  async read(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, options: PassOptions = {}): Promise<void> {
    await this.pass(file, plan, onProgress, options, true);
  }

  private async pass(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, options: PassOptions, readOnly: boolean): Promise<Uint8Array[]> {
    if (this.stopped) throw new Cancelled();
    const inFlight = options.inFlight ?? PIECES_PER_WORKER_IN_FLIGHT;
    if (this.threads.length * inFlight * plan.pieceBytes > Math.max(MAX_IN_FLIGHT_BYTES, plan.size)) {
      throw new RangeError(`${this.threads.length} workers holding ${inFlight} pieces of ${plan.pieceBytes} bytes would pass the ${MAX_IN_FLIGHT_BYTES}-byte bound`);
    }
    const count = partCount(plan);
    const cvs: Uint8Array[] = new Array(count);
    const results: PartResult[] = [];
    const open: OpenOptions = { pieceBytes: plan.pieceBytes, slots: inFlight, reading: options.reading ?? this.reading };
    try {
      await new Promise<void>((resolve, reject) => {
        let settled = false;
        this.fail = (error) => {
          if (settled) return;
          settled = true;
          reject(error);
        };
        let next = 0;
        let finished = 0;
        let bytes = 0;
        const feed = (thread: Thread) => {
          if (settled || next >= count) return;
          const part = partAt(plan, next++);
          thread.api.part(part, readOnly).then((result: PartResult) => {
            if (settled) return;
            results.push(result);
            if ('error' in result) return this.fail?.(new Error(result.error));
            if (result.cv) cvs[part.index] = result.cv;
            bytes += part.end - part.start;
            onProgress(bytes);
            if (++finished === count) {
              settled = true;
              resolve();
            } else feed(thread);
          }, (error: unknown) => this.fail?.(error instanceof Error ? error : new Error(String(error))));
        };
        Promise.all(this.threads.map(({ api }) => api.open(file, open))).then(() => {
          for (let k = 0; k < inFlight; k++) for (const thread of this.threads) feed(thread);
        }, (error: unknown) => this.fail?.(error instanceof Error ? error : new Error(String(error))));
      });
    } finally {
      this.lastPass = report(results);
      if (!this.stopped) for (const { api } of this.threads) api.close().catch(() => {});
    }
    return cvs;
  }

  terminate(): void {
    this.stopped = true;
    for (const { stop } of this.threads) stop();
    this.fail?.(new Cancelled());
  }
}

class PageThread implements FileHasher {
  readonly workers = 0;
  readonly pieceCap = ON_PAGE_PIECE_BYTES;
  lastPass: PassReport = { readers: [], switches: [] };
  private stopped = false;

  constructor(private readonly reading: ReadOptions) {}

  async hash(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, options: PassOptions = {}): Promise<Uint8Array> {
    const cvs = await this.pass(file, plan, onProgress, options, false);
    return cvs.length === 1 ? cvs[0] : rootFromParts(cvs);
  }

  async read(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, options: PassOptions = {}): Promise<void> {
    await this.pass(file, plan, onProgress, options, true);
  }

  private async pass(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, options: PassOptions, readOnly: boolean): Promise<Uint8Array[]> {
    const count = partCount(plan);
    const cvs: Uint8Array[] = [];
    const reader = new PieceReader(plan.pieceBytes, 1, options.reading ?? this.reading);
    const switches: ReaderSwitch[] = [];
    let bytes = 0;
    try {
      for (let i = 0; i < count; i++) {
        if (this.stopped) throw new Cancelled();
        const part = partAt(plan, i);
        // The read lets the page run between parts.
        if (readOnly) await readPart(file, part, reader);
        else cvs.push(await hashPart(file, part, reader));
        switches.push(...reader.takeSwitches());
        bytes += part.end - part.start;
        onProgress(bytes);
      }
    } finally {
      switches.push(...reader.takeSwitches());
      this.lastPass = { readers: reader.reader ? [reader.reader] : [], switches };
    }
    if (this.stopped) throw new Cancelled();
    return cvs;
  }

  terminate(): void {
    this.stopped = true;
  }
}

/** Starts `count` workers (each from `startWorker`) running stage `stage`, reading as `reading` says; rejects with the reason when they cannot. */
export async function startWorkers(stage: number, count: number, capabilities: Capabilities, startWorker: () => StartedWorker<FileWorkerApi>, reading: ReadOptions = {}): Promise<FileHasher> {
  const threads: Thread[] = [];
  try {
    for (let i = 0; i < count; i++) {
      threads.push(startWorker());
    }
    const limits = { timeoutMs: START_TIMEOUT_MS, late: `the file workers did not answer within ${START_TIMEOUT_MS / 1000} s` };
    const reasons = await Promise.all(threads.map((thread) => thread.call((api) => api.load(stage, capabilities), limits)));
    const reason = reasons.find((r) => r !== undefined);
    if (reason) throw new Error(reason);
    return new WorkerPool(threads, reading);
  } catch (error) {
    for (const { stop } of threads) stop();
    throw error;
  }
}

/** The page's own thread, for where no worker can start; rejects when the stage cannot run here. */
export async function startOnPage(stage: number, capabilities: Capabilities, reading: ReadOptions = {}): Promise<FileHasher> {
  const reason = await loadKernel(stage, capabilities);
  if (reason) throw new Error(reason);
  return new PageThread(reading);
}
