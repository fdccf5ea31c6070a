// The file page's threads: a pool of file workers that each read and hash their own parts
// of a file, or, where no worker can start, the page's own thread taking the parts one by
// one between its other work. Either way the page's thread only hands out parts and
// merges 32-byte chaining values: it never holds the file's bytes (a worker) and never
// blocks for long (each part is at most ON_PAGE_PIECE_BYTES on the page's thread).
//
// Each worker holds at most PIECES_PER_WORKER_IN_FLIGHT parts: the one it hashes and the
// next, which it reads meanwhile. terminate() stops every worker at once, in the middle of
// a part; the pool is then done, and a new one starts for the next file. The page starts
// the workers (src/app/file/file-worker.ts) and hands them in: core starts none itself.

import { wrap, type Remote } from 'comlink';
import type { Capabilities } from '../bench/capabilities.ts';
import { hashPart, loadKernel } from './part-hasher.ts';
import { MAX_IN_FLIGHT_BYTES, PIECES_PER_WORKER_IN_FLIGHT, partAt, partCount, rootFromParts, type Part, type PartPlan } from './tree.ts';

/** A part's 32 bytes, or why it could not be hashed (errors come back as data). */
export type PartResult = { cv: Uint8Array } | { error: string };

/** What a file worker (workers/file.worker.ts) offers the pool. */
export interface FileWorkerApi {
  /** Loads stage `index`; the reason when it cannot run here. */
  load(index: number, capabilities: Capabilities): Promise<string | undefined>;
  /** The file the next parts come from: a handle, its bytes stay where they are. */
  open(blob: Blob): void;
  part(part: Part): Promise<PartResult>;
}

/** On the page's own thread parts stay small, so no part blocks it for long. */
export const ON_PAGE_PIECE_BYTES = 1024 * 1024;
/** The longest the workers may take to start and load their stage. */
const START_TIMEOUT_MS = 20_000;

/** The user stopped the hash. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** Hashes files, part by part: a pool of workers or the page's thread. */
export interface FileHasher {
  /** Workers hashing at once; 0 on the page's own thread. */
  readonly workers: number;
  /** The largest part this hasher takes (smaller on the page's thread). */
  readonly pieceCap: number | undefined;
  /**
   * The digest of `file` cut by `plan`; `onProgress` gets the bytes hashed so far. Each
   * worker holds at most `inFlight` parts at once (the bench tries others).
   */
  hash(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, inFlight?: number): Promise<Uint8Array>;
  /** Stops at once; a hash under way rejects with Cancelled. */
  terminate(): void;
}

interface Thread {
  api: Remote<FileWorkerApi>;
  worker: Worker;
}

class WorkerPool implements FileHasher {
  readonly pieceCap = undefined;
  private fail: ((error: Error) => void) | undefined;
  private stopped = false;

  constructor(private readonly threads: Thread[]) {
    for (const { worker } of threads) {
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        this.fail?.(new Error(`a file worker stopped: ${event.message || 'it crashed or ran out of memory'}`));
      });
    }
  }

  get workers(): number {
    return this.threads.length;
  }

  async hash(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void, inFlight = PIECES_PER_WORKER_IN_FLIGHT): Promise<Uint8Array> {
    if (this.stopped) throw new Cancelled();
    if (this.threads.length * inFlight * plan.pieceBytes > Math.max(MAX_IN_FLIGHT_BYTES, plan.size)) {
      throw new RangeError(`${this.threads.length} workers holding ${inFlight} pieces of ${plan.pieceBytes} bytes would pass the ${MAX_IN_FLIGHT_BYTES}-byte bound`);
    }
    const count = partCount(plan);
    const cvs: Uint8Array[] = new Array(count);
    return new Promise<Uint8Array>((resolve, reject) => {
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
        thread.api.part(part).then((result: PartResult) => {
          if (settled) return;
          if ('error' in result) return this.fail?.(new Error(result.error));
          cvs[part.index] = result.cv;
          bytes += part.end - part.start;
          onProgress(bytes);
          if (++finished === count) {
            settled = true;
            resolve(count === 1 ? cvs[0] : rootFromParts(cvs));
          } else feed(thread);
        }, (error: unknown) => this.fail?.(error instanceof Error ? error : new Error(String(error))));
      };
      Promise.all(this.threads.map(({ api }) => api.open(file))).then(() => {
        for (let k = 0; k < inFlight; k++) for (const thread of this.threads) feed(thread);
      }, (error: unknown) => this.fail?.(error instanceof Error ? error : new Error(String(error))));
    });
  }

  terminate(): void {
    this.stopped = true;
    for (const { worker } of this.threads) worker.terminate();
    this.fail?.(new Cancelled());
  }
}

class PageThread implements FileHasher {
  readonly workers = 0;
  readonly pieceCap = ON_PAGE_PIECE_BYTES;
  private stopped = false;

  async hash(file: Blob, plan: PartPlan, onProgress: (bytes: number) => void): Promise<Uint8Array> {
    const count = partCount(plan);
    const cvs: Uint8Array[] = [];
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      if (this.stopped) throw new Cancelled();
      const part = partAt(plan, i);
      cvs.push(await hashPart(file, part)); // the read lets the page run between parts
      bytes += part.end - part.start;
      onProgress(bytes);
    }
    if (this.stopped) throw new Cancelled();
    return count === 1 ? cvs[0] : rootFromParts(cvs);
  }

  terminate(): void {
    this.stopped = true;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Starts `count` workers (each from `spawn`) running stage `stage`; rejects with the reason when they cannot. */
export async function startWorkers(stage: number, count: number, capabilities: Capabilities, spawn: () => Worker): Promise<FileHasher> {
  const threads: Thread[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const worker = spawn();
      threads.push({ worker, api: wrap<FileWorkerApi>(worker) });
    }
    const died = new Promise<never>((_, reject) => {
      for (const { worker } of threads) {
        worker.addEventListener('error', (event) => reject(new Error(event.message || 'a worker failed to load')), { once: true });
      }
    });
    const reasons = await withTimeout(Promise.race([Promise.all(threads.map(({ api }) => api.load(stage, capabilities))), died]), START_TIMEOUT_MS, 'the file workers');
    const reason = reasons.find((r) => r !== undefined);
    if (reason) throw new Error(reason);
    return new WorkerPool(threads);
  } catch (error) {
    for (const { worker } of threads) worker.terminate();
    throw error;
  }
}

/** The page's own thread, for where no worker can start; rejects when the stage cannot run here. */
export async function startOnPage(stage: number, capabilities: Capabilities): Promise<FileHasher> {
  const reason = await loadKernel(stage, capabilities);
  if (reason) throw new Error(reason);
  return new PageThread();
}
