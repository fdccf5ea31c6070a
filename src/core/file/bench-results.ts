// `npm run bench -- --file PATH`: one file hashed again and again in headless browsers,
// each in turn: stage 10 (one worker reading its slices), stage 11 (a worker per core,
// each reading its own) and the same workers reading the file and hashing nothing (the
// ceiling, "read-only"), and with --native the real b3sum on one thread and on every
// thread, in turns. Where a browser has no WebAssembly SIMD, stage 8 on one worker stands
// in for both stages, as on the file page. This turns the timings into an ordinary
// results document: one size (the file's), one hash a sample, every digest checked against
// the expected one before a sample counts, each browser's runs under its own runtime.

import type { ReaderKind } from './readers.ts';
import { MAX_CONFIG_MS, NATIVE_RUNTIME_ID, RESULTS_FORMAT, RESULTS_VERSION, type ContestantInfo, type RuntimeInfo, type Environment, type Results, type RunResult } from '../bench/results.ts';

export const FILE_STAGE_IDS = ['10-simd-one-block', '11-every-core'] as const;
/** The stage the file page hashes with where there is no WebAssembly SIMD. */
export const FILE_FALLBACK_STAGE_ID = '08-little-endian';
export const READ_ONLY_ID = 'read-only';
/** With --readers: the page's every-core stage hashing, and its workers reading only, with one reader alone. */
export const hashWithId = (reader: ReaderKind) => `hash.${reader}`;
export const readWithId = (reader: ReaderKind) => `read-only.${reader}`;
export const B3SUM_ID = 'b3sum';
export const B3SUM_THREADS_ID = 'b3sum-threads';

/** Rounds when --rounds is not given: each is a whole file per contestant, seconds for 1 GiB. */
export const FILE_DEFAULT_ROUNDS = 5;

/** One timed pass over the file: its digest, or '' for reading only. */
export interface FileSample {
  contestant: string;
  ms: number;
  hex: string;
}

/** What one browser measured. */
export interface FileBrowserRun {
  env: Environment;
  runtime: RuntimeInfo;
  /** Content versions of the stages it ran, by id. */
  versions: Record<string, string>;
  /** Workers of the read-only passes: those of stage 11 (one per core the browser reports), or of stage 8 without SIMD. */
  workers: number;
  /** The piece size each contestant's parts had. */
  pieceBytes: Record<string, number>;
  /** The readers each contestant's passes read with. */
  readers: Record<string, ReaderKind[]>;
  samples: FileSample[];
  /** Contestants whose pass failed in this browser, with why (a reader it does not offer). */
  failures?: Record<string, string>;
}

export interface FileRun {
  path: string;
  size: number;
  rounds: number;
  /** The digest every hash must give: b3sum's, or the oracle's without it. */
  expectedHex: string;
  browsers: FileBrowserRun[];
  b3sum?: { version: string; threads: number; rustc: string };
  /** b3sum's samples, taken in turns with every browser's. */
  nativeSamples: FileSample[];
}

function describeReaders(readers: readonly ReaderKind[] | undefined): string {
  return readers && readers.length > 0 ? readers.join(' then ') : 'its readers';
}

function browserContestants(run: FileBrowserRun): ContestantInfo[] {
  const ids = new Set([...run.samples.map((s) => s.contestant), ...Object.keys(run.failures ?? {})]);
  const list: ContestantInfo[] = [];
  const piece = (id: string) => run.pieceBytes[id];
  if (ids.has(FILE_FALLBACK_STAGE_ID)) {
    list.push({
      id: FILE_FALLBACK_STAGE_ID,
      title: 'Stage 8 on a file: one worker reads and hashes every piece (no WebAssembly SIMD here)',
      kind: 'stage',
      version: run.versions[FILE_FALLBACK_STAGE_ID],
      note: `without WebAssembly SIMD the file page hashes with stage 8 on one worker: pieces of ${piece(FILE_FALLBACK_STAGE_ID)} bytes read with ${describeReaders(run.readers[FILE_FALLBACK_STAGE_ID])}`,
    });
  }
  if (ids.has(FILE_STAGE_IDS[0])) {
    list.push({
      id: FILE_STAGE_IDS[0],
      title: 'Stage 10 on a file: one worker reads and hashes every piece',
      kind: 'stage',
      version: run.versions[FILE_STAGE_IDS[0]],
      note: `one worker reads the file in pieces of ${piece(FILE_STAGE_IDS[0])} bytes (${describeReaders(run.readers[FILE_STAGE_IDS[0]])}) and hashes each with stage 10's chainingValue(), 1 MiB at a time`,
    });
  }
  if (ids.has(FILE_STAGE_IDS[1])) {
    list.push({
      id: FILE_STAGE_IDS[1],
      title: `Stage 11 on a file: ${run.workers} workers read and hash their own pieces`,
      kind: 'stage',
      version: run.versions[FILE_STAGE_IDS[1]],
      ...(run.workers > 1 && { threads: run.workers }),
      note: `${run.workers} workers each read their own pieces of ${piece(FILE_STAGE_IDS[1])} bytes (${describeReaders(run.readers[FILE_STAGE_IDS[1]])}) and hash them with stage 10's code; the page merges the chaining values`,
    });
  }
  if (ids.has(READ_ONLY_ID)) {
    const by = ids.has(FILE_STAGE_IDS[1]) ? 'stage 11' : 'stage 8';
    list.push({
      id: READ_ONLY_ID,
      title: `Reading only: ${by}'s ${run.workers === 1 ? 'worker reads' : `${run.workers} workers read`} the file and hash nothing`,
      kind: 'baseline',
      version: run.versions[READ_ONLY_ID],
      ...(run.workers > 1 && { threads: run.workers }),
      note: `${by}'s very ${run.workers === 1 ? 'worker' : `${run.workers} workers`}, pieces (${piece(READ_ONLY_ID)} bytes) and reader (${describeReaders(run.readers[READ_ONLY_ID])}), reading the file and hashing nothing: the most that stage can do in this browser`,
    });
  }
  for (const id of ids) {
    const reader = /^(hash|read-only)\.(\w+)$/.exec(id);
    if (!reader) continue;
    const hashes = reader[1] === 'hash';
    list.push({
      id,
      title: `${hashes ? 'Hashing' : 'Reading only'} with ${reader[2]} alone`,
      kind: 'peer',
      version: run.versions[hashes ? FILE_STAGE_IDS[1] : READ_ONLY_ID] ?? run.versions[FILE_FALLBACK_STAGE_ID] ?? run.versions[READ_ONLY_ID],
      ...(run.workers > 1 && { threads: run.workers }),
      note: `as ${hashes ? 'the page\'s fastest stage here' : READ_ONLY_ID}, every piece read by ${reader[2]} and no other reader`,
    });
  }
  return list;
}

function nativeContestants(run: FileRun): ContestantInfo[] {
  if (!run.b3sum) return [];
  const { version, threads } = run.b3sum;
  return [
    { id: B3SUM_ID, title: `b3sum ${version}, one thread`, kind: 'native', version: `b3sum@${version}`, note: `b3sum --num-threads 1 on the file, a process timed from start to exit` },
    { id: B3SUM_THREADS_ID, title: `b3sum ${version}, every thread`, kind: 'native', version: `b3sum@${version}`, ...(threads > 1 && { threads }), note: `b3sum on the file with its default ${threads} threads, a process timed from start to exit` },
  ];
}

/** A contestant's run from its samples: failed, with no samples, if it ever gave a wrong digest. */
function runOf(id: string, runtime: string, samples: readonly FileSample[], run: FileRun): RunResult {
  const mine = samples.filter((s) => s.contestant === id);
  // Reading only gives no digest to check.
  const wrong = id === READ_ONLY_ID || id.startsWith(`${READ_ONLY_ID}.`) ? undefined : mine.find((s) => s.hex !== run.expectedHex);
  if (wrong) {
    return { contestant: id, runtime, size: run.size, status: 'failed', reason: `wrong digest for the file: got ${wrong.hex.slice(0, 16)}…, expected ${run.expectedHex.slice(0, 16)}…`, iterations: 1, nsPerOp: [] };
  }
  if (mine.length === 0) return { contestant: id, runtime, size: run.size, status: 'cancelled', reason: 'the run stopped before its first timed pass', iterations: 1, nsPerOp: [] };
  return { contestant: id, runtime, size: run.size, status: 'ok', iterations: 1, nsPerOp: mine.map((s) => s.ms * 1e6) };
}

/** The results document of a --file run: each browser's runs under its runtime, b3sum's under native. */
export function fileResults(run: FileRun): Results {
  if (run.browsers.length === 0) throw new RangeError('a --file run measures in one browser at least');
  const contestants = new Map<string, ContestantInfo>();
  const runs: RunResult[] = [];
  for (const browser of run.browsers) {
    for (const contestant of browserContestants(browser)) {
      // One description per id: the first browser's (the notes say what each browser read with).
      if (!contestants.has(contestant.id)) contestants.set(contestant.id, contestant);
      const failure = browser.failures?.[contestant.id];
      runs.push(
        failure === undefined
          ? runOf(contestant.id, browser.runtime.id, browser.samples, run)
          : { contestant: contestant.id, runtime: browser.runtime.id, size: run.size, status: 'failed', reason: failure, iterations: 1, nsPerOp: [] },
      );
    }
  }
  for (const contestant of nativeContestants(run)) {
    contestants.set(contestant.id, contestant);
    runs.push(runOf(contestant.id, NATIVE_RUNTIME_ID, run.nativeSamples, run));
  }
  const runtimes: RuntimeInfo[] = run.browsers.map((b) => b.runtime);
  if (run.b3sum) {
    runtimes.push({
      id: NATIVE_RUNTIME_ID,
      name: 'Rust',
      version: run.b3sum.rustc.replace(/^rustc\s+/, '').split(' ')[0] || 'unknown',
      jsEngine: 'native code',
      userAgent: `b3sum ${run.b3sum.version}; ${run.b3sum.rustc}`.slice(0, 200),
      timerResolutionNs: 1,
      crossOriginIsolated: false,
      wasmSimd: false,
      webCrypto: false,
    });
  }
  return {
    format: RESULTS_FORMAT,
    version: RESULTS_VERSION,
    env: run.browsers[0].env,
    runtimes,
    // One sample is one pass over the whole file, however long it takes; nothing is
    // time-boxed (the hour is the most a document can say).
    config: { sizes: [run.size], rounds: run.rounds, sampleTargetMs: 1, timeBoxMs: MAX_CONFIG_MS },
    contestants: [...contestants.values()],
    runs,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The medians in MB/s, each over reading only and over b3sum, stage 11 over stage 10: a
 * few lines under the table. For one runtime's part of the document (splitByRuntime).
 */
export function formatFileSummary(results: Results): string {
  const size = results.config.sizes[0];
  const medianNs = new Map(results.runs.filter((r) => r.nsPerOp.length > 0).map((r) => [r.contestant, median(r.nsPerOp)]));
  const rate = (id: string) => (medianNs.has(id) ? (size * 1e3) / medianNs.get(id)! : undefined);
  const samples = Math.min(...results.runs.filter((r) => r.nsPerOp.length > 0).map((r) => r.nsPerOp.length));
  const lines = [`Medians of ${samples} rounds or more on one ${size}-byte file:`];
  const order = [...results.contestants.filter((c) => c.kind === 'stage').sort((a, b) => (a.id < b.id ? -1 : 1)), ...results.contestants.filter((c) => c.kind !== 'stage')];
  for (const c of order) {
    const mbs = rate(c.id);
    if (mbs === undefined) continue;
    const vs = [READ_ONLY_ID, B3SUM_ID, B3SUM_THREADS_ID].filter((id) => id !== c.id && rate(id)).map((id) => `${(mbs / rate(id)!).toFixed(2)}x ${id}`);
    lines.push(`  ${c.id.padEnd(18)} ${mbs.toFixed(0).padStart(6)} MB/s${vs.length ? `  (${vs.join(', ')})` : ''}`);
  }
  const [ten, eleven] = FILE_STAGE_IDS.map(rate);
  if (ten && eleven) lines.push(`  stage 11 / stage 10: ${(eleven / ten).toFixed(2)}x`);
  const readOnly = rate(READ_ONLY_ID);
  if (eleven && readOnly) lines.push(`  stage 11 / read-only: ${(eleven / readOnly).toFixed(2)}x`);
  return `${lines.join('\n')}\n`;
}

/** Where a contestant's CPU time went, in seconds: the file workers, the rest of the page's renderer, the browser process, anything else. */
export interface CpuShare {
  workers: number;
  renderer: number;
  browser: number;
  other: number;
}

/** Groups CPU seconds by "<process kind>:<thread name>" (src/node/process-cpu.ts) into the four shares. */
export function groupCpu(cpu: ReadonlyMap<string, number>): CpuShare {
  const share: CpuShare = { workers: 0, renderer: 0, browser: 0, other: 0 };
  for (const [key, seconds] of cpu) {
    if (key === 'renderer:DedicatedWorker') share.workers += seconds;
    else if (key.startsWith('renderer:')) share.renderer += seconds;
    else if (key.startsWith('browser:')) share.browser += seconds;
    else share.other += seconds;
  }
  return share;
}

/** One contestant's CPU over all its timed hashes: the shares for the stages, one total for b3sum (a process of its own). */
export interface CpuRow {
  contestant: string;
  cpu: CpuShare | number;
  /** Bytes hashed in the timed samples. */
  bytes: number;
}

/** The CPU table under the --file results: seconds per GiB hashed, by where they were spent. */
export function formatCpuTable(rows: readonly CpuRow[]): string {
  if (rows.length === 0) return '';
  const GiB = 2 ** 30;
  const f = (seconds: number, bytes: number) => ((seconds * GiB) / bytes).toFixed(2).padStart(9);
  const lines = [
    'CPU seconds per GiB, in Chromium, by where they went (Linux /proc: our processes only, whatever else the machine ran):',
    `  ${''.padEnd(18)} ${'workers'.padStart(9)} ${'renderer'.padStart(9)} ${'browser'.padStart(9)} ${'other'.padStart(9)} ${'total'.padStart(9)}`,
  ];
  for (const { contestant, cpu, bytes } of rows) {
    if (typeof cpu === 'number') {
      lines.push(`  ${contestant.padEnd(18)} ${''.padStart(9)} ${''.padStart(9)} ${''.padStart(9)} ${''.padStart(9)} ${f(cpu, bytes)}`);
      continue;
    }
    const total = cpu.workers + cpu.renderer + cpu.browser + cpu.other;
    lines.push(`  ${contestant.padEnd(18)} ${f(cpu.workers, bytes)} ${f(cpu.renderer, bytes)} ${f(cpu.browser, bytes)} ${f(cpu.other, bytes)} ${f(total, bytes)}`);
  }
  lines.push('  workers: the file workers\' threads (copying the slices they read, and hashing); renderer: the page\'s other threads;');
  lines.push('  browser: the browser process, which reads the file from the page cache and passes it to the page.');
  return `${lines.join('\n')}\n`;
}
