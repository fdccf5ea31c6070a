// What one thread does for the file page: load a stage, then for each part it is given,
// read that slice of the file itself (./readers.ts: the page's thread copies nothing) and
// hash it, with the stage's hash() for a file of one part and its chainingValue()
// otherwise. Runs in each file worker (workers/file.worker.ts), and on the page's own
// thread where no worker can start.
//
// Reading and hashing overlap: a worker has two parts in flight, and while it hashes one
// the browser reads the other (one part hashes at a time, so the other's read is never
// held up behind a second hash). The browser can only pass the bytes on when the worker's
// thread is free to take them (in Chromium a read goes through a pipe of half a megabyte
// to two that the worker's thread empties), so the SIMD stages hash a piece in steps of
// HASH_STEP_BYTES, each a subtree of its own, and let the reads run between steps; the
// steps' chaining values merge into the piece's (./tree.ts).
//
// Stage 11 on a file is stage 10's code on every core, as stage 11 is: each worker loads
// stage 10 and hashes whole subtrees; the page merges them. Stage 11's own module starts a
// pool of its own and reads shared memory, which a file read slice by slice never needs.

import { STAGES, type Hasher } from '../../../steps/index.ts';
import { missingCapability, type Capabilities } from '../bench/capabilities.ts';
import type { PieceReader } from './readers.ts';
import { CHUNK_LEN, nodeFromParts, type Part } from './tree.ts';

/** The stage that hashes every core's parts. */
export const EVERY_CORE_STAGE = 11;

/** The stage whose code a worker runs for stage `index`: its own, or stage 10's for stage 11. */
export function kernelOf(index: number): number {
  return index === EVERY_CORE_STAGE ? 10 : index;
}

/**
 * Bytes a SIMD stage hashes before it lets the reads under way take what has arrived:
 * about what a read's pipe holds, so the browser need not wait on a full pipe while a step
 * hashes (about 1 ms). On 2 workers in Chromium 156 (2-core AMD EPYC, the machine shared),
 * 1 GiB read alone in 1.0-1.3 s; hashed in 16 MiB pieces whole, 1.6-1.8 s; in steps of
 * 1 MiB, 1.3 s; of 256 KiB, 1.6-2.0 (3 runs each). Later runs on a machine busier still
 * could not tell 512 KiB to 16 MiB apart (medians of 11 runs 1.5-1.8 s, fastest 1.0-1.1).
 */
export const HASH_STEP_BYTES = 1024 * 1024;
/**
 * Stages 9 and 10 (stage 11 runs 10's code) hash about as fast as a file is read, so they
 * hash in steps. The others spend far longer hashing than reading, and stage 0, whose time
 * grows with the square of its input, would be another stage in steps.
 */
const STEPPED_FROM_STAGE = 9;

let hasher: Hasher | undefined;
let loaded = -1;

/** Loads the code for stage `index` on this thread; the reason when it cannot run here. */
export async function loadKernel(index: number, capabilities: Capabilities): Promise<string | undefined> {
  const stage = STAGES[kernelOf(index)];
  if (!stage) return `there is no stage ${index}`;
  const missing = missingCapability(stage.requires, capabilities);
  if (missing) return `stage ${stage.index} ${missing}`;
  try {
    if (loaded !== stage.index) {
      hasher = await stage.load();
      loaded = stage.index;
    }
  } catch (error) {
    hasher = undefined;
    loaded = -1;
    return `stage ${stage.index} did not load: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof hasher?.chainingValue !== 'function') return `stage ${stage.index} cannot hash part of a file`;
  return undefined;
}

/** The part's chaining value, or the file's digest for a file of one part (32 bytes either way). */
export async function hashPart(file: Blob, part: Part, reader: PieceReader): Promise<Uint8Array> {
  if (!hasher) throw new Error('no stage is loaded');
  const bytes = await reader.read(file, part.start, part.end);
  // One piece hashes at a time: the other only reads, and finishes its read sooner.
  const turn = hashTurn;
  let done!: () => void;
  hashTurn = new Promise<void>((resolve) => (done = resolve));
  try {
    await turn;
    return await hashBytes(hasher, bytes, part);
  } finally {
    done();
    reader.release(bytes);
  }
}

let hashTurn: Promise<void> = Promise.resolve();

/** Reads the part and hashes nothing: what the browser's reading alone costs. */
export async function readPart(file: Blob, part: Part, reader: PieceReader): Promise<void> {
  reader.release(await reader.read(file, part.start, part.end));
}

async function hashBytes(stage: Hasher, bytes: Uint8Array, part: Part): Promise<Uint8Array> {
  if (part.root) return stage.hash(bytes);
  if (loaded < STEPPED_FROM_STAGE || bytes.length <= HASH_STEP_BYTES) return stage.chainingValue!(bytes, part.counter);
  const cvs: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += HASH_STEP_BYTES) {
    if (offset > 0) await nextTask();
    const cv = stage.chainingValue!(bytes.subarray(offset, offset + HASH_STEP_BYTES), part.counter + offset / CHUNK_LEN);
    cvs.push(cv.byteOffset === 0 && cv.buffer.byteLength === cv.length ? cv : cv.slice());
  }
  return nodeFromParts(cvs);
}

// A task of its own after this one: a promise would resume before the reads could run.
let channel: MessageChannel | undefined;
const waiting: (() => void)[] = [];
function nextTask(): Promise<void> {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
    (channel.port1 as { unref?: () => void }).unref?.(); // Node: no reason to keep the process alive
  }
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel!.port2.postMessage(null);
  });
}
