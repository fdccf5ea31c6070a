// A CPU profile of one stage, in the one shape every part of the app reads: the stored
// profiles (data/profiles/<stage>.json, from V8's sampling profiler in Node), the live
// profile a learner takes in the browser (the JS Self-Profiling API), the Go track's
// pprof profiles and `npm run profile`. Converters from each tool's own format live beside
// this file; the views and the CLI only ever see a StageProfile.
//
// Shares are of all samples, idle included, as pprof counts them; `top()` turns a profile
// into pprof's `top` rows (flat, flat%, sum%, cum, cum%).

/** What a row stands for: our code, WebAssembly, or one of the engine's own buckets. */
export type FunctionKind = 'js' | 'wasm' | 'gc' | 'program' | 'idle' | 'native' | 'go';

/** One function: its samples where it was on top of the stack (self) and anywhere on it (total). */
export interface ProfileFunction {
  name: string;
  /** Repo-relative source file ('' for the engine's buckets), and its 1-based line (0 when unknown). */
  file: string;
  line: number;
  kind: FunctionKind;
  selfSamples: number;
  totalSamples: number;
  /** Percent of all samples, to one decimal. */
  selfPercent: number;
  totalPercent: number;
}

/** A node of the call tree, merged by function along each path: the icicle draws these. */
export interface CallNode {
  /** Index into StageProfile.functions; -1 for the root. */
  fn: number;
  selfSamples: number;
  totalSamples: number;
  children: CallNode[];
}

/** Where and how a profile was taken. */
export interface ProfileSource {
  /** 'V8 sampling profiler (node:inspector)', 'JS Self-Profiling API', 'go test -cpuprofile', ... */
  tool: string;
  /** Engine and runtime versions as they name themselves ('11.3.244.8-node.38', 'v20.20.2', 'Chromium 156...', 'go1.26.8'). */
  engine: string;
  runtime: string;
  cpu: string;
  /** The sampling interval asked for, in microseconds. */
  intervalUs: number;
}

export interface StageProfile {
  /** The stage id from steps/index.ts ('05-no-copies'), or the Go step's id. */
  stage: string;
  source: ProfileSource;
  /** The input hashed over and over while sampling (the largest one, when `inputs` lists several). */
  inputBytes: number;
  /**
   * Set when one profile covers several inputs, each hashed a fixed number of times (the
   * Go track profiles its three benchmarks together, as `go test -bench .` runs them).
   */
  inputs?: { bytes: number; hashes: number }[];
  /**
   * What the sample counts count. Absent: CPU samples, one per `intervalUs`. 'bytes': an
   * allocation profile (pprof's alloc_space), whose samples, selfSamples and
   * totalSamples are bytes allocated; its durationMs is 0, and top()'s flatMs and cumMs
   * are then bytes.
   */
  unit?: 'bytes';
  durationMs: number;
  samples: number;
  /** Every function with a sample, hottest self first (a V8 profile also lists GC, "(program)" and "(idle)" at 0). */
  functions: ProfileFunction[];
  /** The merged call tree; nodes under 0.5% of samples are folded into their parent's self. */
  tree: CallNode;
  /** What the profile leaves out or fixes, in one sentence (stage 11: which threads were sampled). */
  note?: string;
}

/** One row of pprof's `top`: flat and cum in milliseconds (bytes for an allocation profile), shares in percent. */
export interface TopRow {
  fn: number;
  name: string;
  flatMs: number;
  flatPercent: number;
  sumPercent: number;
  cumMs: number;
  cumPercent: number;
}

/** pprof's `top` rows: functions by self time, hottest first, with the running sum. */
export function top(profile: StageProfile, count = profile.functions.length): TopRow[] {
  const msPerSample = profile.unit === 'bytes' ? 1 : profile.samples > 0 ? profile.durationMs / profile.samples : 0;
  const order = profile.functions
    .map((f, i) => ({ f, i }))
    .sort((a, b) => b.f.selfSamples - a.f.selfSamples || b.f.totalSamples - a.f.totalSamples);
  let sum = 0;
  return order.slice(0, count).map(({ f, i }) => {
    sum += f.selfSamples;
    return {
      fn: i,
      name: f.name,
      flatMs: f.selfSamples * msPerSample,
      flatPercent: f.selfPercent,
      sumPercent: percent(sum, profile.samples),
      cumMs: f.totalSamples * msPerSample,
      cumPercent: f.totalPercent,
    };
  });
}

/** The hottest function by self time that is our code (not GC, idle or "(program)"). */
export function hottest(profile: StageProfile): ProfileFunction | undefined {
  return profile.functions
    .filter((f) => f.kind === 'js' || f.kind === 'wasm' || f.kind === 'go')
    .sort((a, b) => b.selfSamples - a.selfSamples)[0];
}

/** n of total as a percent with one decimal. */
export function percent(n: number, total: number): number {
  return total > 0 ? Math.round((1000 * n) / total) / 10 : 0;
}

/**
 * A stage's stored profiles, as `npm run gen` writes them to data/profiles/<stage>.json:
 * one profile per fixed input size (1 KiB and 64 KiB), smallest first.
 */
export interface StoredProfiles {
  /** "Code generated by <generator>; DO NOT EDIT." (JSON has no comments). */
  generated: string;
  stage: string;
  profiles: StageProfile[];
}
