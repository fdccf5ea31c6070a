// Node only: `npm run bench -- --file PATH [--browser LIST] [--native]`. In each browser in
// turn, the file goes into bench.html's file input by its path (the browser reads it from
// disk, as the file page does), and stage 10, stage 11, stage 11's workers reading only
// and, with --native, b3sum on one thread and on every thread go through it in turns,
// round after round, the order rotated each round. A first pass of each, not counted,
// starts the workers and brings the file into the page cache.

import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism, freemem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blake3 } from '@noble/hashes/blake3.js';
import { STAGES } from '../../steps/index.ts';
import { runtimeFromEnv, type BrowserId } from '../core/bench/runtimes.ts';
import {
  B3SUM_ID, B3SUM_THREADS_ID, FILE_FALLBACK_STAGE_ID, FILE_STAGE_IDS, READ_ONLY_ID, fileResults, groupCpu, hashWithId, readWithId,
  type CpuRow, type FileBrowserRun, type FileRun, type FileSample,
} from '../core/file/bench-results.ts';
import type { Results } from '../core/bench/results.ts';
import { contentVersion } from '../core/bench/source-version.ts';
import type { ReaderKind } from '../core/file/readers.ts';
import { b3sum, buildB3sum, type B3sum } from './b3sum.ts';
import { rustcVersion } from './native-build.ts';
import { cpuSince, endedChildrenCpu, threadCpu, type ThreadCpu } from './process-cpu.ts';
import { serveBenchPage } from './bench-server.ts';
import { BROWSERS, missingBrowser } from './browsers.ts';
import { openFileTab, type FileTab } from './file-tab.ts';
import { findCargo } from './native-run.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The file page's own code that every contestant in a browser runs on a file, besides a stage's. */
const FILE_CODE = ['src/core/file/tree.ts', 'src/core/file/readers.ts', 'src/core/file/part-hasher.ts', 'src/core/file/pool.ts', 'src/app/ui/run/file-worker.ts', 'workers/file.worker.ts'];

export interface FileBenchOptions {
  path: string;
  rounds: number;
  /** The browsers, one after the other (Chromium when empty). */
  browsers?: readonly BrowserId[];
  /** Readers to time alone too, hashing and reading only (--readers). */
  readers?: readonly ReaderKind[];
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
    log('--native: native/build.sh b3sum (the first time fetches and compiles about 40 crates)');
    const program = await buildB3sum(cargo);
    return { program, rustc: await rustcVersion(cargo) };
  } catch (error) {
    log(`--native: ${(error as Error).message}\nthe run goes on without b3sum rows`);
    return null;
  }
}

export interface FileBenchRun {
  results: Results;
  /** Where each contestant's CPU went over its timed passes in Chromium; empty without /proc or Chromium. */
  cpu: CpuRow[];
}

function addCpu(into: ThreadCpu, more: ThreadCpu): void {
  for (const [key, seconds] of more) into.set(key, (into.get(key) ?? 0) + seconds);
}

const stageIndex = (id: string) => STAGES.find((s) => s.id === id)!.index;

/** Content versions: each stage's files and the file page's code; reading only is the file page's code alone. */
async function versionsOf(ids: readonly string[]): Promise<Record<string, string>> {
  const read = (file: string) => readFile(join(ROOT, file), 'utf8');
  const versions: Record<string, string> = {};
  for (const id of ids) {
    // Stage 11 runs stage 10's code on every core.
    const stage = id === READ_ONLY_ID ? undefined : STAGES[id === FILE_STAGE_IDS[1] ? 10 : stageIndex(id)];
    versions[id] = await contentVersion([...(stage?.files ?? []), ...FILE_CODE], read);
  }
  return versions;
}

interface Turns {
  tab: FileTab;
  /** The stage whose workers read only: the page's fastest here. */
  readBy: number;
  ids: string[];
  native: boolean;
  b3sumHex: (args: string[]) => Promise<string>;
  browserRun: FileBrowserRun;
  nativeSamples: FileSample[];
  cpu: { stage: Map<string, ThreadCpu>; b3sum: Map<string, number> } | undefined;
}

/** One pass of `id`: a stage's hash, reading only, or b3sum; records what the page says it used. */
async function timeOne(id: string, turns: Turns): Promise<FileSample> {
  if (id === B3SUM_ID || id === B3SUM_THREADS_ID) {
    const started = performance.now();
    const hex = await turns.b3sumHex(id === B3SUM_ID ? ['--num-threads', '1'] : []);
    return { contestant: id, ms: performance.now() - started, hex };
  }
  const alone = /^(hash|read-only)\.(\w+)$/.exec(id);
  const tuning = alone ? { reading: { readers: [alone[2] as ReaderKind] } } : undefined;
  const timing = id === READ_ONLY_ID || alone?.[1] === 'read-only' ? await turns.tab.read(turns.readBy, tuning) : await turns.tab.hash(alone ? turns.readBy : stageIndex(id), tuning);
  const { browserRun } = turns;
  browserRun.pieceBytes[id] = timing.pieceBytes;
  browserRun.readers[id] = [...new Set([...(browserRun.readers[id] ?? []), ...timing.readers])] as ReaderKind[];
  if (id === READ_ONLY_ID) browserRun.workers = timing.workers;
  return { contestant: id, ms: timing.ms, hex: timing.hex };
}

/** The rounds in one browser: a pass of each not counted, then `rounds` rounds in turns, the order rotated. */
async function takeTurns(turns: Turns, rounds: number, log: (line: string) => void, signal?: AbortSignal): Promise<void> {
  log(`warming up in ${turns.tab.identity.name}: each of ${turns.ids.join(', ')} once, not counted`);
  // A pass that fails (a reader this browser does not offer) fails its contestant here; the others go on.
  const failures: Record<string, string> = {};
  for (const id of turns.ids) {
    try {
      await timeOne(id, turns);
    } catch (error) {
      failures[id] = error instanceof Error ? error.message : String(error);
      log(`${id} cannot run in ${turns.tab.identity.name}: ${failures[id]}`);
    }
  }
  if (Object.keys(failures).length > 0) turns.browserRun.failures = failures;
  const ids = turns.ids.filter((id) => !(id in failures));
  for (let round = 1; round <= rounds && !signal?.aborted; round++) {
    const shift = (round - 1) % ids.length;
    const order = [...ids.slice(shift), ...ids.slice(0, shift)];
    const times: string[] = [];
    for (const id of order) {
      if (signal?.aborted) break;
      const threadsBefore = turns.cpu && threadCpu();
      const childrenBefore = endedChildrenCpu();
      const sample = await timeOne(id, turns);
      const threadsAfter = turns.cpu && threadCpu();
      const childrenAfter = endedChildrenCpu();
      const native = id === B3SUM_ID || id === B3SUM_THREADS_ID;
      if (native) {
        if (childrenBefore !== undefined && childrenAfter !== undefined) turns.cpu?.b3sum.set(id, (turns.cpu.b3sum.get(id) ?? 0) + childrenAfter - childrenBefore);
        turns.nativeSamples.push(sample);
      } else {
        if (turns.cpu && threadsBefore && threadsAfter) addCpu(turns.cpu.stage.get(id) ?? turns.cpu.stage.set(id, new Map()).get(id)!, cpuSince(threadsBefore, threadsAfter));
        turns.browserRun.samples.push(sample);
      }
      times.push(`${id} ${Math.round(sample.ms)} ms`);
    }
    log(`${turns.tab.identity.name} round ${round}/${rounds}: ${times.join(', ')}`);
  }
}

export async function runFileBench(options: FileBenchOptions): Promise<FileBenchRun> {
  const { rounds, log, signal } = options;
  const browsers = options.browsers && options.browsers.length > 0 ? options.browsers : (['chromium'] as const);
  const missing = browsers.map(missingBrowser).filter((m): m is string => m !== undefined);
  if (missing.length > 0) throw new Error(missing.join('\n'));
  const { path, size } = fileToHash(options.path, log);
  const native = options.native ? await nativeB3sum(log) : null;
  const threads = availableParallelism();
  const b3sumHex = async (args: string[]) => (await b3sum(native!.program, [...args, path], ROOT)).replace(/^\\/, '').slice(0, 64);
  const expectedHex = native ? await b3sumHex([]) : await oracleHex(path);

  const server = await serveBenchPage();
  const browserRuns: FileBrowserRun[] = [];
  const nativeSamples: FileSample[] = [];
  const cpu: CpuRow[] = [];
  try {
    for (const id of browsers) {
      if (signal?.aborted) break;
      log(`now in headless ${BROWSERS[id].name} (${BROWSERS[id].jsEngine})`);
      const tab = await openFileTab(id, server.url, path, log);
      try {
        const inBrowser = await benchInBrowser(tab, { options, size, native: native !== null, b3sumHex, nativeSamples, measureCpu: id === 'chromium' });
        browserRuns.push(inBrowser.browserRun);
        cpu.push(...inBrowser.cpu);
      } finally {
        await tab.close();
      }
    }
    const counts = [...browserRuns.flatMap((b) => [...new Set(b.samples.map((s) => s.contestant))].map((id) => b.samples.filter((s) => s.contestant === id).length))];
    const run: FileRun = {
      path,
      size,
      rounds: Math.max(1, Math.min(rounds, ...counts)),
      expectedHex,
      browsers: browserRuns,
      ...(native && { b3sum: { version: native.program.version, threads, rustc: native.rustc } }),
      nativeSamples,
    };
    return { results: fileResults(run), cpu };
  } finally {
    await server.close();
  }
}

/** The file's absolute path and size; throws when it is not a file, and says when it cannot stay in the page cache. */
function fileToHash(given: string, log: (line: string) => void): { path: string; size: number } {
  const path = resolve(given);
  const stat = statSync(path);
  if (!stat.isFile()) throw new Error(`${path} is not a file`);
  if (stat.size > freemem()) log(`${path} is larger than the free memory (${Math.round(freemem() / 2 ** 20)} MiB): it cannot stay in the page cache, so every round reads the disk`);
  return { path, size: stat.size };
}

interface BrowserBench {
  options: FileBenchOptions;
  /** The file's size in bytes. */
  size: number;
  native: boolean;
  b3sumHex: Turns['b3sumHex'];
  /** b3sum's samples, shared by every browser's turns. */
  nativeSamples: FileSample[];
  /** Threads are told apart by Chromium's process types: the CPU table is Chromium's. */
  measureCpu: boolean;
}

/** The rounds in one browser's tab: what it runs (by what it offers), its samples, and where each contestant's CPU went. */
async function benchInBrowser(tab: FileTab, { options, size, native, b3sumHex, nativeSamples, measureCpu }: BrowserBench): Promise<{ browserRun: FileBrowserRun; cpu: CpuRow[] }> {
  const { log } = options;
  const env = await tab.environment(options.label);
  env.runtimeVersion = `${tab.identity.name} ${tab.identity.version}`;
  // Without WebAssembly SIMD the page hashes with stage 8 on one worker: so does the bench.
  const simd = await tab.wasmSimd();
  if (!simd) log(`${tab.identity.name} has no WebAssembly SIMD: stages 10 and 11 cannot run, so stage 8 on one worker stands in, as on the file page`);
  const stageIds = simd ? [...FILE_STAGE_IDS] : [FILE_FALLBACK_STAGE_ID];
  const alone = (options.readers ?? []).flatMap((reader) => [hashWithId(reader), readWithId(reader)]);
  const ids = [...stageIds, READ_ONLY_ID, ...alone, ...(native ? [B3SUM_ID, B3SUM_THREADS_ID] : [])];
  const browserRun: FileBrowserRun = {
    env,
    runtime: runtimeFromEnv(env, tab.identity),
    versions: await versionsOf([...stageIds, READ_ONLY_ID]),
    workers: 1,
    pieceBytes: {},
    readers: {},
    samples: [],
  };
  const cpuHere = measureCpu ? { stage: new Map<string, ThreadCpu>(), b3sum: new Map<string, number>() } : undefined;
  await takeTurns({ tab, readBy: stageIndex(stageIds[stageIds.length - 1]), ids, native, b3sumHex, browserRun, nativeSamples, cpu: cpuHere }, options.rounds, log, options.signal);
  if (!cpuHere) return { browserRun, cpu: [] };
  const passes = (contestant: string) => [...browserRun.samples, ...nativeSamples].filter((s) => s.contestant === contestant).length * size;
  const cpu = [
    ...[...cpuHere.stage].map(([contestant, threads]) => ({ contestant, cpu: groupCpu(threads), bytes: passes(contestant) })),
    ...[...cpuHere.b3sum].map(([contestant, seconds]) => ({ contestant, cpu: seconds, bytes: passes(contestant) })),
  ];
  return { browserRun, cpu };
}
