// npx tsx scripts/golden/make-goldens.ts
//
// Writes tests/golden/: sample sets chosen to exercise every branch of the statistics
// (tiny samples, ties, all-equal, identical, clear and slight differences, the exact and
// the normal-approximation U test), and what the real Go tools say about them:
//   benchmath.json        golang.org/x/perf/benchmath at full precision (scripts/golden/benchmath)
//   benchstat.txt / .csv  `benchstat old.txt new.txt`, text and -format csv (+ .warnings.txt)
//   benchstat-c90-a01.csv the same with -confidence 0.9 -alpha 0.01
//   stages.txt / .csv     `benchstat -col /stage results.txt` on our own Go export
//   fixed.json            Go's fixed-notation rounding of awkward numbers
// Needs Go and benchstat (GOFLAGS=-mod=mod go install golang.org/x/perf/cmd/benchstat@latest);
// the tests only read the files. Deterministic: the same inputs every run.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Results } from '../../src/core/bench/results.ts';
import { toBenchfmt } from '../../src/core/results/io/benchfmt-write.ts';
import { validateResults } from '../../src/core/results/io/validate.ts';
import { BLAKE3_WASM } from '../../steps/baseline-info.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const out = join(root, 'tests/golden');
const benchstat = process.env.BENCHSTAT ?? join(homedir(), 'go/bin/benchstat');

/** mulberry32: a tiny seeded generator, so the goldens never change between runs. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n timings around `center` with relative spread `spread`, rounded to `step` (coarse steps make ties). */
function timings(seed: number, n: number, center: number, spread: number, step = 0): number[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    // Sum of uniforms: roughly normal, with a long right tail added now and then, like real timings.
    const noise = (r() + r() + r() - 1.5) * spread + (r() < 0.1 ? r() * spread * 4 : 0);
    const x = center * (1 + noise);
    return step > 0 ? Math.round(x / step) * step : Number(x.toPrecision(10));
  });
}

const range = (from: number, n: number, by = 1) => Array.from({ length: n }, (_, i) => from + i * by);

interface Case {
  name: string;
  old: number[];
  new: number[];
  confidence?: number;
  alpha?: number;
}

// Values are ns/op; magnitudes vary so the text output exercises the unit prefixes.
const pairs: Case[] = [
  { name: 'n1', old: [100], new: [120] },
  { name: 'n2', old: [100, 104], new: [90, 91] },
  { name: 'n3-separated', old: [100, 101, 102], new: [90, 91, 92] },
  { name: 'n3-overlap', old: [100, 103, 106], new: [101, 104, 99] },
  { name: 'n4-separated', old: [2000, 2010, 2020, 2030], new: [1900, 1910, 1920, 1930] },
  { name: 'n5-overlap', old: timings(1, 5, 5000, 0.05), new: timings(2, 5, 5100, 0.05) },
  { name: 'n5-vs-3', old: timings(3, 5, 750, 0.03), new: timings(4, 3, 700, 0.03) },
  { name: 'n6-ties', old: [10, 10, 11, 12, 12, 12], new: [11, 12, 13, 13, 14, 14] },
  { name: 'n6-shift-all-equal', old: range(100, 6, 0), new: range(110, 6, 0) },
  { name: 'n10-clear', old: timings(5, 10, 1718, 0.01), new: timings(6, 10, 1423, 0.01) },
  { name: 'n10-same', old: timings(7, 10, 3066, 0.02), new: timings(8, 10, 3066, 0.02) },
  { name: 'n10-ties', old: timings(9, 10, 40, 0.1, 1), new: timings(10, 10, 42, 0.1, 1) },
  { name: 'n10-identical', old: timings(11, 10, 900, 0.05), new: timings(11, 10, 900, 0.05) },
  { name: 'n10-outlier', old: [...timings(12, 9, 1e6, 0.01), 9e6], new: [...timings(13, 9, 0.98e6, 0.01), 1.2e7] },
  { name: 'n20-slight', old: timings(14, 20, 2.5e7, 0.03), new: timings(15, 20, 2.45e7, 0.03) },
  { name: 'n20-ties', old: timings(16, 20, 300, 0.05, 5), new: timings(17, 20, 310, 0.05, 5) },
  { name: 'n25-ties', old: timings(18, 25, 64, 0.08, 1), new: timings(19, 25, 66, 0.08, 1) },
  { name: 'n26-ties', old: timings(20, 26, 64, 0.08, 1), new: timings(21, 26, 66, 0.08, 1) },
  { name: 'n30-ties-same', old: timings(22, 30, 120, 0.05, 2), new: timings(23, 30, 120, 0.05, 2) },
  { name: 'n30-vs-40', old: timings(24, 30, 8e4, 0.02), new: timings(25, 40, 8.1e4, 0.02) },
  { name: 'n50', old: timings(26, 50, 3.3e9, 0.02), new: timings(27, 50, 3.25e9, 0.02) },
  { name: 'n51', old: timings(28, 51, 12.5, 0.04), new: timings(29, 51, 12.2, 0.04) },
  { name: 'n60-clear', old: timings(30, 60, 5e5, 0.01), new: timings(31, 60, 4e5, 0.01) },
  { name: 'n100-separated', old: range(2000, 100), new: range(1000, 100) },
  { name: 'all-equal', old: range(500, 6, 0), new: range(500, 6, 0) },
];

// Only through benchmath: other levels, signs that make the range "?", and the order
// statistics of the median interval for every n from 1 to 120 (samples 1..n, so each
// bound is its own order).
const extra: Case[] = [
  { name: 'c90-n10', old: timings(40, 10, 100, 0.05), new: timings(41, 10, 104, 0.05), confidence: 0.9, alpha: 0.01 },
  { name: 'c99-n40', old: timings(42, 40, 100, 0.05), new: timings(43, 40, 103, 0.05), confidence: 0.99, alpha: 0.1 },
  { name: 'alpha-0.001-n5', old: [1, 2, 3, 4, 5], new: [6, 7, 8, 9, 10], alpha: 0.001 },
  { name: 'signs', old: [-5, 1, 2, 3, 4, 5, 6, 7], new: [-1, -2, -3, -4, -5, -6, 0, 1] },
  { name: 'zero-center', old: [0, 0, 0, 0, 0, 0, 0], new: [0, 0, 0, 0, 1, 1, 1] },
  ...range(1, 120).map((n) => ({ name: `orders-${n}`, old: range(1, n), new: [] })),
];

// Awkward numbers for fixed notation: exact halves (Go rounds to even), near-halves, signs.
const fixed: [number, number][] = [
  [0.5, 0], [1.5, 0], [2.5, 0], [-2.5, 0], [-0.4, 0], [0.125, 2], [0.375, 2], [1.005, 2], [2.675, 2],
  [17.2, 2], [-17.195, 2], [99.995, 1], [1e21, 2], [123456789.125, 2], [1e-7, 3], [0, 3], [5e-324, 2],
];

function goFile(cases: Case[], side: 'old' | 'new'): string {
  const lines = ['goos: linux', 'goarch: amd64', 'pkg: blake3-lab/golden'];
  for (const c of cases) {
    // MB/s as if each op hashed 1 KiB: a second unit, with binary prefixes.
    for (const ns of c[side]) lines.push(`BenchmarkGolden/case=${c.name}\t1\t${ns} ns/op\t${(1024 * 1e3) / ns} MB/s`);
  }
  return `${lines.join('\n')}\n`;
}

function run(cmd: string, args: string[], input?: string, cwd = out): string {
  return execFileSync(cmd, args, { cwd, input, encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** benchstat -format csv writes its warnings to stderr: keep both. */
function runCsv(name: string, args: string[]): void {
  const r = spawnSync(benchstat, args, { cwd: out, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`benchstat ${args.join(' ')} failed: ${r.stderr}`);
  writeFileSync(join(out, `${name}.csv`), r.stdout);
  writeFileSync(join(out, `${name}.warnings.txt`), r.stderr);
}

/** A results document with every status, ties, and a baseline, in our JSON form. */
function stageResults(): Results {
  const sizes = [96, 1024, 65536];
  const contestants = [
    { id: '00-reference', title: 'Reference port', kind: 'stage' as const, version: 'golden-0' },
    { id: '01-read-words-full', title: 'Full-block word reader', kind: 'stage' as const, version: 'golden-1' },
    { id: '02-precomputed-permutations', title: 'Precomputed permutations', kind: 'stage' as const, version: 'golden-2' },
    { id: BLAKE3_WASM.id, title: BLAKE3_WASM.id, kind: 'baseline' as const, version: BLAKE3_WASM.version },
  ];
  const base = [4000, 2600, 1600, 8];
  const runs: Results['runs'] = [];
  contestants.forEach((c, ci) => {
    sizes.forEach((size, si) => {
      const ns = timings(100 + ci * 10 + si, 10, (base[ci] * (size + 64)) / 10, 0.02);
      runs.push({ contestant: c.id, size, status: 'ok', iterations: 100, nsPerOp: ns });
    });
  });
  runs.push({ contestant: '02-precomputed-permutations', size: 1048576, status: 'failed', reason: 'digest mismatch at 1 MiB', iterations: 1, nsPerOp: [] });
  return {
    format: 'blake3-lab-results',
    version: 1,
    env: {
      runtime: 'node',
      runtimeVersion: 'Node 20.20.2',
      userAgent: 'Node v20.20.2 linux x64',
      os: 'Linux x86_64',
      cores: 2,
      timerResolutionNs: 1,
      crossOriginIsolated: false,
      littleEndian: true,
      wasmSimd: true,
      webCrypto: true,
      date: '2026-01-02T03:04:05Z',
      label: 'golden',
    },
    config: { sizes: [...sizes, 1048576], rounds: 10, sampleTargetMs: 50, timeBoxMs: 60000 },
    contestants,
    runs,
  };
}

function main(): void {
  mkdirSync(out, { recursive: true });
  const [first, ...rest] = run('go', ['version', '-m', benchstat]).split('\n');
  const modules = rest.filter((l) => /^\t(path|mod|dep)\t/.test(l)).map((l) => l.trim().split('\t').slice(0, 3).join(' '));
  const provenance = [`benchstat built with ${first.split(': ')[1]}`, ...modules];
  writeFileSync(join(out, 'SOURCE.txt'), `Written by scripts/golden/make-goldens.ts from:\n${provenance.join('\n')}\n`);

  const cases = [...pairs, ...extra];
  writeFileSync(join(out, 'cases.json'), `${JSON.stringify(cases)}\n`);
  const benchmathDir = join(root, 'scripts/golden/benchmath');
  writeFileSync(join(out, 'benchmath.json'), run('go', ['run', '.', 'cases'], JSON.stringify(cases), benchmathDir));
  writeFileSync(join(out, 'fixed.json'), run('go', ['run', '.', 'fixed'], JSON.stringify(fixed), benchmathDir));

  writeFileSync(join(out, 'old.txt'), goFile(pairs, 'old'));
  writeFileSync(join(out, 'new.txt'), goFile(pairs, 'new'));
  writeFileSync(join(out, 'benchstat.txt'), run(benchstat, ['old.txt', 'new.txt']));
  runCsv('benchstat', ['-format', 'csv', 'old.txt', 'new.txt']);
  runCsv('benchstat-c90-a01', ['-format', 'csv', '-confidence', '0.9', '-alpha', '0.01', 'old.txt', 'new.txt']);

  // Written as the bench writes results today: through validation, which names the runtime.
  const check = validateResults(stageResults());
  if (!check.ok) throw new Error(`the golden results are not valid: ${check.error}`);
  const { results } = check;
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(out, 'results.txt'), toBenchfmt(results));
  writeFileSync(join(out, 'stages.txt'), run(benchstat, ['-col', '/stage', 'results.txt']));
  runCsv('stages', ['-format', 'csv', '-col', '/stage', 'results.txt']);
  console.log(`wrote ${out}`);
}

main();
