// What a file worker (workers/file.worker.ts) does: it is handed a file, then hashes (or
// only reads) the parts it is given, reading each slice of the file itself with its own
// PieceReader (./readers.ts) and hashing with ./part-hasher.ts. The pool (./pool.ts)
// starts as many as the stage uses threads.
import { transfer } from 'comlink';
import type { Capabilities } from '../bench/capabilities.ts';
import { hashPart, loadKernel, readPart } from './part-hasher.ts';
import type { FileWorkerApi, OpenOptions, PartResult } from './pool.ts';
import { PieceReader } from './readers.ts';
import type { Part } from './tree.ts';

/** A file worker's API: the worker entry only exposes it. */
export function fileWorkerApi(): FileWorkerApi {
  let file: Blob | undefined;
  let reader: PieceReader | undefined;
  return {
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
}
