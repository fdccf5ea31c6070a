// Go benchmark text read back (ours or `go test -bench` output), for `npm run compare`
// and for importing a run exported by benchfmt-write.ts, whose "# blake3-lab" comments
// carry what Go's format has no place for.

import {
  RESULTS_FORMAT,
  RESULTS_VERSION,
  type ContestantInfo,
  type RuntimeInfo,
  type Environment,
  type RunConfig,
} from '../../bench/results.ts';
import { COMMENT_PREFIX, parseSizeLabel } from './benchfmt-write.ts';
import { validateResults, type ResultsCheck } from './validate.ts';

export interface BenchfmtValue {
  value: number;
  unit: string;
}

export interface BenchfmtResult {
  /** Full name without "Benchmark", e.g. "BLAKE3/stage=04-state-locals/size=1KiB-2". */
  name: string;
  iterations: number;
  /** As written, before tidying ("ns/op", "MB/s", "B/op", custom units). */
  values: BenchfmtValue[];
  /** Configuration lines in effect at this line. */
  config: Readonly<Record<string, string>>;
  /** 1-based line number. */
  line: number;
}

export interface BenchfmtFile {
  results: BenchfmtResult[];
  /** Benchmark lines that could not be read (benchstat skips them too, with a warning). */
  errors: { line: number; message: string }[];
  /** Our "# blake3-lab key: json" comments, in order. */
  notes: { key: string; json: string; line: number }[];
}

/** "key: value" the way the Go format defines it: key starts lower case, no spaces or upper case. */
function configLine(line: string): { key: string; value: string } | null {
  const m = /^(\p{Ll}[^\s\p{Lu}:]*):(?:[ \t]+(.*))?$/u.exec(line);
  if (!m) return null;
  return { key: m[1], value: m[2] ?? '' };
}

const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(Inf|Infinity|NaN)$/i;

function parseBenchmarkLine(text: string): Omit<BenchfmtResult, 'config' | 'line'> | string | null {
  const fields = text.slice('Benchmark'.length).split(/\s+/).filter(Boolean);
  // `go test -v` prints a bare name when a benchmark starts.
  if (fields.length === 1 && !/\s/.test(text)) return null;
  const [name, iters, ...rest] = fields;
  if (iters === undefined) return 'missing iteration count';
  if (!/^[+-]?\d+$/.test(iters)) return `parsing iteration count: invalid syntax "${iters}"`;
  if (rest.length === 0) return 'missing measurements';
  const values: BenchfmtValue[] = [];
  for (let i = 0; i < rest.length; i += 2) {
    if (!FLOAT.test(rest[i])) return `parsing measurement: invalid syntax "${rest[i]}"`;
    if (rest[i + 1] === undefined) return 'missing units';
    // The format allows NaN, but no statistic can use it: the line is reported and skipped.
    if (/nan/i.test(rest[i])) return `measurement "${rest[i]}" is not a number, so this line cannot be compared`;
    values.push({ value: Number(rest[i].replace(/inf(inity)?/i, 'Infinity')), unit: rest[i + 1] });
  }
  return { name, iterations: Number(iters), values };
}

/** Read Go benchmark text. Lines that are neither configuration nor benchmarks are ignored, as the format says. */
export function parseBenchfmt(text: string): BenchfmtFile {
  const file: BenchfmtFile = { results: [], errors: [], notes: [] };
  let config: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, i) => {
    const lineNo = i + 1;
    if (line.startsWith('Benchmark')) {
      const parsed = parseBenchmarkLine(line);
      if (typeof parsed === 'string') file.errors.push({ line: lineNo, message: parsed });
      else if (parsed) file.results.push({ ...parsed, config, line: lineNo });
      return;
    }
    if (line.startsWith(COMMENT_PREFIX)) {
      const m = /^([a-z]+): (.*)$/.exec(line.slice(COMMENT_PREFIX.length));
      if (m) file.notes.push({ key: m[1], json: m[2], line: lineNo });
      return;
    }
    const kv = configLine(line);
    if (kv) {
      // Configuration applies to the lines after it; an empty value deletes the key.
      config = { ...config };
      if (kv.value === '') delete config[kv.key];
      else config[kv.key] = kv.value;
    }
  });
  return file;
}

/** Whether text looks like Go benchmark output rather than JSON. */
export function looksLikeBenchfmt(text: string): boolean {
  return /^Benchmark\S*\s+\d+\s/m.test(text);
}

/** Name keys of a benchmark name: "BLAKE3/stage=x/size=1KiB-2" -> { stage: "x", size: "1KiB" }. */
export function nameKeys(name: string): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const part of rowName(name).split('/').slice(1)) {
    const eq = part.indexOf('=');
    if (eq > 0) keys[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return keys;
}

/** Drop Go's "-GOMAXPROCS" suffix. */
function stripProcs(name: string): string {
  return name.replace(/-\d+$/, '');
}

const OUR_NAME = /^BLAKE3\/((runtime|engine)=[^/]+\/)?stage=[^/]+\/size=\d+(B|KiB|MiB)(-\d+)?$/;

/**
 * The name compare pairs rows by. benchstat pairs full names, "-GOMAXPROCS" included;
 * for our own benchmarks the suffix is only the machine's core count, so it is dropped
 * and runs from a 2-core and an 8-core laptop still line up; the "engine=" of text
 * written before version 3 reads as the "runtime=" it now is. Other names stay whole
 * ("case=n30-vs-40" cannot be told apart from a suffix).
 */
export function rowName(name: string): string {
  return OUR_NAME.test(name) ? stripProcs(name).replace(/^BLAKE3\/engine=/, 'BLAKE3/runtime=') : name;
}

function parseNote<T>(note: { key: string; json: string; line: number }): T {
  try {
    return JSON.parse(note.json) as T;
  } catch {
    throw new Error(`line ${note.line}: the "# blake3-lab ${note.key}:" comment is not valid JSON`);
  }
}

/**
 * Rebuild the results document from text written by toBenchfmt (its "# blake3-lab"
 * comments carry what Go's format has no place for). Other Go output cannot become a
 * results document, but parseBenchfmt still reads it for comparison. Text written before
 * version 3 is rebuilt as the document it was written from, which the validator reads as
 * version 3: "# blake3-lab engine:" notes and "engine=" names make a version 2 document,
 * and text with neither a version 1 document.
 */
export function benchfmtToResults(file: BenchfmtFile): ResultsCheck {
  try {
    const notes = (key: string) => file.notes.filter((n) => n.key === key);
    const [envNote] = notes('env');
    const [configNote] = notes('config');
    if (!envNote || !configNote) {
      return { ok: false, error: 'This Go benchmark text was not exported by BLAKE3 Lab (no "# blake3-lab env:" line): `npm run compare` and benchstat can read it, but it cannot be imported as results' };
    }
    const env = parseNote<Environment>(envNote);
    const config = parseNote<RunConfig>(configNote);
    const version2 = notes('runtime').length === 0 && notes('engine').length > 0;
    const tag = version2 ? 'engine' : 'runtime';
    const runtimes = notes(tag).map((n) => parseNote<RuntimeInfo>(n));
    const contestants = notes('contestant').map((n) => parseNote<ContestantInfo>(n));
    const runs = runsOf(file, notes('run'), tag, runtimes.length === 1 ? runtimes[0].id : undefined);
    if (typeof runs === 'string') return { ok: false, error: runs };
    const versioned = runtimes.length === 0 ? { version: 1 } : { version: version2 ? 2 : RESULTS_VERSION, [version2 ? 'engines' : 'runtimes']: runtimes };
    return validateResults({ format: RESULTS_FORMAT, ...versioned, env, config, contestants, runs });
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The runs of the text: each run's note with the samples of its benchmark lines. `tag` is
 * what the text's version calls a run's runtime; rows of a one-runtime document name none,
 * and their runs belong to that runtime. A message when a line is not one of ours.
 */
function runsOf(file: BenchfmtFile, runNotes: BenchfmtFile['notes'], tag: 'runtime' | 'engine', soleRuntime: string | undefined): Record<string, unknown>[] | string {
  const key = (runtime: unknown, contestant: unknown, size: unknown) => `${runtime ?? soleRuntime}\u0000${contestant}\u0000${size}`;
  const runs = new Map<string, Record<string, unknown> & { nsPerOp: number[] }>();
  for (const note of runNotes) {
    const run = parseNote<Record<string, unknown>>(note);
    runs.set(key(run[tag], run.contestant, run.size), { ...run, nsPerOp: [] });
  }
  for (const r of file.results) {
    const keys = nameKeys(r.name);
    const size = keys.size === undefined ? null : parseSizeLabel(keys.size);
    const ns = r.values.find((v) => v.unit === 'ns/op');
    if (keys.stage === undefined || size === null || !ns) {
      return `line ${r.line}: "Benchmark${r.name}" is not a BLAKE3 Lab benchmark line (stage=, size= and ns/op expected)`;
    }
    const named = keys.runtime ?? keys.engine;
    const runKey = key(named, keys.stage, size);
    let run = runs.get(runKey);
    if (!run) {
      const runtime = named ?? soleRuntime;
      run = { contestant: keys.stage, ...(runtime === undefined ? {} : { [tag]: runtime }), size, status: 'ok', iterations: r.iterations, nsPerOp: [] };
      runs.set(runKey, run);
    }
    run.nsPerOp.push(ns.value);
  }
  return [...runs.values()];
}
