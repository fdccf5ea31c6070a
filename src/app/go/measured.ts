// `go test -bench` output of the Go stages, read and compared the way benchstat does:
// one sample per benchmark line, stages told apart by their "pkg:" line, each stage
// compared with the stage before it. Pure functions, so Node tests can check them.

import { parseBenchfmt } from '../../core/results/io/benchfmt-read.ts';
import { compareSamples, summarize, type Comparison, type Summary } from '../../core/stats/index.ts';

export const GO_BENCHMARKS = ['Hash8Bytes', 'Hash1K', 'Hash8K'] as const;
export type GoBenchmark = (typeof GO_BENCHMARKS)[number];

/** The bytes each benchmark hashes (its SetBytes). */
export const BENCHMARK_BYTES: Record<GoBenchmark, number> = { Hash8Bytes: 8, Hash1K: 1024, Hash8K: 8192 };

export interface GoSamples {
  /** Wall time per hash. */
  nsPerOp: number[];
  /** CPU time per hash (the stages' benchmarks report it on Unix): what a busy shared machine distorts least. */
  cpuNsPerOp: number[];
  allocsPerOp: number[];
}

/** Which time a comparison uses: CPU time when the run has it, else wall time. */
export type GoMetric = 'cpu' | 'wall';
export const METRIC_UNIT: Record<GoMetric, string> = { cpu: 'cpu-ns/op', wall: 'ns/op' };

export interface GoRun {
  /** From the file's "# date:", "# machine:" and "# go:" lines, and Go's own "cpu:" line. */
  date: string | null;
  machine: string | null;
  go: string | null;
  cpu: string | null;
  /** Stage folder ("00-baseline") -> benchmark -> samples. */
  stages: Map<string, Map<GoBenchmark, GoSamples>>;
}

export type GoRunCheck = { ok: true; run: GoRun } | { ok: false; error: string };

const PACKAGE = /^blake2slab\/(\d\d-[a-z0-9-]+)$/;

/** Reads `npm run bench:go` output (or any `go test -bench` run of the go/ module). */
export function readGoRun(text: string): GoRunCheck {
  const file = parseBenchfmt(text);
  if (file.errors.length > 0) {
    const [first] = file.errors;
    return { ok: false, error: `line ${first.line}: ${first.message}` };
  }
  const comment = (key: string) => new RegExp(`^# ${key}: (.+)$`, 'm').exec(text)?.[1].trim() ?? null;
  const run: GoRun = { date: comment('date'), machine: comment('machine'), go: comment('go'), cpu: null, stages: new Map() };
  for (const result of file.results) {
    const stage = PACKAGE.exec(result.config.pkg ?? '')?.[1];
    const benchmark = result.name.replace(/-\d+$/, '') as GoBenchmark;
    if (!stage || !GO_BENCHMARKS.includes(benchmark)) continue;
    const ns = result.values.find((v) => v.unit === 'ns/op');
    if (!ns) return { ok: false, error: `line ${result.line}: Benchmark${result.name} has no ns/op` };
    run.cpu ??= result.config.cpu ?? null;
    const byBenchmark = run.stages.get(stage) ?? new Map<GoBenchmark, GoSamples>();
    run.stages.set(stage, byBenchmark);
    const samples = byBenchmark.get(benchmark) ?? { nsPerOp: [], cpuNsPerOp: [], allocsPerOp: [] };
    byBenchmark.set(benchmark, samples);
    samples.nsPerOp.push(ns.value);
    const cpu = result.values.find((v) => v.unit === METRIC_UNIT.cpu);
    if (cpu) samples.cpuNsPerOp.push(cpu.value);
    const allocs = result.values.find((v) => v.unit === 'allocs/op');
    if (allocs) samples.allocsPerOp.push(allocs.value);
  }
  if (run.stages.size === 0) {
    return { ok: false, error: 'no benchmark of the Go stages in this text (expected "pkg: blake2slab/00-baseline" and BenchmarkHash8Bytes lines, as npm run bench:go writes)' };
  }
  return { ok: true, run };
}

/** CPU time when every sample of the run has it, else wall time. */
export function bestMetric(run: GoRun): GoMetric {
  const all = [...run.stages.values()].flatMap((byBenchmark) => [...byBenchmark.values()]);
  return all.every((s) => s.cpuNsPerOp.length === s.nsPerOp.length) ? 'cpu' : 'wall';
}

export interface StepRow {
  benchmark: GoBenchmark;
  /** Time per hash (the metric asked for) of the stage before and of this stage, in ns. */
  old: Summary;
  new: Summary;
  comparison: Comparison;
  /** Median allocations per hash, before and after; null when the run did not report them. */
  allocs: { old: number; new: number } | null;
}

const median = (values: number[]) => summarize(values).center;

/** This run's comparison of stage `id` with stage `previousId`, per benchmark both have. */
export function stepRows(run: GoRun, previousId: string, id: string, metric: GoMetric = bestMetric(run)): StepRow[] {
  const before = run.stages.get(previousId);
  const after = run.stages.get(id);
  if (!before || !after) return [];
  return GO_BENCHMARKS.flatMap((benchmark) => {
    const a = before.get(benchmark);
    const b = after.get(benchmark);
    if (!a || !b) return [];
    const allocs = a.allocsPerOp.length && b.allocsPerOp.length ? { old: median(a.allocsPerOp), new: median(b.allocsPerOp) } : null;
    const [x, y] = metric === 'cpu' ? [a.cpuNsPerOp, b.cpuNsPerOp] : [a.nsPerOp, b.nsPerOp];
    if (x.length === 0 || y.length === 0) return [];
    return [{ benchmark, old: summarize(x), new: summarize(y), comparison: compareSamples(x, y), allocs }];
  });
}
