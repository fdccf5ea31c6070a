// Benchmarks the Go track's stages and writes `go test -bench` output, which benchstat
// and the app both read.
//
//   npm run bench:go                               10 samples per benchmark -> results/go-bench.txt
//   npm run bench:go -- --count 5 --benchtime 500ms --out results/quick.txt
//   benchstat -col pkg results/go-bench.txt        (or the Go track's pages, after importing it)
//
// Each sample is one run of one benchmark of one stage, and the samples are taken in
// rounds: every benchmark of every stage once per round, the stage order rotating from
// round to round, `count` rounds (ten samples per benchmark, as `go test -count=10`
// gives). On a shared machine the load comes and goes within seconds; taking the
// samples of neighbouring stages seconds apart, not minutes, lets that noise hit every
// stage alike instead of landing on whichever stage ran while the machine was busy.
// The test binaries are built once (`go test -c`) and run directly.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { GO_DIR, goMissing, goRelease, goStageDirs } from './go-evidence.ts';

const BENCHMARKS = ['Hash8Bytes', 'Hash1K', 'Hash8K'];

interface Options {
  count: number;
  benchtime: string;
  out: string;
}

function parseArgs(args: string[]): Options {
  const options: Options = { count: 10, benchtime: '200ms', out: 'results/go-bench.txt' };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--count') {
      options.count = Number(value);
      if (!Number.isInteger(options.count) || options.count < 1) throw new Error(`--count must be a whole number of rounds, got "${value}"`);
    } else if (flag === '--benchtime') {
      if (!/^\d+(\.\d+)?(ns|us|µs|ms|s|m|x)$/.test(value)) throw new Error(`--benchtime takes Go's form, like 1s or 500ms or 100x; got "${value}"`);
      options.benchtime = value;
    } else if (flag === '--out') options.out = value;
    else throw new Error(`unknown option ${flag} (known: --count, --benchtime, --out)`);
  }
  return options;
}

function main(args: string[]): number {
  const options = parseArgs(args);
  const missing = goMissing();
  if (missing !== null) throw new Error(`cannot run the Go benchmarks: ${missing}`);
  const release = goRelease()!;
  const machine = `${hostname()}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} logical cores`;
  const lines = [
    `# blake2slab Go benchmarks: ${options.count} rounds, each running every benchmark of every stage once for ${options.benchtime}`,
    `# date: ${new Date().toISOString()}`,
    `# machine: ${machine}`,
    `# go: ${release}`,
  ];
  const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=readonly' };
  const stages = goStageDirs();
  const binaries = mkdtempSync(join(tmpdir(), 'bench-go-'));
  try {
    for (const stage of stages) {
      const build = spawnSync('go', ['test', '-c', '-o', join(binaries, `${stage}.test`), `./${stage}`], { cwd: GO_DIR, encoding: 'utf8', env });
      if (build.status !== 0) throw new Error(`go test -c ./${stage} failed:\n${build.stdout}${build.stderr}`);
    }
    for (let round = 0; round < options.count; round++) {
      console.error(`round ${round + 1} of ${options.count}`);
      const order = stages.map((_, i) => stages[(i + round) % stages.length]);
      for (const benchmark of BENCHMARKS) {
        for (const stage of order) {
          const run = spawnSync(
            join(binaries, `${stage}.test`),
            ['-test.run', '^$', '-test.bench', `^Benchmark${benchmark}$`, `-test.benchtime=${options.benchtime}`, '-test.count=1'],
            { cwd: join(GO_DIR, stage), encoding: 'utf8', env },
          );
          if (run.status !== 0) throw new Error(`${stage} ${benchmark} failed in round ${round + 1}:\n${run.stdout}${run.stderr}`);
          // Keep the configuration and benchmark lines; drop "PASS" and friends.
          lines.push(...run.stdout.split('\n').filter((line) => /^(goos|goarch|pkg|cpu): |^Benchmark/.test(line)));
        }
      }
    }
  } finally {
    rmSync(binaries, { recursive: true, force: true });
  }
  const out = resolve(options.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${lines.join('\n')}\n`);
  console.log(`wrote ${options.out}`);
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(`bench:go: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
