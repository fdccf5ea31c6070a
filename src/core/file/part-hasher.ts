// What one thread does for the file page: load a stage, then for each part it is given,
// read that slice of the file itself (Blob.slice().arrayBuffer(): the page's thread
// copies nothing) and hash it, with the stage's hash() for a file of one part and its
// chainingValue() otherwise. Runs in each file worker (workers/file.worker.ts), and on
// the page's own thread where no worker can start.
//
// Stage 11 on a file is stage 10's code on every core, as stage 11 is: each worker loads
// stage 10 and hashes whole subtrees; the page merges them. Stage 11's own module starts a
// pool of its own and reads shared memory, which a file read slice by slice never needs.

import { STAGES, type Hasher } from '../../../steps/index.ts';
import { missingCapability, type Capabilities } from '../bench/capabilities.ts';
import type { Part } from './tree.ts';

/** The stage that hashes every core's parts. */
export const EVERY_CORE_STAGE = 11;

/** The stage whose code a worker runs for stage `index`: its own, or stage 10's for stage 11. */
export function kernelOf(index: number): number {
  return index === EVERY_CORE_STAGE ? 10 : index;
}

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
export async function hashPart(file: Blob, part: Part): Promise<Uint8Array> {
  if (!hasher) throw new Error('no stage is loaded');
  let bytes: Uint8Array;
  try {
    // A fresh buffer for every slice. A BYOB reader into buffers the thread keeps cut the
    // reading worker's CPU from 0.8-0.9 to 0.3-0.4 s per GiB in Chromium 156, but now and
    // then a read never finished once the worker hashed between reads (in 4 of 9 runs of
    // six 1 GiB hashes): a faster hash that may hang is no hash.
    bytes = new Uint8Array(await file.slice(part.start, part.end).arrayBuffer());
  } catch (error) {
    // A file deleted or changed since it was chosen, or a folder dropped as a file.
    throw new Error(`the file could not be read (${error instanceof Error ? error.name || error.message : String(error)}): was it moved or changed since it was chosen?`);
  }
  if (bytes.length !== part.end - part.start) throw new Error('the file is shorter than when it was chosen: was it changed?');
  return part.root ? hasher.hash(bytes) : hasher.chainingValue!(bytes, part.counter);
}
