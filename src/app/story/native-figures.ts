// Native Rust's figures in the stories of stages 10 and 11, and the stages' own beside
// them, computed from one committed `npm run bench -- --native` run (data/native/), never
// typed into the prose: a new run is a new file here, and every figure follows it. Read
// through the same gate as any results file, as the engines page reads data/engines/.
// tests/native-figures.test.ts recomputes each figure from the raw samples.

import measured from '../../../data/native/chromium-native-2026-11-27.json';
import { validateResults } from '../../core/results/io/validate.ts';
import { limitRows, type LimitRow } from '../../core/results/text/native-summary.ts';
import { formatSize } from '../../core/format.ts';
import type { Results } from '../../core/bench/results.ts';

export interface NativeRun {
  results: Results;
  /** The machine, as the run's --label names it. */
  machine: string;
  /** "Chromium 156". */
  browser: string;
  /** The day it ran, YYYY-MM-DD. */
  date: string;
  /** The command that made it (its options, from the document's config). */
  command: string;
  rounds: number;
  /** The widest SIMD native-best and native-threads were built with ("AVX-512"). */
  bestSimd: string;
  /** Native code's threads (rayon's pool). */
  nativeThreads: number;
  rows: LimitRow[];
}

/** What a committed run says, with everything the prose needs to name it. Throws when the document is not a --native run of stages 10 and 11. */
export function nativeRun(data: unknown): NativeRun {
  const check = validateResults(data);
  if (!check.ok) throw new Error(`data/native: ${check.error}`);
  const results = check.results;
  const { env, config } = results;
  if (!env.label) throw new Error('data/native: the run must name its machine (npm run bench -- --label)');
  const contestant = (id: string) => {
    const found = results.contestants.find((c) => c.id === id);
    if (!found) throw new Error(`data/native: the run has no ${id}`);
    return found;
  };
  const best = contestant('native-best');
  const bestSimd = /, ([^,]+), one thread/.exec(best.note ?? '')?.[1];
  if (!bestSimd) throw new Error(`data/native: native-best does not say its SIMD ("${best.note}")`);
  const stages = results.contestants.filter((c) => c.kind === 'stage').map((c) => Number.parseInt(c.id, 10));
  const browser = results.runtimes?.find((runtime) => runtime.id !== 'native');
  const sizes = config.sizes.map((size) => formatSize(size).replace(' ', '')).join(',');
  return {
    results,
    machine: env.label,
    browser: `${browser?.name ?? env.runtimeVersion} ${browser?.version.split('.')[0] ?? ''}`.trim(),
    date: env.date.slice(0, 10),
    command: `npm run bench -- --browser --stages ${stages.join(',')} --sizes ${sizes} --rounds ${config.rounds} --native`,
    rounds: config.rounds,
    bestSimd,
    nativeThreads: contestant('native-threads').threads ?? 0,
    rows: limitRows(results),
  };
}

export const NATIVE_RUN = nativeRun(measured);

/** The run's medians at one size; throws when the run did not measure it. */
export function atSize(size: number, run: NativeRun = NATIVE_RUN): LimitRow {
  const row = run.rows.find((r) => r.size === size);
  if (!row) throw new Error(`data/native: the run has no ${formatSize(size)}`);
  return row;
}

function known(value: number | null): number {
  if (value === null) throw new Error('data/native: a figure the story needs was not measured');
  return value;
}

/** The fastest and slowest of a contestant's samples at a size, ms a hash: "5.4 to 11.9 ms". */
export function sampleRange(contestant: string, size: number, run: NativeRun = NATIVE_RUN): string {
  const samples = run.results.runs.filter((r) => r.contestant === contestant && r.size === size).flatMap((r) => r.nsPerOp);
  if (samples.length === 0) throw new Error(`data/native: no samples of ${contestant} at ${formatSize(size)}`);
  return `${(Math.min(...samples) / 1e6).toFixed(1)} to ${(Math.max(...samples) / 1e6).toFixed(1)} ms`;
}

/** MB/s as GB/s with two significant decimals: "2.31 GB/s". */
export const gbPerSec = (mbps: number | null) => `${(known(mbps) / 1000).toFixed(2)} GB/s`;
/** a over b: "0.87×". */
export const times = (a: number | null, b: number | null) => `${(known(a) / known(b)).toFixed(2)}×`;
/** Nanoseconds a 64-byte block at `size` bytes and `mbps`, the call's own costs included. */
export const nsPerBlock = (size: number, mbps: number | null) => Math.round(((size / known(mbps)) * 1000) / Math.max(1, Math.ceil(size / 64)));
/** Milliseconds a MiB at `mbps`: "0.58". */
export const msPerMiB = (mbps: number | null) => ((1024 * 1024) / known(mbps) / 1000).toFixed(2);

/**
 * What stage 10 timed when it loaded in the run, ns a block for each of its two one-block
 * codes: the figures its note in the document gives (src/core/bench/threads.ts writes it).
 */
export function loadTimedBlocks(run: NativeRun = NATIVE_RUN): LoadTimed {
  return loadTimedIn(run.results, 'data/native');
}

export interface LoadTimed {
  rows: number;
  words: number;
  /** The one the load kept, in the lesson's words: "the rows" or "the 32-bit code". */
  kept: string;
}

/** Stage 10's load-time timings as the note of any run gives them (`where` names the file in errors). */
export function loadTimedIn(results: Results, where: string): LoadTimed {
  const note = results.contestants.find((c) => c.id === '10-simd-one-block')?.note ?? '';
  const timed = /\(compress1x(Rows|Words)\), the faster when it loaded: (\d+) ns a block against (\d+)/.exec(note);
  if (!timed) throw new Error(`${where}: stage 10's note does not give its load-time timings ("${note}")`);
  const [chosen, other] = [Number(timed[2]), Number(timed[3])];
  return timed[1] === 'Rows' ? { rows: chosen, words: other, kept: 'the rows' } : { rows: other, words: chosen, kept: 'the 32-bit code' };
}

const MiB = 1024 * 1024;

/** Nanoseconds one hash of `size` bytes takes at `mbps`. */
const nsPerHash = (size: number, mbps: number | null) => (size / known(mbps)) * 1000;

/**
 * Stage 10 against native SSE4.1 at 96 B and 1 KiB, ns: how much longer a 96 B hash takes
 * (two blocks, so this bounds what a call costs stage 10 beyond what it costs native
 * code), that bound spread over 1 KiB's sixteen blocks, and the whole difference a block
 * at 1 KiB.
 */
export function callShare(run: NativeRun = NATIVE_RUN): { gap96: number; callPerBlock1k: number; gapPerBlock1k: number } {
  const [at96, at1K] = [atSize(96, run), atSize(1024, run)];
  const gap96 = nsPerHash(96, at96.stage10) - nsPerHash(96, at96.sse41);
  return { gap96, callPerBlock1k: gap96 / 16, gapPerBlock1k: nsPerBlock(1024, at1K.stage10) - nsPerBlock(1024, at1K.sse41) };
}

/**
 * Every figure the stories of stages 10 and 11 quote from the run, by the `{name}` their
 * Markdown (content/stages/) writes in its place.
 */
export function storyFigures(run: NativeRun = NATIVE_RUN): Record<string, string | number> {
  const [at96, at1K, at64K, at1M, at4M, at16M] = [96, 1024, 65536, MiB, 4 * MiB, 16 * MiB].map((size) => atSize(size, run));
  const blocks = loadTimedBlocks(run);
  const call = callShare(run);
  return {
    'native-machine': run.machine,
    'native-browser': run.browser,
    'native-date': run.date,
    'native-command': run.command,
    'native-rounds': run.rounds,
    'native-best-simd': run.bestSimd,
    'load-rows-ns': blocks.rows,
    'load-words-ns': blocks.words,
    'load-kept': blocks.kept,
    'stage10-1k': gbPerSec(at1K.stage10),
    'stage10-1k-ns-block': nsPerBlock(1024, at1K.stage10),
    'sse41-1k': gbPerSec(at1K.sse41),
    'sse41-1k-ns-block': nsPerBlock(1024, at1K.sse41),
    'sse41-1m': gbPerSec(at1M.sse41),
    'best-1m': gbPerSec(at1M.best),
    'stage10-vs-sse41-96b': times(at96.stage10, at96.sse41),
    'stage10-vs-sse41-1k': times(at1K.stage10, at1K.sse41),
    'stage10-vs-sse41-64k': times(at64K.stage10, at64K.sse41),
    'stage10-vs-sse41-1m': times(at1M.stage10, at1M.sse41),
    'stage11-4m': gbPerSec(at4M.stage11),
    'stage11-4m-ms': `${(nsPerHash(4 * MiB, at4M.stage11) / 1e6).toFixed(1)} ms`,
    'gap-96b-ns': Math.round(call.gap96),
    'call-share-1k-ns-block': Math.round(call.callPerBlock1k),
    'gap-1k-ns-block': call.gapPerBlock1k,
    'stage11-16m': gbPerSec(at16M.stage11),
    'stage11-vs-stage10-4m': times(at4M.stage11, at4M.stage10),
    'stage11-vs-stage10-16m': times(at16M.stage11, at16M.stage10),
    'stage11-vs-sse41-16m': times(at16M.stage11, at16M.sse41),
    'threads-vs-best-4m': times(at4M.threads, at4M.best),
    'threads-vs-best-16m': times(at16M.threads, at16M.best),
    'sse41-16m': gbPerSec(at16M.sse41),
    'best-16m': gbPerSec(at16M.best),
    'threads-16m': gbPerSec(at16M.threads),
    'stage10-16m-ms-mib': msPerMiB(at16M.stage10),
    'sse41-16m-ms-mib': msPerMiB(at16M.sse41),
    'stage11-16m-range': sampleRange('11-every-core', 16 * MiB, run),
    'stage10-16m-range': sampleRange('10-simd-one-block', 16 * MiB, run),
    'threads-16m-range': sampleRange('native-threads', 16 * MiB, run),
  };
}
