// `npm run bench -- --file PATH [--browser LIST] [--native]`: its command line, the results
// document its timings become (checked by the same validator as any imported file), each
// browser's runs under its runtime with b3sum's beside them, the table with "x b3sum" and
// "x read-only", and a wrong digest failing its contestant.
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/node/cli-args.ts';
import {
  B3SUM_ID, B3SUM_THREADS_ID, FILE_DEFAULT_ROUNDS, FILE_FALLBACK_STAGE_ID, FILE_STAGE_IDS, READ_ONLY_ID, fileResults, formatCpuTable, formatFileSummary, groupCpu,
  type FileBrowserRun, type FileRun,
} from '../src/core/file/bench-results.ts';
import { cpuSince, threadCpu } from '../src/node/process-cpu.ts';
import { NATIVE_RUNTIME_ID } from '../src/core/bench/results.ts';
import { compareStages } from '../src/core/results/analysis/stage-report.ts';
import { formatStageReport } from '../src/core/results/text/report-text.ts';
import { parseResultsJson } from '../src/core/results/io/validate.ts';
import { chromiumEnvironment } from './fixtures/environment.ts';
import { runtimeFromEnv, splitByRuntime } from '../src/core/bench/runtimes.ts';

const GiB = 2 ** 30;
const HEX = 'ab'.repeat(32);

const NATIVE = [B3SUM_ID, B3SUM_THREADS_ID];

function browserRun(samples: [string, number, string?][], runtime = { id: 'chromium', name: 'Chromium', version: '156.0.8078.79', jsEngine: 'V8' }): FileBrowserRun {
  const env = chromiumEnvironment();
  const mine = samples.filter(([id]) => !NATIVE.includes(id));
  const ids = [...new Set(mine.map(([id]) => id))];
  return {
    env,
    runtime: runtimeFromEnv(env, runtime),
    versions: Object.fromEntries(ids.map((id) => [id, 'blake3:000000000001'])),
    workers: 2,
    pieceBytes: Object.fromEntries(ids.map((id) => [id, 16 << 20])),
    readers: Object.fromEntries(ids.map((id) => [id, ['byob' as const]])),
    samples: mine.map(([contestant, ms, hex]) => ({ contestant, ms, hex: hex ?? (contestant === READ_ONLY_ID ? '' : HEX) })),
  };
}

function fileRun(samples: [string, number, string?][], native = true, more: FileBrowserRun[] = []): FileRun {
  return {
    path: '/tmp/one.bin',
    size: GiB,
    rounds: 3,
    expectedHex: HEX,
    browsers: [browserRun(samples), ...more],
    ...(native && { b3sum: { version: '1.8.7', threads: 2, rustc: 'rustc 1.95.0 (59807616e 2026-04-14)' } }),
    nativeSamples: samples.filter(([id]) => NATIVE.includes(id)).map(([contestant, ms, hex]) => ({ contestant, ms, hex: hex ?? HEX })),
  };
}

const rounds = (ms: Record<string, number>): [string, number, string?][] =>
  [0.98, 1, 1.03].flatMap((f) => Object.entries(ms).map(([id, m]) => [id, m * f] as [string, number]));

describe('bench --file: the command line', () => {
  it('takes a file, rounds, --native, --json; rounds default to a few whole-file passes', () => {
    const options = parseCliArgs(['--file', '/tmp/one.bin', '--native', '--json', 'out.json']);
    expect(options).toMatchObject({ file: '/tmp/one.bin', native: true, json: 'out.json', browsers: ['chromium'] });
    expect(options.plan.rounds).toBe(FILE_DEFAULT_ROUNDS);
    expect(parseCliArgs(['--file=/tmp/a', '--rounds', '9']).plan.rounds).toBe(9);
  });

  it('compares readers only with --file, and only those there are', () => {
    expect(parseCliArgs(['--file', '/tmp/a', '--readers', 'byob,slice,byob']).readers).toEqual(['byob', 'slice']);
    expect(() => parseCliArgs(['--file', '/tmp/a', '--readers', 'mmap'])).toThrow(/unknown reader "mmap"/);
    expect(() => parseCliArgs(['--readers', 'byob'])).toThrow(/--readers applies with --file only/);
  });

  it('runs in Chromium, or in each browser given', () => {
    expect(parseCliArgs(['--file', '/tmp/a', '--browser']).browsers).toEqual(['chromium']);
    expect(parseCliArgs(['--file', '/tmp/a', '--browser', 'chromium,firefox,webkit']).browsers).toEqual(['chromium', 'firefox', 'webkit']);
  });

  it('refuses what does not apply to a file, saying why', () => {
    expect(() => parseCliArgs(['--file', '/tmp/a', '--stages', '4'])).toThrow(/--stages does not apply with --file/);
    expect(() => parseCliArgs(['--file', '/tmp/a', '--sizes', '1MiB'])).toThrow(/--sizes does not apply/);
    expect(() => parseCliArgs(['--file', '/tmp/a', '--rounds', '0'])).toThrow(/at least 1/);
    expect(() => parseCliArgs(['--file'])).toThrow(/--file needs a value/);
  });
});

describe('bench --file: the results', () => {
  it('are a valid document: one size, one hash a sample, the stages in Chromium and b3sum native', () => {
    const results = fileResults(fileRun(rounds({ [FILE_STAGE_IDS[0]]: 1000, [FILE_STAGE_IDS[1]]: 600, [READ_ONLY_ID]: 500, [B3SUM_ID]: 500, [B3SUM_THREADS_ID]: 300 })));
    const parsed = parseResultsJson(JSON.stringify(results));
    expect(parsed.ok, parsed.ok ? '' : parsed.error).toBe(true);
    expect(results.config.sizes).toEqual([GiB]);
    expect(results.runtimes!.map((r) => r.id)).toEqual(['chromium', NATIVE_RUNTIME_ID]);
    expect(results.runs.map((r) => [r.contestant, r.runtime, r.status, r.iterations, r.nsPerOp.length])).toEqual([
      [FILE_STAGE_IDS[0], 'chromium', 'ok', 1, 3],
      [FILE_STAGE_IDS[1], 'chromium', 'ok', 1, 3],
      [READ_ONLY_ID, 'chromium', 'ok', 1, 3],
      [B3SUM_ID, NATIVE_RUNTIME_ID, 'ok', 1, 3],
      [B3SUM_THREADS_ID, NATIVE_RUNTIME_ID, 'ok', 1, 3],
    ]);
    expect(results.contestants.find((c) => c.id === FILE_STAGE_IDS[1])).toMatchObject({ threads: 2, kind: 'stage' });
    expect(results.contestants.find((c) => c.id === READ_ONLY_ID)).toMatchObject({ threads: 2, kind: 'baseline', note: expect.stringMatching(/hashing nothing.*\(byob\)|\(byob\).*hashing nothing/) });
  });

  it('keep each browser\'s runs under its runtime, b3sum\'s beside every one; stage 8 stands in where there is no SIMD', () => {
    const webkit = browserRun(rounds({ [FILE_FALLBACK_STAGE_ID]: 4000, [READ_ONLY_ID]: 2500 }), { id: 'webkit', name: 'WPE WebKit', version: '2.38', jsEngine: 'JavaScriptCore' });
    const results = fileResults(fileRun(rounds({ [FILE_STAGE_IDS[0]]: 1000, [FILE_STAGE_IDS[1]]: 600, [READ_ONLY_ID]: 500, [B3SUM_ID]: 500, [B3SUM_THREADS_ID]: 300 }), true, [webkit]));
    const parsed = parseResultsJson(JSON.stringify(results));
    expect(parsed.ok, parsed.ok ? '' : parsed.error).toBe(true);
    expect(results.runtimes!.map((r) => r.id)).toEqual(['chromium', 'webkit', NATIVE_RUNTIME_ID]);
    const parts = splitByRuntime(results);
    expect(parts.map((p) => p.runs.map((r) => `${r.runtime}:${r.contestant}`))).toEqual([
      ['chromium:10-simd-one-block', 'chromium:11-every-core', 'chromium:read-only', 'native:b3sum', 'native:b3sum-threads'],
      ['webkit:08-little-endian', 'webkit:read-only', 'native:b3sum', 'native:b3sum-threads'],
    ]);
    expect(formatFileSummary(parts[1])).toMatch(/08-little-endian\s+268 MB\/s\s+\(0\.63x read-only, 0\.13x b3sum, 0\.07x b3sum-threads\)/);
  });

  it('print a table that says "x b3sum" and "x read-only", and a summary with stage 11 over stage 10 and over reading only', () => {
    const results = fileResults(fileRun(rounds({ [FILE_STAGE_IDS[0]]: 1000, [FILE_STAGE_IDS[1]]: 600, [READ_ONLY_ID]: 480, [B3SUM_ID]: 500, [B3SUM_THREADS_ID]: 300 })));
    const table = formatStageReport(compareStages(results, { baseline: B3SUM_THREADS_ID, native: B3SUM_ID, ceiling: READ_ONLY_ID }));
    expect(table).toMatch(/x b3sum │ x read-only/);
    expect(table).toMatch(/11-every-core .*0\.83x │\s+0\.80x/);
    expect(table).toMatch(/read-only .*1\.04x │\s+1\.00x/);
    const summary = formatFileSummary(results);
    expect(summary).toMatch(/stage 11 \/ stage 10: 1\.67x/);
    expect(summary).toMatch(/stage 11 \/ read-only: 0\.80x/);
    expect(summary).toMatch(/10-simd-one-block\s+1074 MB\/s\s+\(0\.48x read-only, 0\.50x b3sum, 0\.30x b3sum-threads\)/);
  });

  it('fail a contestant that gave a wrong digest even once, keeping none of its samples', () => {
    const samples = rounds({ [FILE_STAGE_IDS[0]]: 1000, [FILE_STAGE_IDS[1]]: 600 });
    samples.push([FILE_STAGE_IDS[1], 590, 'cd'.repeat(32)]);
    const results = fileResults(fileRun(samples, false));
    const eleven = results.runs.find((r) => r.contestant === FILE_STAGE_IDS[1])!;
    expect(eleven).toMatchObject({ status: 'failed', nsPerOp: [] });
    expect(eleven.reason).toMatch(/wrong digest for the file: got cdcdcdcdcdcdcdcd…, expected abababababababab…/);
    expect(results.contestants.map((c) => c.id)).toEqual([...FILE_STAGE_IDS]);
    // Reading only gives no digest to check.
    const read = fileResults(fileRun(rounds({ [FILE_STAGE_IDS[1]]: 600, [READ_ONLY_ID]: 500, 'read-only.slice': 700, 'hash.slice': 900 }), false));
    expect(read.runs.map((r) => [r.contestant, r.status])).toEqual([
      [FILE_STAGE_IDS[1], 'ok'], [READ_ONLY_ID, 'ok'], ['read-only.slice', 'ok'], ['hash.slice', 'ok'],
    ]);
  });
});

describe('bench --file: where the CPU went', () => {
  it('groups threads into the file workers, the rest of the renderer, the browser and anything else', () => {
    const cpu = new Map([['renderer:DedicatedWorker', 1.5], ['renderer:Chrome_ChildIOT', 0.25], ['browser:Chrome_IOThread', 0.75], ['browser:ThreadPoolForeg', 0.5], ['gpu-process:VizCompositor', 0.1]]);
    expect(groupCpu(cpu)).toEqual({ workers: 1.5, renderer: 0.25, browser: 1.25, other: 0.1 });
  });

  it('prints seconds per GiB hashed: shares for a stage, one total for b3sum', () => {
    const table = formatCpuTable([
      { contestant: FILE_STAGE_IDS[0], cpu: { workers: 3, renderer: 0.5, browser: 2.5, other: 0 }, bytes: 2 * GiB },
      { contestant: B3SUM_ID, cpu: 1, bytes: 2 * GiB },
    ]);
    expect(table).toMatch(/10-simd-one-block\s+1\.50\s+0\.25\s+1\.25\s+0\.00\s+3\.00/);
    expect(table).toMatch(/b3sum\s+0\.50\n/);
    expect(formatCpuTable([])).toBe('');
  });

  it('reads this machine\'s threads where there is /proc, and counts only what went up', () => {
    const before = new Map([['browser:a', 1], ['browser:b', 2]]);
    expect(cpuSince(before, new Map([['browser:a', 1.5], ['browser:b', 2], ['renderer:c', 0.25]]))).toEqual(new Map([['browser:a', 0.5], ['renderer:c', 0.25]]));
    const mine = threadCpu();
    if (mine !== undefined) expect(mine).toBeInstanceOf(Map);
  });
});
