// Node only: `npm run bench -- --file PATH [--native]`. The file goes into bench.html's
// file input by its path (headless Chromium reads it from disk, as the file page does),
// and stage 10, stage 11 and, with --native, b3sum on one thread and on every thread hash
// it in turns, round after round, the order rotated each round. A first pass of each,
// not counted, starts the workers and brings the file into the page cache.

import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism, freemem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { blake3 } from '@noble/hashes/blake3.js';
import { chromium } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { engineFromEnv } from '../core/bench/engines.ts';
import { B3SUM_ID, B3SUM_THREADS_ID, FILE_STAGE_IDS, fileResults, groupCpu, type CpuRow, type FileRun, type FileSample } from '../core/bench/file-results.ts';
import type { Results } from '../core/bench/results.ts';
import { contentVersion } from '../core/bench/source-version.ts';
import { b3sum, buildB3sum, type B3sum } from './b3sum.ts';
import { cpuSince, endedChildrenCpu, threadCpu, type ThreadCpu } from './process-cpu.ts';
import { serveBenchPage } from './bench-server.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium-path.ts';
import { findCargo } from './native-run.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The file page's own code that both stages run on a file, besides stage 10's. */
const FILE_CODE = ['src/core/file/tree.ts', 'src/core/file/part-hasher.ts', 'src/core/file/pool.ts', 'src/app/file/file-worker.ts', 'workers/file.worker.ts'];

export interface FileBenchOptions {
  path: string;
  rounds: number;
  native: boolean;
  label?: string;
  log: (line: string) => void;
  signal?: AbortSignal;
}

/** The file's BLAKE3 from @noble/hashes, read in a stream: the check when there is no b3sum. */
async function oracleHex(path: string): Promise<string> {
  const hasher = blake3.create();
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hasher.update(chunk as Uint8Array);
  return Buffer.from(hasher.digest()).toString('hex');
}

async function nativeB3sum(log: (line: string) => void): Promise<{ program: B3sum; rustc: string } | null> {
  const cargo = await findCargo();
  if (!cargo) {
    log('--native: no cargo on PATH (or in ~/.cargo/bin), so no b3sum rows; install Rust with rustup to get them');
    return null;
  }
  try {
    log('--native: cargo build -p b3sum (native/b3sum, the first time fetches and compiles about 40 crates)');
    const program = await buildB3sum(cargo);
    const rustcPath = cargo === 'cargo' ? 'rustc' : join(dirname(cargo), 'rustc');
    const rustc = (await promisify(execFile)(rustcPath, ['--version']).catch(() => ({ stdout: 'rustc (version unknown)' }))).stdout.trim();
    return { program, rustc };
  } catch (error) {
    log(`--native: ${(error as Error).message}\nthe run goes on without b3sum rows`);
    return null;
  }
}

export interface FileBenchRun {
  results: Results;
  /** Where each contestant's CPU went over its timed hashes; empty without /proc. */
  cpu: CpuRow[];
}

function addCpu(into: ThreadCpu, more: ThreadCpu): void {
  for (const [key, seconds] of more) into.set(key, (into.get(key) ?? 0) + seconds);
}

export async function runFileBench(options: FileBenchOptions): Promise<FileBenchRun> {
  const { rounds, log, signal } = options;
  const path = resolve(options.path);
  const stat = statSync(path);
  if (!stat.isFile()) throw new Error(`${path} is not a file`);
  if (stat.size > freemem()) log(`${path} is larger than the free memory (${Math.round(freemem() / 2 ** 20)} MiB): it cannot stay in the page cache, so every round reads the disk`);
  const native = options.native ? await nativeB3sum(log) : null;
  const threads = availableParallelism();
  const b3sumHex = async (args: string[]) => (await b3sum(native!.program, [...args, path], ROOT)).replace(/^\\/, '').slice(0, 64);
  const expectedHex = native ? await b3sumHex([]) : await oracleHex(path);

  const server = await serveBenchPage();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const samples: FileSample[] = [];
  const stageCpu = new Map<string, ThreadCpu>();
  const b3sumCpu = new Map<string, number>();
  const pieceBytes: Record<string, number> = {};
  let workers = 1;
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.status === 'ready');
    await page.locator('#file-input').setInputFiles(path);
    const env = await page.evaluate((label) => window.blake3LabFileBench.environment(label), options.label);
    const identity = { id: 'chromium', name: 'Chromium', version: browser.version(), jsEngine: 'V8' };
    env.runtimeVersion = `${identity.name} ${identity.version}`;

    const timeOne = async (id: string): Promise<FileSample> => {
      if (id === B3SUM_ID || id === B3SUM_THREADS_ID) {
        const started = performance.now();
        const hex = await b3sumHex(id === B3SUM_ID ? ['--num-threads', '1'] : []);
        return { contestant: id, ms: performance.now() - started, hex };
      }
      const stage = STAGES.find((s) => s.id === id)!.index;
      const timing = await page.evaluate((n) => window.blake3LabFileBench.hash(n), stage);
      pieceBytes[id] = timing.pieceBytes;
      if (id === FILE_STAGE_IDS[1]) workers = timing.workers;
      return { contestant: id, ms: timing.ms, hex: timing.hex };
    };
    const ids = [...FILE_STAGE_IDS, ...(native ? [B3SUM_ID, B3SUM_THREADS_ID] : [])];
    log(`warming up: each of ${ids.join(', ')} once, not counted`);
    for (const id of ids) await timeOne(id);
    for (let round = 1; round <= rounds && !signal?.aborted; round++) {
      const shift = (round - 1) % ids.length;
      const order = [...ids.slice(shift), ...ids.slice(0, shift)];
      const times: string[] = [];
      for (const id of order) {
        if (signal?.aborted) break;
        const threadsBefore = threadCpu();
        const childrenBefore = endedChildrenCpu();
        const sample = await timeOne(id);
        const threadsAfter = threadCpu();
        const childrenAfter = endedChildrenCpu();
        if (id === B3SUM_ID || id === B3SUM_THREADS_ID) {
          if (childrenBefore !== undefined && childrenAfter !== undefined) b3sumCpu.set(id, (b3sumCpu.get(id) ?? 0) + childrenAfter - childrenBefore);
        } else if (threadsBefore && threadsAfter) addCpu(stageCpu.get(id) ?? stageCpu.set(id, new Map()).get(id)!, cpuSince(threadsBefore, threadsAfter));
        samples.push(sample);
        times.push(`${id} ${Math.round(sample.ms)} ms`);
      }
      log(`round ${round}/${rounds}: ${times.join(', ')}`);
    }
    // Both ran stage 10's code through the file page's parts and workers: that is their version.
    const code = [...STAGES[10].files, ...FILE_CODE];
    const version = await contentVersion(code, (file) => readFile(join(ROOT, file), 'utf8'));
    const versions = Object.fromEntries(FILE_STAGE_IDS.map((id) => [id, version]));
    const run: FileRun = {
      path,
      size: stat.size,
      rounds: Math.max(1, Math.min(rounds, ...ids.map((id) => samples.filter((s) => s.contestant === id).length))),
      env,
      engine: engineFromEnv(env, identity),
      versions,
      workers,
      pieceBytes,
      expectedHex,
      ...(native && { b3sum: { version: native.program.version, threads, rustc: native.rustc } }),
      samples,
    };
    const hashed = (id: string) => samples.filter((s) => s.contestant === id).length * stat.size;
    const cpu: CpuRow[] = [
      ...[...stageCpu].map(([contestant, threads]) => ({ contestant, cpu: groupCpu(threads), bytes: hashed(contestant) })),
      ...[...b3sumCpu].map(([contestant, seconds]) => ({ contestant, cpu: seconds, bytes: hashed(contestant) })),
    ];
    return { results: fileResults(run), cpu };
  } finally {
    await browser.close().catch(() => {});
    await server.close();
  }
}
