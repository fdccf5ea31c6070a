// What each stored measurement was made from. Profiles, V8's evidence, the Go compiler's
// evidence and profiles, and the committed benchmark runs take minutes to make again, and
// made again on another processor they differ within bands. So `npm test` does not make
// them again: it checks, in milliseconds, that every file a measurement was made from is
// unchanged since it was made (or last checked against a fresh run), and names the command
// that makes it again. `npm run test:evidence` takes the measurements again, with their bands.
//
// data/evidence-inputs.json holds, for every stored measurement, a short SHA-256 of each
// file it was made from, the toolchain that made or checked it, and the command. `npm run
// gen` writes the entries of what it generates; `npm run evidence:stamp -- FILE` those of a
// committed benchmark run, and only when the run measured the code as it is now.

import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { STAGES } from '../../steps/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MANIFEST = 'data/evidence-inputs.json';

/** Hex digits of SHA-256 kept per file: 48 bits, plenty to tell an edit. */
const HASH_HEX_DIGITS = 12;

export interface EvidenceRecord {
  /** What makes the measurement again (and rewrites this record). */
  command: string;
  /** The toolchain that made the measurement or last checked it against a fresh run. */
  toolchain: string;
  /** Repo-relative path of every file it was made from -> short SHA-256 of its text. */
  inputs: Record<string, string>;
}

export interface EvidenceManifest {
  about: string;
  measurements: Record<string, EvidenceRecord>;
}

/** One kind of stored measurement: where it is, what it is made from, what makes it. */
export interface Measurement {
  path: string;
  command: string;
  /** The code measured; the files it imports (relative imports, followed) are inputs too. */
  code: string[];
  /**
   * The generator (the script and the children it starts), followed the same way but for
   * the stages: the stages a generator can load are inputs only of their own measurements.
   */
  generator: string[];
  /**
   * What of a TypeScript file the measurement depends on. A comment changes no measurement
   * (stage headers cite the runs), so comments are never hashed: 'lines' keeps where each
   * line is (a profile stores line numbers), 'code' only the code (a benchmark run).
   */
  reads: 'lines' | 'code';
}

export type Reader = (path: string) => string;
const readRepoFile: Reader = (path) => readFileSync(join(ROOT, path), 'utf8');

// Relative module specifiers: static and dynamic imports, re-exports, and `new URL(…, import.meta.url)`.
const SPECIFIERS = [
  /\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
  /\bnew URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url/g,
];


/**
 * Every repo file the entries load, following relative imports (a `?raw` or `?url` suffix
 * dropped), sorted. Only the repository's own files: packages are pinned by the lockfile.
 */
export function importClosure(entries: readonly string[], read: Reader = readRepoFile, skip = (_path: string) => false): string[] {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (seen.has(path) || skip(path)) continue;
    seen.add(path);
    if (!/\.(ts|js|mjs|svelte)$/.test(path)) continue;
    const text = read(path);
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const target = normalize(join(dirname(path), match[1].replace(/\?.*$/, '')));
        if (!target.startsWith('..') && isFile(target)) queue.push(target);
      }
    }
  }
  return [...seen].sort();
}

/** Parsing is the slow part: a file read the same way twice is parsed once. */
const parsed = new Map<string, string>();

/** What a measurement depends on in a file: a TypeScript file without its comments, read as `reads` says; any other file whole. */
export function hashedText(path: string, text: string, reads: Measurement['reads']): string {
  if (!path.endsWith('.ts')) return text;
  const key = `${reads}\0${path}\0${text}`;
  if (!parsed.has(key)) parsed.set(key, withoutComments(path, text, reads));
  return parsed.get(key)!;
}

function withoutComments(path: string, text: string, reads: Measurement['reads']): string {
  if (reads === 'code') {
    return ts.transpileModule(text, { compilerOptions: { removeComments: true, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext } }).outputText;
  }
  // Every comment blanked, its line breaks kept, so the code keeps its line numbers. The
  // comments are found by the parser, token by token (a `//` in a string or a regular
  // expression is not one).
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ESNext, true);
  const blank = new Uint8Array(text.length);
  const visit = (node: ts.Node) => {
    const children = node.getChildren(source);
    if (children.length === 0 || node.kind === ts.SyntaxKind.EndOfFileToken) {
      for (const range of [...(ts.getLeadingCommentRanges(text, node.pos) ?? []), ...(ts.getTrailingCommentRanges(text, node.pos) ?? [])]) blank.fill(1, range.pos, range.end);
    }
    children.forEach(visit);
  };
  visit(source);
  let kept = '';
  for (let i = 0; i < text.length; i++) if (!blank[i] || text[i] === '\n') kept += text[i];
  return kept;
}

const isFile = (path: string) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isFile();

export const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, HASH_HEX_DIGITS);

/** The .go files of one folder of the Go track. */
const goFilesIn = (dir: string) =>
  readdirSync(join(ROOT, 'go', dir))
    .filter((name) => name.endsWith('.go'))
    .map((name) => `go/${dir}/${name}`);
/** What one step of the Go track is built from: its files, the tests' shared helpers, the module files. */
const goFiles = (step: string) => ['go/go.mod', 'go/go.sum', ...goFilesIn('internal/stagetest'), ...goFilesIn(step)];
const goSteps = () =>
  readdirSync(join(ROOT, 'go'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d\d-/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
const nativeFiles = () => [
  'native/Cargo.toml',
  'native/Cargo.lock',
  ...readdirSync(join(ROOT, 'native/src'))
    .filter((name) => name.endsWith('.rs'))
    .map((name) => `native/src/${name}`),
];

/**
 * Committed runs of the benchmarks: each is made from the code it measured (the stages,
 * the native program, the Go steps and their benchmark functions). The harness that runs
 * them is checked by its own tests; a change there does not change what the code does.
 */
const BENCH_RUNS = ['data/engines', 'data/native'];
const GO_BENCH_PREFIX = 'data/go/bench-';

function stageFiles(id: string, where: string): string[] {
  const stage = STAGES.find((s) => s.id === id);
  if (!stage) throw new Error(`${where} measured a stage "${id}" that steps/index.ts does not list`);
  return stage.files;
}

/** What a committed run of `npm run bench` measured: its stages' files, and the native program if it ran. */
function benchCode(path: string, read: Reader): string[] {
  const run = JSON.parse(read(path)) as { contestants: { id: string; kind: string }[] };
  const stages = run.contestants.filter((c) => c.kind === 'stage').map((c) => stageFiles(c.id, path));
  return [...stages.flat(), ...(run.contestants.some((c) => c.kind === 'native') ? nativeFiles() : [])];
}

/** Every stored measurement of the repository, with what it is made from. */
export function measurements(read: Reader = readRepoFile): Measurement[] {
  const gen = 'npm run gen';
  const list: Measurement[] = [];
  for (const stage of STAGES) {
    list.push({ path: `data/profiles/${stage.id}.json`, command: gen, code: stage.files, generator: ['scripts/profiles.ts', 'src/node/profile/probe.ts'], reads: 'lines' });
    list.push({ path: `data/v8/${stage.id}.json`, command: gen, code: stage.files, generator: ['scripts/v8-evidence.ts', 'scripts/v8-probe.ts'], reads: 'lines' });
  }
  for (const step of goSteps()) {
    list.push({ path: `go/${step}/evidence.json`, command: gen, code: goFiles(step), generator: ['scripts/go-evidence.ts'], reads: 'lines' });
    list.push({ path: `data/go/profiles/${step}.json`, command: gen, code: goFiles(step), generator: ['scripts/go-profiles.ts'], reads: 'lines' });
  }
  for (const dir of BENCH_RUNS) {
    for (const name of readdirSync(join(ROOT, dir)).filter((n) => n.endsWith('.json')).sort()) {
      const path = `${dir}/${name}`;
      // The bench's own code is checked by its tests; the figures belong to the code measured.
      list.push({ path, command: `the npm run bench command that made it, then npm run evidence:stamp -- ${path}`, code: benchCode(path, read), generator: [], reads: 'code' });
    }
  }
  for (const name of readdirSync(join(ROOT, 'data/go')).filter((n) => `data/go/${n}`.startsWith(GO_BENCH_PREFIX)).sort()) {
    const path = `data/go/${name}`;
    list.push({ path, command: `npm run bench:go -- --out ${path}, then npm run evidence:stamp -- ${path}`, code: [...new Set(goSteps().flatMap(goFiles))], generator: [], reads: 'code' });
  }
  return list;
}

/** Each input file of a measurement with its short hash, as it is now. */
export function inputsNow(measurement: Measurement, read: Reader = readRepoFile): Record<string, string> {
  const inputs: Record<string, string> = {};
  const stepsOfOthers = (path: string) => path.startsWith('steps/');
  const files = new Set([...importClosure(measurement.code, read), ...importClosure(measurement.generator, read, stepsOfOthers)]);
  for (const path of [...files].sort()) inputs[path] = shortHash(hashedText(path, read(path), measurement.reads));
  return inputs;
}

export function readManifest(read: Reader = readRepoFile): EvidenceManifest {
  return JSON.parse(read(MANIFEST)) as EvidenceManifest;
}

/**
 * Why each stored measurement is stale, one line each, naming the command that makes it
 * again: an input changed, appeared or went away since it was made, or it has no record.
 */
export function staleMeasurements(read: Reader = readRepoFile, manifest = readManifest(read)): string[] {
  const problems: string[] = [];
  for (const m of measurements(read)) {
    const record = manifest.measurements[m.path];
    if (!record) {
      problems.push(`${m.path}: no record of what it was made from in ${MANIFEST} (run ${m.command})`);
      continue;
    }
    const now = inputsNow(m, read);
    const changed = [...new Set([...Object.keys(now), ...Object.keys(record.inputs)])]
      .sort()
      .filter((path) => now[path] !== record.inputs[path])
      .map((path) => (path in now ? (path in record.inputs ? `${path} changed` : `${path} is new`) : `${path} is gone`));
    if (changed.length > 0) problems.push(`${m.path} is stale: ${changed.join(', ')} since it was made (run ${record.command})`);
  }
  const known = new Set(measurements(read).map((m) => m.path));
  for (const path of Object.keys(manifest.measurements)) {
    if (!known.has(path)) problems.push(`${MANIFEST} records ${path}, which is not a stored measurement any more: remove its entry`);
  }
  return problems;
}

const nodeToolchain = () => `Node ${process.versions.node}, V8 ${process.versions.v8}`;
function goToolchain(): string {
  try {
    return execFileSync('go', ['version'], { encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' } }).trim();
  } catch {
    return 'go (not found)';
  }
}

/** Records, for each path given, what it is made from as the files are now (and the command that made it, if not the usual one). */
export function recordInputs(paths: readonly string[], toolchain?: string, command?: string): void {
  const manifest = existsSync(join(ROOT, MANIFEST))
    ? readManifest()
    : { about: `What each stored measurement was made from (src/node/evidence-inputs.ts). Written by npm run gen and npm run evidence:stamp; npm test checks it.`, measurements: {} };
  const all = measurements();
  for (const path of paths) {
    const m = all.find((entry) => entry.path === path);
    if (!m) throw new Error(`${path} is not a stored measurement (src/node/evidence-inputs.ts lists them)`);
    const made = toolchain ?? (path.startsWith('go/') || path.startsWith('data/go/') ? goToolchain() : nodeToolchain());
    manifest.measurements[path] = { command: command ?? m.command, toolchain: made, inputs: inputsNow(m) };
  }
  const sorted = Object.fromEntries(Object.entries(manifest.measurements).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(join(ROOT, MANIFEST), `${JSON.stringify({ about: manifest.about, measurements: sorted }, null, 2)}\n`);
}

export const repoRelative = (absolute: string) => relative(ROOT, absolute);
