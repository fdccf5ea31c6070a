// Native rows (`npm run bench -- --native`): the program's output checked and turned into
// contestants of the runtime "native", kept beside every runtime's rows, the "x native"
// ratio and the close-to-the-limit table; and, where cargo is installed, the real
// program built and run briefly, its digests checked against the oracle.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runtimesOf, measuringRuntimes, splitByRuntime, mergeRuntimeResults, runtimeFromEnv } from '../src/core/bench/runtimes.ts';
import { joinNativeOutputs, nativeMeasurement, parseNativeOutput, withNative, type NativeOutput } from '../src/core/bench/native-results.ts';
import { formatLimitText, limitRows } from '../src/core/results/text/native-summary.ts';
import { buildNative, expectedDigest, findCargo, lockedCrateVersion, measurementOf, runNative } from '../src/node/native-run.ts';
import { NATIVE_RUNTIME_ID, type Results } from '../src/core/bench/results.ts';
import { joinSlices, sliceRounds } from '../src/node/slices.ts';
import { parseCliArgs } from '../src/node/cli-args.ts';
import { compareStages } from '../src/core/results/analysis/stage-report.ts';
import { formatStageReport } from '../src/core/results/text/report-text.ts';
import { runtimeModels } from '../src/core/results/analysis/runtime-ladder.ts';
import { baselineRows, buildModel } from '../src/core/results/analysis/model.ts';
import { baselineTable } from '../src/core/results/text/figure-tables.ts';
import { validateResults } from '../src/core/results/io/validate.ts';
import { validResults } from './fixtures/bad-inputs.ts';
import { chromiumEnvironment } from './fixtures/environment.ts';

const toolchain = { crateVersion: '1.8.7', rustc: 'rustc 1.95.0 (59807616e 2026-04-14)' };

/** What the SSE4.1 build and the other build print, with the right digests unless told. */
function outputs(sse41Ns: number[], bestNs: number[], threadsNs: number[], digest = expectedDigest): NativeOutput[] {
  const run = (size: number, nsPerOp: number[]) => ({ size, iterations: 100, digest: digest(size), nsPerOp });
  return [
    { simd: 'SSE4.1', threads: 2, contestants: [{ id: 'native-sse41', runs: [run(64, sse41Ns), run(65536, sse41Ns.map((ns) => ns * 1000))] }] },
    {
      simd: 'AVX2',
      threads: 2,
      contestants: [
        { id: 'native-best', runs: [run(64, bestNs), run(65536, bestNs.map((ns) => ns * 1000))] },
        { id: 'native-threads', runs: [run(64, threadsNs), run(65536, threadsNs.map((ns) => ns * 1000))] },
      ],
    },
  ];
}

function documentWithNative(): Results {
  return withNative(validResults(), nativeMeasurement(outputs([100, 101, 99], [80, 81, 79], [90, 91, 89]), toolchain, expectedDigest, 1));
}

describe("the native program's output", () => {
  it('is read when it has the expected shape, and refused with a reason otherwise', () => {
    const good = outputs([1], [1], [1])[0];
    expect(parseNativeOutput(JSON.stringify(good))).toEqual(good);
    expect(() => parseNativeOutput('cargo: error')).toThrow(/not JSON/);
    expect(() => parseNativeOutput(JSON.stringify({ ...good, contestants: [{ id: 'native-gpu', runs: [] }] }))).toThrow(/unexpected shape/);
    const negative = structuredClone(good);
    negative.contestants[0].runs[0].nsPerOp = [-1];
    expect(() => parseNativeOutput(JSON.stringify(negative))).toThrow(/unexpected shape/);
  });

  it('joins the slices of native rounds per contestant and size', () => {
    const [sse41] = joinNativeOutputs([...outputs([1, 2], [3], [4]), ...outputs([5], [6], [7])]);
    expect(sse41.contestants[0].runs[0].nsPerOp).toEqual([1, 2, 5]);
    expect(sse41.contestants[0].runs[1].nsPerOp).toEqual([1000, 2000, 5000]);
  });

  it('becomes contestants of the runtime "native"; a wrong digest is a failed run with no samples', () => {
    const native = nativeMeasurement(outputs([100], [80], [90], (size) => (size === 64 ? '00'.repeat(32) : expectedDigest(size))), toolchain, expectedDigest, 1);
    expect(native.runtime).toMatchObject({ id: NATIVE_RUNTIME_ID, name: 'Rust', version: '1.95.0', jsEngine: 'native code' });
    expect(native.contestants.map((c) => [c.id, c.kind, c.title, c.threads])).toEqual([
      ['native-sse41', 'native', 'native Rust blake3, one thread, SSE4.1', undefined],
      ['native-best', 'native', 'native Rust blake3, one thread, AVX2', undefined],
      ['native-threads', 'native', 'native Rust blake3, all threads (rayon)', 2],
    ]);
    const at64 = native.runs.filter((r) => r.size === 64);
    expect(at64.every((r) => r.status === 'failed' && r.nsPerOp.length === 0 && /wrong digest for a 64-byte input/.test(r.reason!))).toBe(true);
    expect(native.runs.filter((r) => r.size === 65536).every((r) => r.status === 'ok' && r.runtime === NATIVE_RUNTIME_ID)).toBe(true);
  });
});

describe('a run in slices', () => {
  it('cuts the rounds into up to five slices, as even as they can be', () => {
    expect(sliceRounds(20)).toEqual([4, 4, 4, 4, 4]);
    expect(sliceRounds(7)).toEqual([2, 2, 1, 1, 1]);
    expect(sliceRounds(3)).toEqual([1, 1, 1]);
    expect(sliceRounds(1)).toEqual([1]);
  });

  it('joins the slices: samples in order, a failure anywhere keeps none, a stopped slice keeps its reason', () => {
    const slice = (ns: number, overrides: Partial<Results['runs'][number]> = {}): Results => {
      const doc = validResults();
      return { ...doc, config: { ...doc.config, rounds: 2 }, runs: doc.runs.map((r) => (r.status === 'ok' ? { ...r, nsPerOp: [ns, ns], ...(r.size === 64 && r.contestant === '00-reference' ? overrides : {}) } : r)) };
    };
    const joined = joinSlices([slice(1), slice(2, { status: 'timeboxed', reason: 'time box' }), slice(3)]);
    expect(joined.config.rounds).toBe(6);
    const reference64 = joined.runs.find((r) => r.contestant === '00-reference' && r.size === 64)!;
    expect(reference64).toMatchObject({ status: 'timeboxed', reason: 'time box', nsPerOp: [1, 1, 2, 2, 3, 3] });
    expect(joined.runs.find((r) => r.contestant === '09-simd-wasm' && r.size === 64)!.nsPerOp).toEqual([1, 1, 2, 2, 3, 3]);
    const failed = joinSlices([slice(1), slice(2, { status: 'failed', reason: 'wrong digest', nsPerOp: [] }), slice(3)]);
    expect(failed.runs.find((r) => r.contestant === '00-reference' && r.size === 64)).toMatchObject({ status: 'failed', reason: 'wrong digest', nsPerOp: [] });
    expect(validateResults(JSON.parse(JSON.stringify(joined))).ok).toBe(true);
  });
});

describe('--native', () => {
  it('is off unless asked for', () => {
    expect(parseCliArgs([]).native).toBe(false);
    expect(parseCliArgs(['--native', '--stages', '10']).native).toBe(true);
    expect(parseCliArgs(['--browser', '--native']).browsers).toEqual(['chromium']);
  });
});

describe('a document with native rows', () => {
  it('passes validation', () => {
    const doc = documentWithNative();
    expect(validateResults(JSON.parse(JSON.stringify(doc)))).toEqual({ ok: true, results: doc });
  });

  it('gives every JavaScript engine its own part, each with the native rows, and no part for native alone', () => {
    const firefoxEnv = chromiumEnvironment({ runtimeVersion: 'Firefox 153.7.0', timerResolutionNs: 20000 });
    const firefox = runtimeFromEnv(firefoxEnv);
    const doc = validResults();
    const both = mergeRuntimeResults([doc, { ...doc, env: firefoxEnv, runtimes: [firefox], runs: doc.runs.map((r) => ({ ...r, runtime: firefox.id })) }]);
    const withRows = withNative(both, nativeMeasurement(outputs([100], [80], [90]), toolchain, expectedDigest, 1));
    expect(runtimesOf(withRows).map((e) => e.id)).toEqual(['chromium', 'firefox', 'native']);
    expect(measuringRuntimes(withRows).map((e) => e.id)).toEqual(['chromium', 'firefox']);
    const parts = splitByRuntime(withRows);
    expect(parts.map((p) => runtimesOf(p).map((e) => e.id))).toEqual([['chromium', 'native'], ['firefox', 'native']]);
    for (const part of parts) expect(part.contestants.filter((c) => c.kind === 'native').map((c) => c.id)).toEqual(['native-sse41', 'native-best', 'native-threads']);
    // The engines side by side: one column per JavaScript engine, native rows in each.
    expect(runtimeModels(withRows).map((m) => m.runtime.id)).toEqual(['chromium', 'firefox']);
  });

  it('says "x native-sse41" in the command line table, from the medians', () => {
    const [part] = splitByRuntime(documentWithNative());
    const report = compareStages(part, { native: 'native-sse41' });
    // 09-simd-wasm at 64 B: median 210.4 ns against native-sse41's 100 ns.
    expect(report.rows.find((r) => r.contestant === '09-simd-wasm' && r.size === 64)?.timesNative).toBeCloseTo(100 / 210.4, 6);
    expect(report.rows.find((r) => r.contestant === 'native-best' && r.size === 64)?.timesNative).toBeCloseTo(100 / 80, 6);
    const text = formatStageReport(report);
    expect(text).toMatch(/x native-sse41/);
    expect(text).toMatch(/09-simd-wasm .*0\.48x/);
    // Without native rows there is no such column.
    expect(formatStageReport(compareStages(validResults(), { native: 'native-sse41' }))).not.toMatch(/x native/);
  });

  it('adds a "× native" column to the app\'s table against blake3-wasm, and only then', () => {
    const doc = documentWithNative();
    // blake3-wasm failed at 64 B in the fixture; give it samples there so the table has a base.
    doc.runs = doc.runs.map((r) => (r.contestant === 'blake3-wasm' && r.size === 64 ? { ...r, status: 'ok', reason: undefined, iterations: 10, nsPerOp: [400, 400, 400] } : r));
    const [part] = splitByRuntime(doc);
    const table = baselineTable(baselineRows(buildModel(part), 64), 64);
    expect(table.columns.at(-1)?.label).toBe('× native');
    const cells = Object.fromEntries(table.rows.map((row) => [row[0].text, row.at(-1)?.text]));
    expect(cells['SIMD WebAssembly']).toBe('0.48x'); // 100 ns against 210.4
    expect(cells['native Rust blake3, one thread, SSE4.1']?.startsWith('1.0')).toBe(true);
    const plain = baselineTable(baselineRows(buildModel({ ...validResults(), runs: doc.runs.filter((r) => r.runtime !== NATIVE_RUNTIME_ID), contestants: validResults().contestants }), 64), 64);
    expect(plain.columns.map((c) => c.label)).not.toContain('× native');
  });

  it('gives the close-to-the-limit ratios: stage 10 over native, and threads over one thread', () => {
    const doc = documentWithNative();
    const stage10 = { id: '10-simd-one-block', title: '10', kind: 'stage' as const, version: 'x' };
    const stage11 = { id: '11-every-core', title: '11', kind: 'stage' as const, version: 'y' };
    const runtime = doc.runtimes![0].id;
    const withStages: Results = {
      ...doc,
      contestants: [...doc.contestants, stage10, stage11],
      runs: [
        ...doc.runs,
        { contestant: stage10.id, runtime, size: 65536, status: 'ok', iterations: 10, nsPerOp: [200_000, 200_000] },
        { contestant: stage11.id, runtime, size: 65536, status: 'ok', iterations: 10, nsPerOp: [125_000, 125_000] },
      ],
    };
    const [row] = limitRows(withStages).filter((r) => r.size === 65536);
    expect(row.stage10! / row.sse41!).toBeCloseTo(0.5, 6); // 100 µs native against 200 µs
    expect(row.stage11! / row.stage10!).toBeCloseTo(1.6, 6);
    expect(row.threads! / row.best!).toBeCloseTo(80 / 90, 6);
    const text = formatLimitText(withStages)!;
    expect(text).toMatch(/64KiB .* 0\.50x .* 1\.60x .* 0\.89x$/m);
    expect(formatLimitText(validResults())).toBeNull();
  });
});

describe('the native program itself', async () => {
  const cargo = await findCargo();
  if (!cargo) console.warn('native.test.ts: no cargo on PATH or in ~/.cargo/bin, so the native program is not built here (install Rust with rustup to run this test)');

  it('pins the blake3 crate in native/Cargo.lock', () => {
    expect(lockedCrateVersion()).toMatch(/^1\.\d+\.\d+$/);
  });

  it.skipIf(!cargo)('builds with cargo, times every native contestant and gives the oracle\'s digests', { timeout: 600_000 }, async () => {
    const program = await buildNative(cargo!);
    const sizes = [0x60, 1024, 5000];
    const printed = await runNative(program, { sizes, rounds: 2, sampleTargetMs: 2, warmupMs: 5 });
    const native = measurementOf(program, printed);
    expect(native.contestants.map((c) => c.id)).toEqual(['native-sse41', 'native-best', 'native-threads']);
    expect(native.runs).toHaveLength(9);
    for (const run of native.runs) {
      expect(run.status, `${run.contestant} at ${run.size}: ${run.reason}`).toBe('ok');
      expect(run.nsPerOp).toHaveLength(2);
    }
    // It has no settings of its own: one left out is refused, never filled in by a default.
    const partial = ['--sizes', '96', '--rounds', '1', '--sample-ms', '1', '--warmup-ms', '1'];
    const refused = await promisify(execFile)(program.binaries[0], partial).then(() => '', (error: { stderr: string }) => error.stderr);
    expect(refused).toMatch(/--input-modulus is required/);
  });
});
