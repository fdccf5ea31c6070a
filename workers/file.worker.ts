// A file worker of the file page (#/file): loads a stage, is handed a file, then hashes
// (or only reads) the parts it is given, reading each slice of the file itself with a
// reader of src/core/file/readers.ts. Started by the page (src/app/file/file-worker.ts)
// for src/core/file/pool.ts, as many as the stage uses threads.
import { expose, transfer } from 'comlink';
import type { Capabilities } from '../src/core/bench/capabilities.ts';
import { hashPart, loadKernel, readPart } from '../src/core/file/part-hasher.ts';
import type { FileWorkerApi, OpenOptions, PartResult } from '../src/core/file/pool.ts';
import { PieceReader } from '../src/core/file/readers.ts';
import type { Part } from '../src/core/file/tree.ts';

let file: Blob | undefined;
let reader: PieceReader | undefined;

const api: FileWorkerApi = {
  load: (index: number, capabilities: Capabilities): Promise<string | undefined> => loadKernel(index, capabilities),
  open(blob: Blob, options: OpenOptions): void {
    file = blob;
    reader = new PieceReader(options.pieceBytes, options.slots, options.reading);
  },
  async part(part: Part, readOnly: boolean): Promise<PartResult> {
    const mine = reader;
    try {
      if (!file || !mine) throw new Error('no file was opened');
      if (readOnly) {
        await readPart(file, part, mine);
        return { reader: mine.reader!, switches: mine.takeSwitches() };
      }
      const digest = await hashPart(file, part, mine);
      // Only a buffer of its own is moved, never a stage's larger one.
      const cv = digest.byteOffset === 0 && digest.buffer.byteLength === digest.length ? digest : digest.slice();
      return transfer({ cv, reader: mine.reader!, switches: mine.takeSwitches() }, [cv.buffer]);
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error), switches: mine?.takeSwitches() ?? [] };
    }
  },
  close(): void {
    file = undefined;
    reader = undefined;
  },
};

expose(api);
