// Go benchmark text: what we write (checked against the real benchstat in
// stats-golden.test.ts) and what we read, ours and `go test -bench` output alike.

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Results } from '../src/core/bench/results.ts';
import { samplesFromText } from '../src/core/results/analysis/comparison.ts';
import { parseSizeLabel, sizeLabel, toBenchfmt } from '../src/core/results/io/benchfmt-write.ts';
import { benchfmtToResults, nameKeys, parseBenchfmt, rowName } from '../src/core/results/io/benchfmt-read.ts';
import { parseResultsJson, validateResults } from '../src/core/results/io/validate.ts';
import { runtimeFromEnv, mergeRuntimeResults } from '../src/core/bench/runtimes.ts';

/** tinyResults measured in Chromium and in Firefox, as one document. */
function twoRuntimes(): Results {
  const chromium = tinyResults();
  const firefoxEnv = { ...chromium.env, runtimeVersion: 'Firefox 153.7.0', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0' };
  return mergeRuntimeResults([chromium, { ...chromium, env: firefoxEnv, runtimes: [runtimeFromEnv(firefoxEnv)] }]);
}

/** Text as version 2 wrote it: the same lines, the runtime called the engine. */
function asVersion2Text(text: string): string {
  return text
    .replace('results, format 3.', 'results, format 2.')
    .replace(/^# blake3-lab runtime: /gm, '# blake3-lab engine: ')
    .replace(/^(# blake3-lab run: .*)"runtime":/gm, '$1"engine":')
    .replace(/^BenchmarkBLAKE3\/runtime=/gm, 'BenchmarkBLAKE3/engine=');
}

function tinyResults(runtime: 'browser' | 'node' = 'browser'): Results {
  return {
    format: 'blake3-lab-results',
    version: 1,
    env: {
      runtime,
      runtimeVersion: runtime === 'browser' ? 'Chromium 156.0.8078.73' : 'Node 20.20.2',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
      os: 'Linux x86_64',
      cores: 4,
      timerResolutionNs: 5,
      crossOriginIsolated: true,
      littleEndian: true,
      wasmSimd: true,
      webCrypto: true,
      date: '2026-03-14T15:09:00Z',
    },
    config: { sizes: [1024], rounds: 2, sampleTargetMs: 50, timeBoxMs: 60000 },
    contestants: [
      { id: '04-state-locals', title: 'State in local variables', kind: 'stage', version: 'abc123' },
      { id: 'blake3-wasm', title: 'blake3-wasm', kind: 'baseline', version: 'blake3-wasm@2.1.5' },
    ],
    runs: [
      { contestant: '04-state-locals', size: 1024, status: 'ok', iterations: 2000, nsPerOp: [51234.5, 50000] },
      { contestant: 'blake3-wasm', size: 1024, status: 'unavailable', reason: 'no WASM SIMD', iterations: 0, nsPerOp: [] },
    ],
  };
}

describe('toBenchfmt', () => {
  test('configuration lines, then one line per sample with ns/op and MB/s', () => {
    const lines = toBenchfmt(tinyResults()).trimEnd().split('\n');
    const plain = lines.filter((l) => !l.startsWith('#'));
    // MB/s = size * 1e3 / ns: 1024 * 1000 / 51234.5 = 19.98653...; 1024000 / 50000 = 20.48.
    expect(plain).toEqual([
      'goos: linux',
      'goarch: amd64',
      'cpu: 4 logical cores',
      'browser: Chromium 156.0.8078.73',
      'pkg: blake3-lab',
      `BenchmarkBLAKE3/stage=04-state-locals/size=1KiB-4\t2000\t51234.5 ns/op\t${1024000 / 51234.5} MB/s`,
      'BenchmarkBLAKE3/stage=04-state-locals/size=1KiB-4\t2000\t50000 ns/op\t20.48 MB/s',
    ]);
  });

  test('goos and goarch in Go’s spelling, from the names the bench gives systems', () => {
    const platform = (os: string) => {
      const lines = toBenchfmt({ ...tinyResults(), env: { ...tinyResults().env, os } }).split('\n');
      return ['goos', 'goarch'].map((key) => lines.find((l) => l.startsWith(`${key}: `))!.slice(key.length + 2)).join('/');
    };
    expect(['Linux x86_64', 'macOS', 'Windows', 'ChromeOS', 'Android', 'iOS', 'unknown OS', 'Linux aarch64', 'Linux armv7l', 'Linux i686'].map(platform)).toEqual([
      'linux/amd64',
      'darwin/unknown', // "darwin" before "windows": macOS must not read as "win"
      'windows/unknown',
      'linux/unknown',
      'android/unknown',
      'ios/unknown',
      'unknown/unknown',
      'linux/arm64',
      'linux/arm',
      'linux/386',
    ]);
  });

  test('a run without trusted samples becomes a comment only; Node gets "runtime:"', () => {
    const text = toBenchfmt(tinyResults('node'));
    expect(text).toContain('\nruntime: Node 20.20.2\n');
    expect(text).toContain('# blake3-lab run: {"contestant":"blake3-wasm","size":1024,"status":"unavailable","reason":"no WASM SIMD","iterations":0}');
    expect(text).not.toContain('Benchmark' + 'BLAKE3/stage=blake3-wasm');
  });

  test('reads back into the same results document', () => {
    // A version 1 document comes back as the version 3 document it imports as.
    const results = tinyResults();
    expect(benchfmtToResults(parseBenchfmt(toBenchfmt(results)))).toEqual(validateResults(results));
    const golden = parseResultsJson(readFileSync(new URL('./golden/results.json', import.meta.url), 'utf8'));
    if (!golden.ok) throw new Error(golden.error);
    expect(benchfmtToResults(parseBenchfmt(toBenchfmt(golden.results)))).toEqual(golden);
  });

  test('a document of two runtimes names the runtime in every line, for `benchstat -col /runtime`, and reads back whole', () => {
    const text = toBenchfmt(twoRuntimes());
    expect(text).toContain('\nbrowser: Chromium 156.0.8078.73, Firefox 153.7.0\n');
    expect(text).toContain('\nBenchmarkBLAKE3/runtime=chromium/stage=04-state-locals/size=1KiB-4\t2000\t51234.5 ns/op');
    expect(text).toContain('\nBenchmarkBLAKE3/runtime=firefox/stage=04-state-locals/size=1KiB-4\t2000\t51234.5 ns/op');
    expect(text).toMatch(/^# blake3-lab runtime: \{"id":"firefox",/m);
    expect(nameKeys('BLAKE3/runtime=firefox/stage=04-state-locals/size=1KiB-4')).toEqual({ runtime: 'firefox', stage: '04-state-locals', size: '1KiB' });
    expect(rowName('BLAKE3/runtime=firefox/stage=04-state-locals/size=1KiB-4')).toBe('BLAKE3/runtime=firefox/stage=04-state-locals/size=1KiB');
    const back = benchfmtToResults(parseBenchfmt(text));
    expect(back).toEqual(validateResults(twoRuntimes()));
    expect(back.ok && back.results.runs.map((r) => r.runtime)).toEqual(['chromium', 'chromium', 'firefox', 'firefox']);
  });

  test('text written before version 3 ("engine=" names, "# blake3-lab engine:" notes) reads back as the same document', () => {
    const both = twoRuntimes();
    const old = asVersion2Text(toBenchfmt(both));
    expect(old).toContain('\nBenchmarkBLAKE3/engine=firefox/stage=04-state-locals/size=1KiB-4\t2000\t51234.5 ns/op');
    expect(old).toMatch(/^# blake3-lab engine: \{"id":"firefox",/m);
    expect(old).toContain('# blake3-lab run: {"contestant":"04-state-locals","size":1024,"status":"ok","iterations":2000,"engine":"firefox"}');
    expect(old).not.toMatch(/runtime[=:] |"runtime":"(chromium|firefox)"/);
    expect(benchfmtToResults(parseBenchfmt(old))).toEqual(validateResults(both));
    // compare pairs an old row with the new row of the same runtime.
    expect(rowName('BLAKE3/engine=firefox/stage=04-state-locals/size=1KiB-4')).toBe('BLAKE3/runtime=firefox/stage=04-state-locals/size=1KiB');
  });

  test('size labels', () => {
    expect([96, 512, 1024, 1536, 32768, 1048576].map(sizeLabel)).toEqual(['96B', '512B', '1KiB', '1536B', '32KiB', '1MiB']);
    expect(['96B', '1KiB', '64KiB', '1MiB', '1kb', 'x'].map(parseSizeLabel)).toEqual([96, 1024, 65536, 1048576, null, null]);
  });
});

// Shaped like `go test -v -bench . -benchmem` output, with the noise around it.
const GO_OUTPUT = `goos: linux
goarch: amd64
pkg: example.com/hash
cpu: Intel(R) Xeon(R) CPU @ 2.20GHz
=== RUN   TestNothing
--- PASS: TestNothing (0.00s)
BenchmarkSum
BenchmarkSum/size=1KiB
BenchmarkSum/size=1KiB-8         	  500000	      2345 ns/op	 436.67 MB/s	       0 B/op	       0 allocs/op
BenchmarkSum/size=1KiB-8         	  500000	      2401 ns/op	 426.48 MB/s	       0 B/op	       0 allocs/op
BenchmarkSum/size=1KiB-8         	  five	      2401 ns/op
BenchmarkSum/size=1KiB-8         	  500000
pkg: example.com/other
BenchmarkOther-8   	1000	  1.5e3 ns/op
cpu:
BenchmarkOther-8   	1000	  1600 ns/op
PASS
ok  	example.com/hash	3.2s
`;

describe('parseBenchfmt', () => {
  const file = parseBenchfmt(GO_OUTPUT);

  test('benchmark lines with their values as written and the configuration in force', () => {
    expect(file.results.map((r) => [r.name, r.iterations, r.line])).toEqual([
      ['Sum/size=1KiB-8', 500000, 9],
      ['Sum/size=1KiB-8', 500000, 10],
      ['Other-8', 1000, 14],
      ['Other-8', 1000, 16],
    ]);
    expect(file.results[0].values).toEqual([
      { value: 2345, unit: 'ns/op' },
      { value: 436.67, unit: 'MB/s' },
      { value: 0, unit: 'B/op' },
      { value: 0, unit: 'allocs/op' },
    ]);
    expect(file.results[2].values).toEqual([{ value: 1500, unit: 'ns/op' }]);
    expect(file.results[0].config).toEqual({
      goos: 'linux',
      goarch: 'amd64',
      pkg: 'example.com/hash',
      cpu: 'Intel(R) Xeon(R) CPU @ 2.20GHz',
    });
    expect(file.results[2].config.pkg).toBe('example.com/other');
    // "cpu:" with no value removes the key for the lines after it.
    expect(file.results[3].config).not.toHaveProperty('cpu');
  });

  test('bad benchmark lines are reported with their line number, bare -v names skipped', () => {
    expect(file.errors).toEqual([
      { line: 11, message: 'parsing iteration count: invalid syntax "five"' },
      { line: 12, message: 'missing measurements' },
    ]);
  });

  test('into samples for compare: units tidied as benchstat does, full names kept', () => {
    const set = samplesFromText('go.txt', GO_OUTPUT);
    // Multiplied as benchstat does (value * 1e-9), which is not always the literal 2345e-9.
    expect(set.rows.map((r) => [r.name, r.unit, r.values])).toEqual([
      ['Sum/size=1KiB-8', 'sec/op', [2345 * 1e-9, 2401 * 1e-9]],
      ['Other-8', 'sec/op', [1500 * 1e-9, 1600 * 1e-9]],
      ['Sum/size=1KiB-8', 'B/s', [436.67 * 1e6, 426.48 * 1e6]],
      ['Sum/size=1KiB-8', 'B/op', [0, 0]],
      ['Sum/size=1KiB-8', 'allocs/op', [0, 0]],
    ]);
  });

  test('foreign Go text can be compared but not turned into results', () => {
    const check = benchfmtToResults(parseBenchfmt(GO_OUTPUT));
    expect(check.ok).toBe(false);
    expect(!check.ok && check.error).toMatch(/not exported by BLAKE3 Lab/);
  });

  test('our names drop the core-count suffix so machines pair up; others keep theirs', () => {
    expect(rowName('BLAKE3/stage=04-state-locals/size=1KiB-8')).toBe('BLAKE3/stage=04-state-locals/size=1KiB');
    expect(rowName('Golden/case=n30-vs-40')).toBe('Golden/case=n30-vs-40');
    expect(nameKeys('BLAKE3/stage=blake3-wasm/size=64KiB-2')).toEqual({ stage: 'blake3-wasm', size: '64KiB' });
  });
});

describe('samplesFromText: file detection and messages', () => {
  test('results JSON and Go text are both accepted', () => {
    const json = JSON.stringify(tinyResults());
    expect(samplesFromText('a.json', json).rows.map((r) => r.unit)).toEqual(['sec/op', 'B/s']);
    expect(samplesFromText('a.txt', toBenchfmt(tinyResults())).rows).toHaveLength(2);
  });

  test('unusable files get a clear error', () => {
    expect(() => samplesFromText('e.txt', '  \n')).toThrow('e.txt: the file is empty');
    expect(() => samplesFromText('x.txt', 'hello\nworld\n')).toThrow(/neither a results file \(JSON\) nor Go benchmark text/);
    expect(() => samplesFromText('b.json', '{"format": "nope"}')).toThrow(/b\.json: not a valid results file: /);
    const failedOnly = { ...tinyResults(), runs: [tinyResults().runs[1]] };
    expect(() => samplesFromText('f.json', JSON.stringify(failedOnly))).toThrow(/no usable samples/);
  });

  test('NaN samples are reported with the file and line, and skipped', () => {
    const warnings: string[] = [];
    const text = 'BenchmarkX/size=1KiB-2 100 NaN ns/op\nBenchmarkX/size=1KiB-2 100 5 ns/op\n';
    expect(samplesFromText('new.txt', text, (m) => warnings.push(m)).rows[0].values).toEqual([5e-9]);
    expect(warnings).toEqual(['new.txt:1: measurement "NaN" is not a number, so this line cannot be compared']);
    expect(() => samplesFromText('all-nan.txt', 'BenchmarkX-2 100 NaN ns/op\n')).toThrow('all-nan.txt: no benchmark line could be read');
    const json = JSON.stringify(tinyResults()).replace(/"nsPerOp":\[[\d.e+]+/, '"nsPerOp":[null');
    expect(() => samplesFromText('nan.json', json)).toThrow(/^nan\.json: not a valid results file: runs\[0\]\.nsPerOp\[0\] is null/);
  });
});
