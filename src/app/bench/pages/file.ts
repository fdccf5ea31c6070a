// bench.html's part for `npm run bench -- --file PATH`: the command line puts the file in
// the page's file input by its path (the bytes stay on disk) and calls
// `window.blake3LabFileBench.hash(stage)` round after round. The workers are the file
// page's (src/core/file/pool.ts), started once per stage and kept, as the page keeps them.

import { browserHost } from '../browser.ts';
import { detectCapabilities } from '../../../core/bench/capabilities.ts';
import type { Environment } from '../../../core/bench/results.ts';
import { measureTimerResolutionMs } from '../../../core/bench/timer.ts';
import { EVERY_CORE_STAGE } from '../../../core/file/part-hasher.ts';
import { startWorkers, type FileHasher } from '../../../core/file/pool.ts';
import { spawnFileWorker } from '../../file/file-worker.ts';
import { planParts, toHex } from '../../../core/file/tree.ts';

/** Other pieces than the file page's: a size (a power of two, bytes) and how many each worker holds. */
export interface FileTuning {
  pieceBytes?: number;
  inFlight?: number;
}

export interface FileHashTiming {
  ms: number;
  hex: string;
  workers: number;
  pieceBytes: number;
}

declare global {
  interface Window {
    blake3LabFileBench: { environment(label?: string): Promise<Environment>; hash(stage: number, tuning?: FileTuning): Promise<FileHashTiming> };
  }
}

const input = document.getElementById('file-input') as HTMLInputElement;
const hashers = new Map<number, FileHasher>();

async function hasherFor(stage: number): Promise<FileHasher> {
  let hasher = hashers.get(stage);
  if (!hasher) {
    const workers = stage === EVERY_CORE_STAGE ? Math.max(1, navigator.hardwareConcurrency || 1) : 1;
    hasher = await startWorkers(stage, workers, detectCapabilities(), spawnFileWorker);
    hashers.set(stage, hasher);
  }
  return hasher;
}

async function environment(label?: string): Promise<Environment> {
  const capabilities = detectCapabilities();
  return {
    ...(await browserHost(label)),
    timerResolutionNs: measureTimerResolutionMs(() => performance.now()) * 1e6,
    crossOriginIsolated: capabilities.crossOriginIsolated,
    littleEndian: capabilities.littleEndian,
    wasmSimd: capabilities.wasmSimd,
    webCrypto: capabilities.webCrypto,
    date: new Date().toISOString(),
  };
}

async function hash(stage: number, tuning: FileTuning = {}): Promise<FileHashTiming> {
  const file = input.files?.[0];
  if (!file) throw new Error('no file is in the page: the command line sets it by its path');
  const hasher = await hasherFor(stage);
  const plan = planParts(file.size, hasher.workers, tuning.pieceBytes);
  const started = performance.now();
  const digest = await hasher.hash(file, plan, () => {}, tuning.inFlight);
  return { ms: performance.now() - started, hex: toHex(digest), workers: hasher.workers, pieceBytes: plan.pieceBytes };
}

window.blake3LabFileBench = { environment, hash };
