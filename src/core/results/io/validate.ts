// The gate every results document from outside passes through: share links, imported
// files, anything a classmate sent. It checks the versioned schema of
// src/core/bench/results.ts field by field and returns a fresh object built only from the
// fields it checked, so nothing the input carried besides them (prototype tricks,
// getters, extra fields) reaches the app. Each refusal is one human sentence that names
// the field by its path, e.g. "runs[3].nsPerOp[2] is -1: ..."; the checkers shared with
// other files from outside are in src/core/field-checks.ts.
//
// Extra fields are refused, not dropped: a version 1 document has exactly these fields,
// so anything else means a hand-edited or foreign file, and silently reading part of it
// would show numbers the user did not mean to share.
//
// Older documents are read here and nowhere else, each as the version 3 document it
// means: version 2 called the runtimes `engines` and each run's `engine`, so its fields
// are checked under those names (a refusal names the field as the file has it) and come
// back as `runtimes` and `runtime`; a version 1 document (before runs named where they
// ran) comes back with one runtime, the one its env describes.
import { runtimeFromEnv } from '../../bench/runtimes.ts';
import {
  RESULT_KINDS,
  RESULTS_FIELDS,
  RESULTS_FORMAT,
  RESULTS_VERSION,
  RUN_STATUSES,
  RUNTIMES,
  type ContestantInfo,
  type RuntimeInfo,
  type Environment,
  type Results,
  type RunConfig,
  type RunResult,
} from '../../bench/results.ts';
import * as limits from './limits.ts';
import { FORBIDDEN_KEYS, Invalid, bool, describe, fail, integer, isoTime, list, object, oneOf, quote, text, type DocumentKind, type Fields } from '../../field-checks.ts';

export type ResultsCheck = { ok: true; results: Results } | { ok: false; error: string };

/** Ids are used in URLs, DOM attributes and file names: keep them to a safe alphabet. */
const ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

/** The document being checked, for messages about fields its version may not have (validation is synchronous). */
let reading: DocumentKind = { noun: 'results', version: RESULTS_VERSION };

function samples(count: number): string {
  return count === 1 ? '1 sample' : `${count} samples`;
}

/** A finite number in (0, max]. */
function positive(value: unknown, path: string, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    fail(`${path} is ${describe(value)}: ${what} must be a positive number no larger than ${max}`);
  }
  return value;
}

/** One benchmark sample, nanoseconds per hash. Infinity is how 1e999 in JSON arrives. */
function sample(value: unknown, path: string): number {
  if (typeof value !== 'number') fail(`${path} is ${describe(value)}: samples must be numbers of nanoseconds`);
  if (Number.isNaN(value)) fail(`${path} is NaN: samples must be numbers of nanoseconds`);
  if (!Number.isFinite(value)) {
    fail(`${path} is ${value} (a number too large for JSON to hold, such as 1e999): samples must be finite`);
  }
  if (value <= 0) fail(`${path} is ${value}: samples must be positive numbers of nanoseconds`);
  if (value < limits.MIN_NS_PER_OP) {
    fail(`${path} is ${value}: under ${limits.MIN_NS_PER_OP} ns per hash is not a plausible sample`);
  }
  if (value > limits.MAX_NS_PER_OP) {
    fail(`${path} is ${value}: over ${limits.MAX_NS_PER_OP} ns (about 17 minutes) per hash is not a plausible sample`);
  }
  return value;
}

function readEnv(value: unknown): Environment {
  const path = 'env';
  const env = object(value, path, reading, RESULTS_FIELDS.env, ['label']);
  const date = isoTime(env.date, `${path}.date`, limits.MAX_TEXT.date);
  const result: Environment = {
    runtime: oneOf(env.runtime, `${path}.runtime`, RUNTIMES),
    runtimeVersion: text(env.runtimeVersion, `${path}.runtimeVersion`, limits.MAX_TEXT.runtimeVersion),
    userAgent: text(env.userAgent, `${path}.userAgent`, limits.MAX_TEXT.userAgent),
    os: text(env.os, `${path}.os`, limits.MAX_TEXT.os),
    cores: integer(env.cores, `${path}.cores`, 1, limits.MAX_CORES, 'the number of cores'),
    timerResolutionNs: positive(env.timerResolutionNs, `${path}.timerResolutionNs`, limits.MAX_TIMER_RESOLUTION_NS, 'the timer resolution in ns'),
    crossOriginIsolated: bool(env.crossOriginIsolated, `${path}.crossOriginIsolated`),
    littleEndian: bool(env.littleEndian, `${path}.littleEndian`),
    wasmSimd: bool(env.wasmSimd, `${path}.wasmSimd`),
    webCrypto: bool(env.webCrypto, `${path}.webCrypto`),
    date,
  };
  if (env.label !== undefined) result.label = text(env.label, `${path}.label`, limits.MAX_TEXT.label);
  return result;
}

/** What a version calls the runtimes and a run's runtime: version 2 called them engines. */
interface RuntimeNames {
  list: 'runtimes' | 'engines';
  run: 'runtime' | 'engine';
  /** The word in messages: "runtime" or "engine". */
  word: string;
}

const RUNTIME_NAMES: RuntimeNames = { list: 'runtimes', run: 'runtime', word: 'runtime' };
const VERSION_2_NAMES: RuntimeNames = { list: 'engines', run: 'engine', word: 'engine' };

/** A version's field names in place of the current ones, in the same order. */
function renamed(fields: readonly string[], names: RuntimeNames): string[] {
  return fields.map((name) => (name === 'runtimes' ? names.list : name === 'runtime' ? names.run : name));
}

/** Runtime ids join runs to runtimes and name runtimes in links: the same safe alphabet as contestant ids. */
function readRuntimes(value: unknown, names: RuntimeNames): RuntimeInfo[] {
  const raw = list(value, names.list, limits.MAX_RUNTIMES, names.list);
  if (raw.length === 0) fail(`${names.list} is empty: results need at least one ${names.word}`);
  const seen = new Map<string, number>();
  return raw.map((item, i) => {
    const path = `${names.list}[${i}]`;
    const fields = object(item, path, reading, RESULTS_FIELDS.runtime);
    const id = text(fields.id, `${path}.id`, limits.MAX_TEXT.id);
    if (!ID_PATTERN.test(id)) fail(`${path}.id is ${quote(id)}: ids use lower-case letters, digits, ".", "_" and "-" only`);
    const earlier = seen.get(id);
    if (earlier !== undefined) fail(`${path}.id "${id}" is declared twice (also ${names.list}[${earlier}])`);
    seen.set(id, i);
    return {
      id,
      name: text(fields.name, `${path}.name`, limits.MAX_TEXT.engineName),
      version: text(fields.version, `${path}.version`, limits.MAX_TEXT.version),
      jsEngine: text(fields.jsEngine, `${path}.jsEngine`, limits.MAX_TEXT.engineName),
      userAgent: text(fields.userAgent, `${path}.userAgent`, limits.MAX_TEXT.userAgent),
      timerResolutionNs: positive(fields.timerResolutionNs, `${path}.timerResolutionNs`, limits.MAX_TIMER_RESOLUTION_NS, 'the timer resolution in ns'),
      crossOriginIsolated: bool(fields.crossOriginIsolated, `${path}.crossOriginIsolated`),
      wasmSimd: bool(fields.wasmSimd, `${path}.wasmSimd`),
      webCrypto: bool(fields.webCrypto, `${path}.webCrypto`),
    };
  });
}

function readConfig(value: unknown): RunConfig {
  const config = object(value, 'config', reading, RESULTS_FIELDS.config, ['sharedInput']);
  if (config.sharedInput !== undefined && config.sharedInput !== true) {
    fail(`config.sharedInput is ${describe(config.sharedInput)}: expected true, or no such field for ordinary inputs`);
  }
  const rawSizes = list(config.sizes, 'config.sizes', limits.MAX_SIZES, 'sizes');
  if (rawSizes.length === 0) fail('config.sizes is empty: results need at least one input size');
  const sizes: number[] = [];
  rawSizes.forEach((size, i) => {
    const path = `config.sizes[${i}]`;
    sizes.push(integer(size, path, 1, limits.MAX_INPUT_BYTES, 'an input size in bytes'));
    if (sizes.indexOf(sizes[i]) !== i) fail(`${path} is ${sizes[i]}, which is listed twice`);
  });
  return {
    sizes,
    rounds: integer(config.rounds, 'config.rounds', 1, limits.MAX_ROUNDS, 'the number of rounds'),
    sampleTargetMs: positive(config.sampleTargetMs, 'config.sampleTargetMs', limits.MAX_CONFIG_MS, 'the sample target in ms'),
    timeBoxMs: positive(config.timeBoxMs, 'config.timeBoxMs', limits.MAX_CONFIG_MS, 'the time box in ms'),
    ...(config.sharedInput === true && { sharedInput: true as const }),
  };
}

function readContestants(value: unknown): ContestantInfo[] {
  const raw = list(value, 'contestants', limits.MAX_CONTESTANTS, 'contestants');
  if (raw.length === 0) fail('contestants is empty: results need at least one contestant');
  const firstIndex = new Map<string, number>();
  return raw.map((item, i) => {
    const path = `contestants[${i}]`;
    const fields = object(item, path, reading, RESULTS_FIELDS.contestant, ['threads', 'note']);
    const id = text(fields.id, `${path}.id`, limits.MAX_TEXT.id);
    if (!ID_PATTERN.test(id)) {
      fail(`${path}.id is ${quote(id)}: ids use lower-case letters, digits, ".", "_" and "-" only`);
    }
    const earlier = firstIndex.get(id);
    if (earlier !== undefined) fail(`${path}.id "${id}" is declared twice (also contestants[${earlier}])`);
    firstIndex.set(id, i);
    return {
      id,
      title: text(fields.title, `${path}.title`, limits.MAX_TEXT.title),
      kind: oneOf(fields.kind, `${path}.kind`, RESULT_KINDS),
      version: text(fields.version, `${path}.version`, limits.MAX_TEXT.version),
      ...(fields.threads === undefined ? {} : { threads: integer(fields.threads, `${path}.threads`, 1, limits.MAX_THREADS, 'the number of threads') }),
      ...(fields.note === undefined ? {} : { note: text(fields.note, `${path}.note`, limits.MAX_TEXT.note) }),
    };
  });
}

/** `runtimes` is null for a version 1 document: its runs name no runtime. */
function readRuns(value: unknown, contestants: ContestantInfo[], config: RunConfig, runtimes: RuntimeInfo[] | null, names: RuntimeNames): RunResult[] {
  const raw = list(value, 'runs', limits.MAX_RUNS, 'runs');
  if (raw.length === 0) fail('runs is empty: there are no measurements in these results');
  const ids = new Set(contestants.map((c) => c.id));
  const runtimeIds = new Set(runtimes?.map((r) => r.id));
  // A version 1 run names no runtime.
  const runFields = runtimes ? renamed(RESULTS_FIELDS.run, names) : RESULTS_FIELDS.run.filter((name) => name !== 'runtime');
  let totalSamples = 0;
  return raw.map((item, i) => {
    const path = `runs[${i}]`;
    const fields = object(item, path, reading, runFields, ['reason']);
    const contestant = text(fields.contestant, `${path}.contestant`, limits.MAX_TEXT.id);
    if (!ids.has(contestant)) fail(`${path}.contestant "${contestant}" is not one of the contestants listed in the results`);
    let runtime: string | undefined;
    if (runtimes) {
      runtime = text(fields[names.run], `${path}.${names.run}`, limits.MAX_TEXT.id);
      if (!runtimeIds.has(runtime)) fail(`${path}.${names.run} "${runtime}" is not one of the ${names.list} listed in the results`);
    }
    const size = integer(fields.size, `${path}.size`, 1, limits.MAX_INPUT_BYTES, 'an input size in bytes');
    if (!config.sizes.includes(size)) fail(`${path}.size ${size} is not one of config.sizes`);
    const status = oneOf(fields.status, `${path}.status`, RUN_STATUSES);
    const iterations = integer(fields.iterations, `${path}.iterations`, 0, limits.MAX_ITERATIONS, 'the hashes per sample');
    const rawSamples = list(fields.nsPerOp, `${path}.nsPerOp`, limits.MAX_SAMPLES_PER_RUN, 'samples');
    totalSamples += rawSamples.length;
    if (totalSamples > limits.MAX_TOTAL_SAMPLES) {
      fail(`${path} brings the samples to more than ${limits.MAX_TOTAL_SAMPLES} in all, the limit for one document`);
    }
    const nsPerOp = rawSamples.map((ns, j) => sample(ns, `${path}.nsPerOp[${j}]`));
    if (status === 'ok' && nsPerOp.length === 0) fail(`${path} has status "ok" but no samples`);
    if (status === 'unavailable' && nsPerOp.length > 0) {
      fail(`${path} has status "unavailable" (it never ran) but holds ${samples(nsPerOp.length)}`);
    }
    if (status === 'failed' && nsPerOp.length > 0) {
      fail(`${path} has status "failed" but holds ${samples(nsPerOp.length)}; a failed run keeps none, since none can be trusted`);
    }
    if (nsPerOp.length > 0 && iterations === 0) {
      fail(`${path}.iterations is 0 but the run has samples: each sample times at least one hash`);
    }
    const run: RunResult = runtime === undefined ? { contestant, size, status, iterations, nsPerOp } : { contestant, runtime, size, status, iterations, nsPerOp };
    if (fields.reason !== undefined) run.reason = text(fields.reason, `${path}.reason`, limits.MAX_TEXT.reason, true);
    return run;
  });
}

/** The format and version checks come first, so a newer file gets the "newer" message. */
function checkFormatAndVersion(root: Fields): 1 | 2 | typeof RESULTS_VERSION {
  if (!Object.hasOwn(root, 'format')) fail(`This is not a BLAKE3 Lab results file: it has no "format" field`);
  if (root.format !== RESULTS_FORMAT) {
    fail(`This is not a BLAKE3 Lab results file: its format is ${describe(root.format)}, expected "${RESULTS_FORMAT}"`);
  }
  if (!Object.hasOwn(root, 'version')) fail(`These results have no "version" field; this BLAKE3 Lab reads versions 1 to ${RESULTS_VERSION}`);
  const version = root.version;
  if (typeof version === 'number' && Number.isInteger(version) && version > RESULTS_VERSION) {
    fail(`These results were made by a newer BLAKE3 Lab (version ${version}); this one reads versions 1 to ${RESULTS_VERSION}`);
  }
  if (version !== RESULTS_VERSION && version !== 1 && version !== 2) {
    fail(`version is ${describe(version)}, which is not a results version; this BLAKE3 Lab reads versions 1 to ${RESULTS_VERSION}`);
  }
  return version;
}

/** Checks untrusted data against the results schema; on success, a fresh copy of it. */
export function validateResults(data: unknown): ResultsCheck {
  try {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      fail(`This is not a BLAKE3 Lab results file: it holds ${describe(data)}, not an object`);
    }
    const keys = Object.keys(data);
    const forbidden = keys.find((key) => FORBIDDEN_KEYS.has(key));
    if (forbidden) fail(`The results have a key named "${forbidden}", which is refused as a prototype-pollution attempt`);
    const version = checkFormatAndVersion(data as Fields);
    reading = { noun: 'results', version };
    const names = version === 2 ? VERSION_2_NAMES : RUNTIME_NAMES;
    const rootFields = version === 1 ? RESULTS_FIELDS.document.filter((name) => name !== 'runtimes') : renamed(RESULTS_FIELDS.document, names);
    const root = object(data, '', reading, rootFields);
    const env = readEnv(root.env);
    const runtimes = version === 1 ? null : readRuntimes(root[names.list], names);
    const config = readConfig(root.config);
    const contestants = readContestants(root.contestants);
    const runs = readRuns(root.runs, contestants, config, runtimes, names);
    if (runtimes) {
      const measured = new Set(runs.map((run) => run.runtime));
      const idle = runtimes.find((runtime) => !measured.has(runtime.id));
      if (idle) fail(`${names.list} lists "${idle.id}", but no run was measured in it`);
      return { ok: true, results: { format: RESULTS_FORMAT, version: RESULTS_VERSION, env, runtimes, config, contestants, runs } };
    }
    // Version 1: one runtime, the one env describes.
    const runtime = runtimeFromEnv(env);
    const tagged = runs.map(({ contestant, ...run }) => ({ contestant, runtime: runtime.id, ...run }));
    return { ok: true, results: { format: RESULTS_FORMAT, version: RESULTS_VERSION, env, runtimes: [runtime], config, contestants, runs: tagged } };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, error: error.message };
    throw error;
  }
}

/** Parses JSON text (size checked first) and validates it. */
export function parseResultsJson(text: string): ResultsCheck {
  if (typeof text !== 'string') return { ok: false, error: 'The results must be text' };
  if (text.length > limits.MAX_RESULTS_JSON_CHARS) {
    return {
      ok: false,
      error: `These results are ${text.length} characters of text, more than the limit of ${limits.MAX_RESULTS_JSON_CHARS / (1024 * 1024)} MB (a real run is well under 1 MB)`,
    };
  }
  // A byte-order mark is how some editors start UTF-8 files; JSON.parse would refuse it.
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  if (body.trim() === '') return { ok: false, error: 'The results are empty: there is no text to read' };
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    return { ok: false, error: describeSyntaxError(body, error instanceof Error ? error.message : String(error)) };
  }
  return validateResults(data);
}

/**
 * A JSON.parse error as a sentence with a line and column. The engine's wording varies
 * between versions, so only its gist is kept ("Unexpected token 'N'"); an error at the
 * very end of the text means the text was cut off.
 */
function describeSyntaxError(body: string, detail: string): string {
  const position = /at position (\d+)/.exec(detail);
  const at = position ? Number(position[1]) : -1;
  if (/end of JSON input|Unterminated/i.test(detail) || at >= body.trimEnd().length) {
    return 'The results end too early: the JSON text is truncated (cut off before its end)';
  }
  const gist = detail
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/\s*in JSON at position \d+/, '')
    .replace(/\s*at position \d+/, '')
    .replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '')
    .slice(0, 120);
  if (at < 0) return `The results are not valid JSON (${gist})`;
  const before = body.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return `The results are not valid JSON (${gist} at line ${line}, column ${column})`;
}
