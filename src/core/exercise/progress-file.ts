// A learner's exercise progress as a file: every attempt one browser keeps, written to be
// carried to another browser and added to its attempts there. A file from outside passes
// the same kind of gate as a results file (src/core/results/io/validate.ts), with the
// same field checkers (src/core/field-checks.ts): its size before it is read, then JSON,
// then every field, each refusal one sentence that names the field by its path
// ("attempts[3].time is ..."). What comes back is a fresh copy
// built only from the fields checked, so nothing else the file carried (prototype
// tricks, getters, extra fields) reaches the store. A draft's code is text like any
// other: the exercise's editor shows it, and it runs only when the learner checks it.
import { STAGES } from '../../../steps/index.ts';
import { RESULTS_FORMAT } from '../bench/results.ts';
import { MAX_INPUT_BYTES, MAX_SIZES } from '../results/io/limits.ts';
import { Invalid, bool, describe, fail, integer, isoTime, list, object, oneOf, quote, refuseForbidden, text, type DocumentKind, type Fields } from '../field-checks.ts';
import type { ExerciseVerdict, SizeStatus, SizeVerdict, Speedup } from './goal.ts';
import { choiceIndex, guessChoices } from '../predict/guess.ts';

/** One check-and-measure of a draft, as the exercise page keeps it. */
export interface Attempt {
  exercise: number;
  /** The changed files, by name. */
  files: Record<string, string>;
  check: { ok: boolean; message?: string };
  verdict: ExerciseVerdict | null;
  /** The speedup over stage N-1 the learner expected before measuring (one of the guess choices), if they said. */
  prediction?: number;
  time: string;
  browser: string;
}

export const PROGRESS_FORMAT = 'blake3-lab-exercises';
export const PROGRESS_VERSION = 1;

const MIB = 1024 * 1024;

/**
 * Bytes of a progress file read at most (checked before reading it). An attempt keeps
 * only the files its draft changed, 5 to 130 kB of code on the later stages, so this
 * holds some forty attempts at the largest exercises and hundreds at the others.
 */
export const MAX_PROGRESS_BYTES = 5 * MIB;

/** Attempts in one file: a learner who tries every exercise fifty times makes 550. */
export const MAX_ATTEMPTS = 2000;

/** Files one attempt changed: a stage has a handful. */
export const MAX_FILES = 32;

/** Characters of one file's code: the lesson's largest file is 72 kB, and a draft may unroll more. */
export const MAX_CODE_CHARS = 256 * 1024;

/** Lengths of the other text fields, in UTF-16 characters. */
export const MAX_TEXT = {
  fileName: 120,
  /** What the check said: a diagnosis, or an error the draft threw, which it words itself. */
  message: 10_000,
  /** "Chromium", "another browser". */
  browser: 60,
  /** An ISO 8601 date-time with milliseconds and offset is 29. */
  time: 40,
} as const;

/** The exercises of this lab: exercise N makes stage N from stage N-1. */
const LAST_EXERCISE = STAGES.length - 1;

const FIELDS = {
  document: ['format', 'version', 'exported', 'attempts'],
  attempt: ['exercise', 'files', 'check', 'verdict', 'prediction', 'time', 'browser'],
  check: ['ok', 'message'],
  verdict: ['status', 'sizes'],
  size: ['size', 'draft', 'reference', 'draftVsReference', 'goal', 'status'],
  speedup: ['ratio', 'range', 'p', 'significant'],
} as const;

const VERDICT_STATUSES: readonly ExerciseVerdict['status'][] = ['met', 'short', 'unclear'];
const SIZE_STATUSES: readonly SizeStatus[] = ['met', 'short', 'unclear', 'no-goal'];

export type ProgressCheck = { ok: true; attempts: Attempt[] } | { ok: false; error: string };

const PROGRESS: DocumentKind = { noun: 'progress files', version: PROGRESS_VERSION };

/** A finite number above 0: a speedup, or one end of its interval. */
function ratio(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail(`${path} is ${describe(value)}: a speedup must be a positive number`);
  return value;
}

function probability(value: unknown, path: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) fail(`${path} is ${describe(value)}: a p-value must be a number from 0 to 1`);
  return value;
}

/** A speedup's interval: its two ends, low first, or null where the run was too short for one. */
function interval(value: unknown, path: string): [number, number] | null {
  if (value === null) return null;
  if (!Array.isArray(value) || value.length !== 2) {
    fail(`${path} is ${Array.isArray(value) ? `a list of ${value.length}` : describe(value)}: expected the interval's two ends, or null`);
  }
  const ends: [number, number] = [ratio(value[0], `${path}[0]`), ratio(value[1], `${path}[1]`)];
  if (ends[0] > ends[1]) fail(`${path} runs from ${ends[0]} down to ${ends[1]}: its low end comes first`);
  return ends;
}

function speedup(value: unknown, path: string): Speedup {
  const fields = object(value, path, PROGRESS, FIELDS.speedup);
  return {
    ratio: ratio(fields.ratio, `${path}.ratio`),
    range: interval(fields.range, `${path}.range`),
    p: probability(fields.p, `${path}.p`),
    significant: bool(fields.significant, `${path}.significant`),
  };
}

function sizeVerdict(value: unknown, path: string): SizeVerdict {
  const fields = object(value, path, PROGRESS, FIELDS.size);
  return {
    size: integer(fields.size, `${path}.size`, 1, MAX_INPUT_BYTES, 'an input size in bytes'),
    draft: speedup(fields.draft, `${path}.draft`),
    reference: speedup(fields.reference, `${path}.reference`),
    draftVsReference: speedup(fields.draftVsReference, `${path}.draftVsReference`),
    goal: fields.goal === null ? null : ratio(fields.goal, `${path}.goal`),
    status: oneOf(fields.status, `${path}.status`, SIZE_STATUSES),
  };
}

function verdict(value: unknown, path: string): ExerciseVerdict {
  const fields = object(value, path, PROGRESS, FIELDS.verdict);
  const sizes = list(fields.sizes, `${path}.sizes`, MAX_SIZES, 'sizes');
  if (sizes.length === 0) fail(`${path}.sizes is empty: a verdict is judged on at least one size`);
  return { status: oneOf(fields.status, `${path}.status`, VERDICT_STATUSES), sizes: sizes.map((size, i) => sizeVerdict(size, `${path}.sizes[${i}]`)) };
}

/** The changed files by name: a name is printable text, the code any text (a file may be emptied). */
function files(value: unknown, path: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${path} is ${describe(value)}: expected an object of files by name`);
  const names = Object.keys(value);
  if (names.length > MAX_FILES) fail(`${path} has ${names.length} files; the limit is ${MAX_FILES}`);
  return Object.fromEntries(
    names.map((name) => {
      refuseForbidden(name, path, PROGRESS);
      const at = `${path}[${quote(name)}]`;
      text(name, `The name of ${at}`, MAX_TEXT.fileName);
      const code = (value as Fields)[name];
      if (typeof code !== 'string') fail(`${at} is ${describe(code)}: expected the file's code as text`);
      if (code.length > MAX_CODE_CHARS) fail(`${at} is ${code.length} characters long; the limit is ${MAX_CODE_CHARS}`);
      return [name, code];
    }),
  );
}

function check(value: unknown, path: string): Attempt['check'] {
  const fields = object(value, path, PROGRESS, FIELDS.check, ['message']);
  const ok = bool(fields.ok, `${path}.ok`);
  return fields.message === undefined ? { ok } : { ok, message: text(fields.message, `${path}.message`, MAX_TEXT.message, true) };
}

/** A prediction is one of the step's guess choices, as a stage page's guess is. */
function prediction(value: unknown, path: string, exercise: number): number {
  if (choiceIndex(exercise, value) < 0) fail(`${path} is ${describe(value)}: a prediction is one of ${guessChoices(exercise).map((c) => c.ratio).join(', ')}`);
  return value as number;
}

function attempt(value: unknown, path: string): Attempt {
  const fields = object(value, path, PROGRESS, FIELDS.attempt, ['prediction']);
  const read: Attempt = {
    exercise: integer(fields.exercise, `${path}.exercise`, 1, LAST_EXERCISE, 'an exercise'),
    files: files(fields.files, `${path}.files`),
    check: check(fields.check, `${path}.check`),
    verdict: fields.verdict === null ? null : verdict(fields.verdict, `${path}.verdict`),
    time: isoTime(fields.time, `${path}.time`, MAX_TEXT.time),
    browser: text(fields.browser, `${path}.browser`, MAX_TEXT.browser),
    ...(fields.prediction !== undefined && { prediction: prediction(fields.prediction, `${path}.prediction`, fields.exercise as number) }),
  };
  // Only a draft that passed the check is measured, so only such an attempt has a verdict.
  if (read.verdict !== null && !read.check.ok) fail(`${path}.verdict is set though ${path}.check.ok is false: only a draft that passes the check is measured`);
  return read;
}

/** The format and version come first, so a results file or a newer file gets a message of its own. */
function checkFormatAndVersion(root: Fields): void {
  if (root.format === RESULTS_FORMAT) fail('This is a BLAKE3 Lab results file, not a progress file: import it on the Results page');
  if (!Object.hasOwn(root, 'format')) fail('This is not a BLAKE3 Lab progress file: it has no "format" field');
  if (root.format !== PROGRESS_FORMAT) fail(`This is not a BLAKE3 Lab progress file: its format is ${describe(root.format)}, expected "${PROGRESS_FORMAT}"`);
  if (!Object.hasOwn(root, 'version')) fail(`This progress file has no "version" field; this BLAKE3 Lab reads version ${PROGRESS_VERSION}`);
  const version = root.version;
  if (typeof version === 'number' && Number.isInteger(version) && version > PROGRESS_VERSION) {
    fail(`This progress file was made by a newer BLAKE3 Lab (version ${version}); this one reads version ${PROGRESS_VERSION}`);
  }
  if (version !== PROGRESS_VERSION) fail(`version is ${describe(version)}, which is not a progress file version; this BLAKE3 Lab reads version ${PROGRESS_VERSION}`);
}

/** Checks untrusted data against the progress file's format; on success, fresh copies of its attempts. */
export function validateProgress(data: unknown): ProgressCheck {
  try {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) fail(`This is not a BLAKE3 Lab progress file: it holds ${describe(data)}, not an object`);
    Object.keys(data).forEach((key) => refuseForbidden(key, '', PROGRESS));
    checkFormatAndVersion(data as Fields);
    const root = object(data, '', PROGRESS, FIELDS.document);
    isoTime(root.exported, 'exported', MAX_TEXT.time);
    const attempts = list(root.attempts, 'attempts', MAX_ATTEMPTS, 'attempts');
    return { ok: true, attempts: attempts.map((item, i) => attempt(item, `attempts[${i}]`)) };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, error: error.message };
    throw error;
  }
}

/** Parses JSON text and validates it. */
export function parseProgressJson(json: string): ProgressCheck {
  // A byte-order mark is how some editors start UTF-8 files; JSON.parse would refuse it.
  const body = json.startsWith('\ufeff') ? json.slice(1) : json;
  if (body.trim() === '') return { ok: false, error: 'This file is empty: there is no text to read' };
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    // The engine's own words, which name the place; they differ between browsers.
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `This file is not JSON, so it cannot be a progress file (${detail.slice(0, 120)})` };
  }
  return validateProgress(data);
}

/** Reads and checks a progress file the learner picked: its size before its bytes, its bytes before its text. */
export async function readProgressFile(file: Blob): Promise<ProgressCheck> {
  if (file.size > MAX_PROGRESS_BYTES) {
    return { ok: false, error: `This file is ${file.size} bytes, more than the limit of ${MAX_PROGRESS_BYTES / MIB} MB for progress files` };
  }
  if (file.size === 0) return { ok: false, error: 'This file is empty' };
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return { ok: false, error: 'This file is not UTF-8 text: it is binary or in another encoding, so it cannot be a progress file' };
  }
  return parseProgressJson(json);
}

/** Only the attempt's own fields, in a fixed order: a stored record also carries the store's key. */
function plain(a: Attempt): Attempt {
  const check = a.check.message === undefined ? { ok: a.check.ok } : { ok: a.check.ok, message: a.check.message };
  return { exercise: a.exercise, files: a.files, check, verdict: a.verdict, ...(a.prediction !== undefined && { prediction: a.prediction }), time: a.time, browser: a.browser };
}

/** The attempts as an indented progress file, readable in a text editor. */
export function progressJson(attempts: readonly Attempt[], exported: Date): string {
  const document = { format: PROGRESS_FORMAT, version: PROGRESS_VERSION, exported: exported.toISOString(), attempts: attempts.map(plain) };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export function progressFileName(exported: Date): string {
  return `blake3-lab-progress-${exported.toISOString().slice(0, 10)}.json`;
}

/** What makes two attempts the same one: the exercise, the time and the files (in any order). */
function sameness(a: Attempt): string {
  const names = Object.keys(a.files).sort();
  return JSON.stringify([a.exercise, a.time, names.map((name) => [name, a.files[name]])]);
}

/** The attempts of `incoming` that are neither kept already nor earlier in `incoming` itself. */
export function attemptsToAdd(kept: readonly Attempt[], incoming: readonly Attempt[]): Attempt[] {
  const seen = new Set(kept.map(sameness));
  return incoming.filter((a) => {
    const key = sameness(a);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
