// bench.html's part for `npm run bench -- --file PATH`: the command line puts the file in
// the page's file input by its path (the bytes stay on disk) and calls
// `window.blake3LabFileBench.hash(stage)` and `.read(stage)` round after round. The workers
// are the file page's (src/core/file/pool.ts), started once per stage and kept, as the page
// keeps them; read(stage) has that stage's workers read the file and hash nothing.

import { browserHost } from '../../ui/run/browser.ts';
import { detectCapabilities } from '../../../core/bench/capabilities.ts';
import type { Environment } from '../../../core/bench/results.ts';
import { environmentOf } from '../../../core/bench/runner.ts';
import { EVERY_CORE_STAGE } from '../../../core/file/part-hasher.ts';
import { startWorkers, type FileHasher, type FileHashTiming, type FileTuning } from '../../../core/file/pool.ts';
import { startFileWorker } from '../../ui/run/file-worker.ts';
import { planParts, toHex } from '../../../core/file/tree.ts';

declare global {
  interface Window {
    blake3LabFileBench: {
      environment(label?: string): Promise<Environment>;
      /** Which stages can hash here: the bench runs the page's own choice where SIMD is missing. */
      wasmSimd(): boolean;
      hash(stage: number, tuning?: FileTuning): Promise<FileHashTiming>;
      read(stage: number, tuning?: FileTuning): Promise<FileHashTiming>;
    };
  }
}

const input = document.getElementById('file-input') as HTMLInputElement;
const hashers = new Map<number, FileHasher>();
/** Stage 11's workers: one per core the browser reports, as on the file page. */
const everyCore = () => Math.max(1, navigator.hardwareConcurrency || 1);

async function hasherFor(stage: number): Promise<FileHasher> {
  let hasher = hashers.get(stage);
  if (!hasher) {
    const workers = stage === EVERY_CORE_STAGE ? everyCore() : 1;
    hasher = await startWorkers(stage, workers, detectCapabilities(), startFileWorker);
    hashers.set(stage, hasher);
  }
  return hasher;
}

function chosenFile(): File {
  const file = input.files?.[0];
  if (!file) throw new Error('no file is in the page: the command line sets it by its path');
  return file;
}

async function environment(label?: string): Promise<Environment> {
  return environmentOf(await browserHost(label), detectCapabilities());
}

async function hash(stage: number, tuning: FileTuning = {}): Promise<FileHashTiming> {
  const file = chosenFile();
  const hasher = await hasherFor(stage);
  const plan = planParts(file.size, hasher.workers, tuning.pieceBytes);
  const started = performance.now();
  const digest = await hasher.hash(file, plan, () => {}, { inFlight: tuning.inFlight, reading: tuning.reading });
  return { ms: performance.now() - started, hex: toHex(digest), workers: hasher.workers, pieceBytes: plan.pieceBytes, ...hasher.lastPass };
}

/** The file read as `stage` reads it, by its very workers (same pieces, same reader), nothing hashed. */
async function read(stage: number, tuning: FileTuning = {}): Promise<FileHashTiming> {
  const file = chosenFile();
  const hasher = await hasherFor(stage);
  const plan = planParts(file.size, hasher.workers, tuning.pieceBytes);
  const started = performance.now();
  await hasher.read(file, plan, () => {}, { inFlight: tuning.inFlight, reading: tuning.reading });
  return { ms: performance.now() - started, hex: '', workers: hasher.workers, pieceBytes: plan.pieceBytes, ...hasher.lastPass };
}

window.blake3LabFileBench = { environment, wasmSimd: () => detectCapabilities().wasmSimd, hash, read };
