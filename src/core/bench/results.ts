// The results document: what a benchmark run produced, versioned, so it can be saved,
// shared in a link, imported by a classmate and compared. Everything that crosses a
// trust boundary (links, imported files) is checked by src/core/results/io/validate.ts first.

export const RESULTS_FORMAT = 'blake3-lab-results';
/**
 * Version 2 added where the runs were measured, as `engines`, every run naming its engine;
 * version 3 calls that the runtime (`runtimes`, `run.runtime`), since it is the browser or
 * Node, and "engine" is the JavaScript engine inside it. Versions 1 and 2 still import:
 * the validator reads them as version 3 (a version 1 document has one runtime, described by its env).
 */
export const RESULTS_VERSION = 3;

/** Longest sample target and time box in the config: one hour, in ms. */
export const MAX_CONFIG_MS = 3_600_000;

export const RUNTIMES = ['browser', 'node'] as const;

export interface Environment {
  /** Where the samples were taken. */
  runtime: (typeof RUNTIMES)[number];
  /** e.g. "Chromium 156.0.8078.73" or "Node 20.20.2". */
  runtimeVersion: string;
  /** navigator.userAgent, or process.version + platform in Node. */
  userAgent: string;
  /** e.g. "Linux x86_64", "macOS". */
  os: string;
  cores: number;
  /** Smallest observed non-zero step of the timer, in nanoseconds. */
  timerResolutionNs: number;
  /** Whether the page was cross-origin isolated (finer timer) when measured. */
  crossOriginIsolated: boolean;
  littleEndian: boolean;
  wasmSimd: boolean;
  webCrypto: boolean;
  /** ISO 8601 date-time the run started. */
  date: string;
  /** Optional user label ("Ana's laptop"). Always rendered as text. */
  label?: string;
}

/** A browser (or Node) the runs were measured in, and what it offered then. */
export interface RuntimeInfo {
  /** Runs name their runtime by this: "chromium", "firefox", "webkit", "node". */
  id: string;
  /** The browser or runtime: "Chromium", "Firefox", "WebKit", "Node". */
  name: string;
  /** Its version: "156.0.8078.79", "153.7.0". */
  version: string;
  /** The JavaScript engine inside it: "V8", "SpiderMonkey", "JavaScriptCore". */
  jsEngine: string;
  userAgent: string;
  timerResolutionNs: number;
  crossOriginIsolated: boolean;
  wasmSimd: boolean;
  webCrypto: boolean;
}

export const CONTESTANT_KINDS = ['stage', 'baseline', 'peer'] as const;
export type ContestantKind = (typeof CONTESTANT_KINDS)[number];

/**
 * The runtime id of native code: the blake3 crate compiled natively and timed outside any
 * JavaScript engine (`npm run bench -- --native`, src/core/bench/native-results.ts). Its runs
 * stand beside every runtime of the document.
 */
export const NATIVE_RUNTIME_ID = 'native';

/** The kinds a results document holds: the JavaScript contestants' kinds and 'native' (native code; its runs name NATIVE_RUNTIME_ID). */
export const RESULT_KINDS = [...CONTESTANT_KINDS, 'native'] as const;

export interface ContestantInfo {
  id: string;
  title: string;
  kind: (typeof RESULT_KINDS)[number];
  /** Source version: a content hash of the stage's files, or the package@version. */
  version: string;
  /** Threads it hashed large inputs on, when more than one could be (stage 11): it used that many cores. */
  threads?: number;
  /** How it used the threads, or why it ran on one ("hashes on one thread: ..."). */
  note?: string;
}

/**
 * How one contestant at one size ended. A partial document (the runner's onResult while
 * a run is going) reads as if the run were stopped at that moment: runs still in
 * progress are 'cancelled' with their samples so far and a reason that says so.
 */
export const RUN_STATUSES = [
  'ok', // all requested samples taken
  'timeboxed', // stopped by the time box: samples so far kept, reason says why
  'failed', // threw, wrong digest, hung or ran out of memory: no samples are trusted, none are kept
  'cancelled', // the user cancelled: samples so far kept
  'unavailable', // capability missing (no WASM SIMD, no WebCrypto): never ran
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunResult {
  contestant: string;
  /** The id of the runtime in `runtimes` that measured it; absent only in version 1 documents. */
  runtime?: string;
  /** Input size in bytes. */
  size: number;
  status: RunStatus;
  /** Human reason for any status other than "ok". */
  reason?: string;
  /** Hashes per sample (the Go benchmark "N"). */
  iterations: number;
  /** One entry per sample: nanoseconds per hash. */
  nsPerOp: number[];
}

export interface RunConfig {
  sizes: number[];
  rounds: number;
  /** Target duration of one sample, ms: the plan's, lengthened on a coarse timer (at least 400 ticks). */
  sampleTargetMs: number;
  /** Most time one contestant may spend at one size (verification, warm-up, samples), ms. */
  timeBoxMs: number;
  /** True when every input lived in a SharedArrayBuffer (see BenchPlan.sharedInput); absent otherwise. */
  sharedInput?: true;
}

export interface Results {
  format: typeof RESULTS_FORMAT;
  /** 1 only for documents read from older files; everything written is RESULTS_VERSION. */
  version: 1 | typeof RESULTS_VERSION;
  /** The machine, and the first (often only) runtime. */
  env: Environment;
  /** Every runtime with runs here, in the order they ran; absent in version 1 documents (one runtime, see env). */
  runtimes?: RuntimeInfo[];
  config: RunConfig;
  contestants: ContestantInfo[];
  runs: RunResult[];
}

/**
 * A list naming every field of T, in the order the validator checks them:
 * a field added to T and not here, or named here and not in T, fails to compile.
 */
function fieldsOf<T>() {
  return <const L extends readonly (keyof T)[]>(fields: L & ([Exclude<keyof T, L[number]>] extends [never] ? unknown : never)) => fields;
}

/** The fields of each object in a results document, for the validator to hold a file to. */
export const RESULTS_FIELDS = {
  document: fieldsOf<Results>()(['format', 'version', 'env', 'runtimes', 'config', 'contestants', 'runs']),
  env: fieldsOf<Environment>()([
    'runtime', 'runtimeVersion', 'userAgent', 'os', 'cores', 'timerResolutionNs',
    'crossOriginIsolated', 'littleEndian', 'wasmSimd', 'webCrypto', 'date', 'label',
  ]),
  runtime: fieldsOf<RuntimeInfo>()(['id', 'name', 'version', 'jsEngine', 'userAgent', 'timerResolutionNs', 'crossOriginIsolated', 'wasmSimd', 'webCrypto']),
  config: fieldsOf<RunConfig>()(['sizes', 'rounds', 'sampleTargetMs', 'timeBoxMs', 'sharedInput']),
  contestant: fieldsOf<ContestantInfo>()(['id', 'title', 'kind', 'version', 'threads', 'note']),
  run: fieldsOf<RunResult>()(['contestant', 'runtime', 'size', 'status', 'reason', 'iterations', 'nsPerOp']),
};
