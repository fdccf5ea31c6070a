// `npm run bench -- --file PATH`: one file hashed again and again, stage 10 (one worker
// reading its slices) and stage 11 (a worker per core, each reading its own) in headless
// Chromium, and with --native the real b3sum on one thread and on every thread, in turns.
// This turns the timings into an ordinary results document: one size (the file's), one
// hash per sample, every digest checked against the expected one before a sample counts.

import { MAX_CONFIG_MS, NATIVE_ENGINE_ID, RESULTS_FORMAT, RESULTS_VERSION, type ContestantInfo, type EngineInfo, type Environment, type Results, type RunResult } from './results.ts';

export const FILE_STAGE_IDS = ['10-simd-one-block', '11-every-core'] as const;
export const B3SUM_ID = 'b3sum';
export const B3SUM_THREADS_ID = 'b3sum-threads';

/** Rounds when --rounds is not given: each is a whole file per contestant, seconds for 1 GiB. */
export const FILE_DEFAULT_ROUNDS = 5;

/** One timed hash of the file. */
export interface FileSample {
  contestant: string;
  ms: number;
  hex: string;
}

export interface FileRun {
  path: string;
  size: number;
  rounds: number;
  /** The browser's environment and engine, from the page. */
  env: Environment;
  engine: EngineInfo;
  /** Content versions of stages 10 and 11, by id. */
  versions: Record<string, string>;
  /** Workers stage 11 used, and the piece size each stage's parts had. */
  workers: number;
  pieceBytes: Record<string, number>;
  /** The digest every sample must give: b3sum's, or the oracle's without it. */
  expectedHex: string;
  b3sum?: { version: string; threads: number; rustc: string };
  samples: FileSample[];
}

function contestants(run: FileRun): ContestantInfo[] {
  const list: ContestantInfo[] = [
    {
      id: FILE_STAGE_IDS[0],
      title: 'Stage 10 on a file: one worker reads and hashes every piece',
      kind: 'stage',
      version: run.versions[FILE_STAGE_IDS[0]],
      note: `one worker reads the file in pieces of ${run.pieceBytes[FILE_STAGE_IDS[0]]} bytes (Blob.slice().arrayBuffer()) and hashes each with stage 10's chainingValue()`,
    },
    {
      id: FILE_STAGE_IDS[1],
      title: `Stage 11 on a file: ${run.workers} workers read and hash their own pieces`,
      kind: 'stage',
      version: run.versions[FILE_STAGE_IDS[1]],
      ...(run.workers > 1 && { threads: run.workers }),
      note: `${run.workers} workers each read their own pieces of ${run.pieceBytes[FILE_STAGE_IDS[1]]} bytes and hash them with stage 10's code; the page merges the chaining values`,
    },
  ];
  if (run.b3sum) {
    const { version, threads } = run.b3sum;
    list.push(
      { id: B3SUM_ID, title: `b3sum ${version}, one thread`, kind: 'native', version: `b3sum@${version}`, note: `b3sum --num-threads 1 on the file, a process timed from start to exit` },
      { id: B3SUM_THREADS_ID, title: `b3sum ${version}, every thread`, kind: 'native', version: `b3sum@${version}`, ...(threads > 1 && { threads }), note: `b3sum on the file with its default ${threads} threads, a process timed from start to exit` },
    );
  }
  return list;
}

/** The results document of a --file run; a contestant that ever gave a wrong digest is a failed run with no samples. */
export function fileResults(run: FileRun): Results {
  const runs: RunResult[] = contestants(run).map((contestant) => {
    const mine = run.samples.filter((s) => s.contestant === contestant.id);
    const engine = contestant.kind === 'native' ? NATIVE_ENGINE_ID : run.engine.id;
    const wrong = mine.find((s) => s.hex !== run.expectedHex);
    if (wrong) {
      return { contestant: contestant.id, engine, size: run.size, status: 'failed', reason: `wrong digest for the file: got ${wrong.hex.slice(0, 16)}…, expected ${run.expectedHex.slice(0, 16)}…`, iterations: 1, nsPerOp: [] };
    }
    return { contestant: contestant.id, engine, size: run.size, status: 'ok', iterations: 1, nsPerOp: mine.map((s) => s.ms * 1e6) };
  });
  const engines: EngineInfo[] = [run.engine];
  if (run.b3sum) {
    engines.push({
      id: NATIVE_ENGINE_ID,
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
    env: run.env,
    engines,
    // One sample is one hash of the whole file, however long it takes; nothing is time-boxed
    // (the hour is the most a document can say).
    config: { sizes: [run.size], rounds: run.rounds, sampleTargetMs: 1, timeBoxMs: MAX_CONFIG_MS },
    contestants: contestants(run),
    runs,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The medians in MB/s, stage 11 over stage 10, and each over b3sum: a few lines under the table. */
export function formatFileSummary(results: Results): string {
  const size = results.config.sizes[0];
  const medianNs = new Map(results.runs.filter((r) => r.nsPerOp.length > 0).map((r) => [r.contestant, median(r.nsPerOp)]));
  const rate = (id: string) => (medianNs.has(id) ? (size * 1e3) / medianNs.get(id)! : undefined);
  const lines = [`Medians of ${results.config.rounds} rounds on one ${size}-byte file:`];
  for (const c of results.contestants) {
    const mbs = rate(c.id);
    if (mbs === undefined) continue;
    const vs = [B3SUM_ID, B3SUM_THREADS_ID].filter((id) => id !== c.id && rate(id)).map((id) => `${(mbs / rate(id)!).toFixed(2)}x ${id}`);
    lines.push(`  ${c.id.padEnd(18)} ${mbs.toFixed(0).padStart(6)} MB/s${vs.length ? `  (${vs.join(', ')})` : ''}`);
  }
  const [ten, eleven] = FILE_STAGE_IDS.map(rate);
  if (ten && eleven) lines.push(`  stage 11 / stage 10: ${(eleven / ten).toFixed(2)}x`);
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
    'CPU seconds per GiB hashed, by where they went (Linux /proc: our processes only, whatever else the machine ran):',
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
