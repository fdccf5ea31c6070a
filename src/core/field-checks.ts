// Checking a document from outside (a results file, a share link, a progress file)
// field by field. Each checker takes the value and its path in the document and returns
// the value as the type it checked, or refuses it with one human sentence that names the
// field by its path ("runs[3].nsPerOp[2] is -1: ...", "attempts[0].time is ..."), thrown
// as an `Invalid` for the validator to catch and hand back as its error.
import { CONTROL, CONTROL_IN_MULTILINE, LONE_SURROGATE } from './text-rules.ts';

/** A refusal: its message is the sentence shown to the user. */
export class Invalid extends Error {}

/** Which document is being checked, for the sentences about keys it may not have. */
export interface DocumentKind {
  /** "results", "progress files": finishes "... is not a field of version 1 <noun>". */
  noun: string;
  version: number;
}

export type Fields = Record<string, unknown>;

/** Keys that mean something to JavaScript objects; never a field (or a file name) of a document. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function fail(message: string): never {
  throw new Invalid(message);
}

export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** How a value reads in a message: `the text "abc"`, `a list`, `null`, `-1`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the text ${quote(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

/** `env` + `cores` -> "env.cores"; top-level fields have no prefix. */
export function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Refuses a key of the object at `path` that is one of FORBIDDEN_KEYS. */
export function refuseForbidden(key: string, path: string, document: DocumentKind): void {
  if (FORBIDDEN_KEYS.has(key)) {
    fail(`${path || 'The file'} has a key named "${key}", which is never part of ${document.noun} and is refused as a prototype-pollution attempt`);
  }
}

/** The value at `path` as an object with exactly the allowed keys and all required ones. */
export function object(value: unknown, path: string, document: DocumentKind, allowed: readonly string[], optional: readonly string[] = []): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${path} is ${describe(value)}: expected an object`);
  for (const key of Object.keys(value)) {
    refuseForbidden(key, path, document);
    if (!allowed.includes(key)) {
      fail(`${join(path, key)} is not a field of version ${document.version} ${document.noun}; files with extra fields are refused, not partly read`);
    }
  }
  for (const key of allowed) {
    if (!optional.includes(key) && !Object.hasOwn(value, key)) fail(`${join(path, key)} is missing`);
  }
  return value as Fields;
}

export function list(value: unknown, path: string, max: number, what: string): unknown[] {
  if (!Array.isArray(value)) fail(`${path} is ${describe(value)}: expected a list of ${what}`);
  if (value.length > max) fail(`${path} has ${value.length} ${what}; the limit is ${max}`);
  return value;
}

/** Non-empty printable text of at most `max` characters; only `multiline` text may hold tabs and line breaks. */
export function text(value: unknown, path: string, max: number, multiline = false): string {
  if (typeof value !== 'string') fail(`${path} is ${describe(value)}: expected text`);
  if (value.length === 0) fail(`${path} is empty`);
  if (value.length > max) fail(`${path} is ${value.length} characters long; the limit is ${max}`);
  const control = (multiline ? CONTROL_IN_MULTILINE : CONTROL).exec(value);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    fail(`${path} contains the control character U+${code}; only printable text is allowed`);
  }
  if (LONE_SURROGATE.test(value)) fail(`${path} contains a broken character (half of a UTF-16 surrogate pair)`);
  return value;
}

/** An ISO 8601 date-time (text of at most `max` characters) that Date can read. */
export function isoTime(value: unknown, path: string, max: number): string {
  const date = text(value, path, max);
  if (!ISO_DATE.test(date) || Number.isNaN(Date.parse(date))) {
    fail(`${path} is ${quote(date)}: expected an ISO 8601 date-time such as "2026-03-14T15:09:26.535Z"`);
  }
  return date;
}

export function oneOf<T extends string>(value: unknown, path: string, choices: readonly T[]): T {
  if (!choices.includes(value as T)) fail(`${path} is ${describe(value)}: expected one of ${choices.map((c) => `"${c}"`).join(', ')}`);
  return value as T;
}

export function bool(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(`${path} is ${describe(value)}: expected true or false`);
  return value;
}

/** A whole number in [min, max]; `what` finishes the sentence "... must be <what>". */
export function integer(value: unknown, path: string, min: number, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(`${path} is ${describe(value)}: ${what} must be a whole number from ${min} to ${max}`);
  }
  return value;
}
