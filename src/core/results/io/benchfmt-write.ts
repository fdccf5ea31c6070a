// Results as Go benchmark text, benchfmt (golang.org/design/14313-benchmark-format), so
// a run can be fed to the real benchstat. Reading the text back is benchfmt-read.ts.
//
// One line per sample:
//   BenchmarkBLAKE3/stage=04-state-locals/size=1KiB-2  20000  51234.5 ns/op  19.98 MB/s
// so `benchstat -col /stage file.txt` puts the stages side by side. Only settings that
// stay the same between two runs on one machine become "key: value" configuration lines:
// benchstat splits tables on any difference there, so the date, label and timer go into
// "#" comment lines, which benchstat ignores and parseBenchfmt reads back.
//
// A document measured in several runtimes names the runtime first,
//   BenchmarkBLAKE3/runtime=firefox/stage=04-state-locals/size=1KiB-2  ...
// so `benchstat -col /runtime file.txt` puts the browsers side by side. Text written
// before version 3 said "engine=" and "# blake3-lab engine:"; it still reads back.

import { runtimesOf } from '../../bench/runtimes.ts';
import { RESULTS_VERSION, type RuntimeInfo, type Environment, type Results, type RunResult } from '../../bench/results.ts';
import { mbPerSec } from '../../stats/benchunit.ts';

export const GO_BENCH_NAME = 'BLAKE3';
export const COMMENT_PREFIX = '# blake3-lab ';

/** "96B", "1KiB", "1MiB": exact binary units when they divide evenly. */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)}MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)}KiB`;
  return `${bytes}B`;
}

/** Inverse of sizeLabel; null when the text is not one. */
export function parseSizeLabel(label: string): number | null {
  const m = /^(\d+)(B|KiB|MiB)$/.exec(label);
  if (!m) return null;
  const scale = m[2] === 'MiB' ? 1 << 20 : m[2] === 'KiB' ? 1 << 10 : 1;
  return Number(m[1]) * scale;
}

/**
 * The row name shared by the Go text and compare: "BLAKE3/stage=04-state-locals/size=1KiB",
 * with "runtime=firefox/" after "BLAKE3/" when a document holds several runtimes.
 */
export function benchmarkName(contestant: string, size: number, runtime?: string): string {
  return `${GO_BENCH_NAME}/${runtime === undefined ? '' : `runtime=${runtime}/`}stage=${contestant}/size=${sizeLabel(size)}`;
}

/** The runtime a run's row is named with: only documents of several runtimes name it. */
export function nameRuntime(results: Results, run: RunResult): string | undefined {
  return runtimesOf(results).length > 1 ? run.runtime : undefined;
}

// Go's GOOS and GOARCH spellings, matched in order against our free-text os ("Linux
// x86_64", "macOS"): the first match wins, so "darwin" is found before its "win".
const GOOS: [RegExp, string][] = [
  [/android/, 'android'],
  [/linux|chromeos|cros/, 'linux'],
  [/mac|darwin/, 'darwin'],
  [/win/, 'windows'],
  [/iphone|ipad|ios/, 'ios'],
];
const GOARCH: [RegExp, string][] = [
  [/x86_64|x64|amd64|win64|wow64/, 'amd64'],
  [/arm64|aarch64/, 'arm64'],
  [/\barm/, 'arm'],
  [/i[3-6]86|x86/, '386'],
];

function goPlatform(os: string): { goos: string; goarch: string } {
  const s = os.toLowerCase();
  const first = (table: [RegExp, string][]) => table.find(([pattern]) => pattern.test(s))?.[1] ?? 'unknown';
  return { goos: first(GOOS), goarch: first(GOARCH) };
}

/** The configuration lines of a run: only what stays the same between runs on one machine. */
export function goConfig(env: Environment, runtimes: readonly RuntimeInfo[] = []): [string, string][] {
  const { goos, goarch } = goPlatform(env.os);
  const runtime = runtimes.length > 1 ? runtimes.map((r) => `${r.name} ${r.version}`).join(', ') : env.runtimeVersion;
  return [
    ['goos', goos],
    ['goarch', goarch],
    ['cpu', `${env.cores} logical cores`],
    env.runtime === 'browser' ? ['browser', runtime] : ['runtime', runtime],
    ['pkg', 'blake3-lab'],
  ];
}

/** Shortest text that reads back as the same double. */
const num = (x: number) => String(x);

/** The results as Go benchmark text that the real benchstat reads. */
export function toBenchfmt(results: Results): string {
  const { env } = results;
  const lines = [
    `${COMMENT_PREFIX}results, format ${RESULTS_VERSION}. Lines starting with # are comments to benchstat.`,
    `${COMMENT_PREFIX}env: ${JSON.stringify(env)}`,
    `${COMMENT_PREFIX}config: ${JSON.stringify(results.config)}`,
    ...(results.runtimes ?? []).map((r) => `${COMMENT_PREFIX}runtime: ${JSON.stringify(r)}`),
    ...results.contestants.map((c) => `${COMMENT_PREFIX}contestant: ${JSON.stringify(c)}`),
    ...goConfig(env, runtimesOf(results)).map(([key, value]) => `${key}: ${value}`),
  ];
  // Go ends names with -GOMAXPROCS (the CPUs the process may use) when it is above 1.
  const procs = env.cores > 1 ? `-${env.cores}` : '';
  // Every run gets a comment (status, reason, iterations) so the file reads back whole
  // and in order; samples of failed runs are not trusted, so they get no benchmark lines.
  for (const { nsPerOp, ...run } of results.runs) lines.push(`${COMMENT_PREFIX}run: ${JSON.stringify(run)}`);
  for (const run of results.runs) {
    if (run.status === 'failed' || run.status === 'unavailable') continue;
    const name = `Benchmark${benchmarkName(run.contestant, run.size, nameRuntime(results, run))}${procs}`;
    for (const ns of run.nsPerOp) {
      lines.push(`${name}\t${run.iterations}\t${num(ns)} ns/op\t${num(mbPerSec(run.size, ns))} MB/s`);
    }
  }
  return `${lines.join('\n')}\n`;
}
