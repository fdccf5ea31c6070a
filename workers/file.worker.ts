// A file worker of the file page (#/file): loads a stage, is handed a file once, then
// hashes the parts it is given, reading each slice of the file itself. Started by
// the page (src/app/file/file-worker.ts) for src/core/file/pool.ts, as many as the stage uses threads.
import { expose, transfer } from 'comlink';
import type { Capabilities } from '../src/core/bench/capabilities.ts';
import { hashPart, loadKernel } from '../src/core/file/part-hasher.ts';
import type { FileWorkerApi, PartResult } from '../src/core/file/pool.ts';
import type { Part } from '../src/core/file/tree.ts';

let file: Blob | undefined;

const api: FileWorkerApi = {
  load: (index: number, capabilities: Capabilities): Promise<string | undefined> => loadKernel(index, capabilities),
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
