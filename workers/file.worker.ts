// A file worker of the file page (#/file): loads a stage, is handed a file once, then
// hashes the parts it is given, reading each slice of the file itself. Started by
// src/core/file/pool.ts, as many as the stage uses threads.
import { expose, transfer } from 'comlink';
import type { Capabilities } from '../src/core/bench/capabilities.ts';
import { hashPart, loadKernel } from '../src/core/file/part-hasher.ts';
import type { Part } from '../src/core/file/tree.ts';

/** A part's 32 bytes, or why it could not be hashed (errors come back as data). */
export type PartResult = { cv: Uint8Array } | { error: string };

let file: Blob | undefined;

const api = {
  /** Loads stage `index`; the reason when it cannot run here. */
  load: (index: number, capabilities: Capabilities): Promise<string | undefined> => loadKernel(index, capabilities),
  /** The file the next parts come from: a handle, its bytes stay where they are. */
  open(blob: Blob): void {
    file = blob;
  },
  async part(part: Part): Promise<PartResult> {
    try {
      if (!file) throw new Error('no file was opened');
      const digest = await hashPart(file, part);
      // Only a buffer of its own is moved, never a stage's larger one.
      const cv = digest.byteOffset === 0 && digest.buffer.byteLength === digest.length ? digest : digest.slice();
      return transfer({ cv }, [cv.buffer]);
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  },
};

expose(api);

export type FileWorkerApi = typeof api;
