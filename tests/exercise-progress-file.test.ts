// A learner's progress file: what one browser exports, another reads back equal; every
// broken, foreign, newer, oversized or hostile file is refused with a message that names
// what is wrong (the field by its position); and an attempt already kept is not added again.
import { describe, expect, it } from 'vitest';
import {
  MAX_ATTEMPTS,
  MAX_CODE_CHARS,
  MAX_FILES,
  MAX_PROGRESS_BYTES,
  attemptsToAdd,
  parseProgressJson,
  progressFileName,
  progressJson,
  readProgressFile,
  type Attempt,
  type ProgressCheck,
} from '../src/core/exercise/progress-file.ts';
import type { Speedup } from '../src/core/exercise/goal.ts';
import { STAGES } from '../steps/index.ts';

const EXPORTED = new Date('2026-12-01T10:00:00.000Z');

const speedup = (ratio: number): Speedup => ({ ratio, range: [ratio * 0.9, ratio * 1.1], p: 0.001, significant: true });

function solved(): Attempt {
  return {
    exercise: 2,
    files: { 'blake3.ts': 'export function hash(input: Uint8Array): Uint8Array {\n\treturn input;\n}\n' },
    check: { ok: true },
    verdict: {
      status: 'met',
      sizes: [
        { size: 1024, draft: speedup(1.5), reference: speedup(1.6), draftVsReference: { ratio: 0.94, range: null, p: 0.4, significant: false }, goal: 1.26, status: 'met' },
        { size: 1048576, draft: speedup(1.4), reference: speedup(1.0), draftVsReference: speedup(1.4), goal: null, status: 'no-goal' },
      ],
    },
    prediction: 1.5,
    time: '2026-11-30T09:15:00.000Z',
    browser: 'Chromium',
  };
}

function failed(): Attempt {
  return { exercise: 3, files: {}, check: { ok: false, message: 'Not yet: your draft threw:\nboom' }, verdict: null, time: '2026-11-30T09:20:00.000Z', browser: 'Firefox' };
}

/** A progress file's document, as JSON.parse gives it, for a test to break one field of. */
function document(attempts: Attempt[] = [solved(), failed()]): Record<string, any> {
  return JSON.parse(progressJson(attempts, EXPORTED));
}

function errorOf(check: ProgressCheck): string {
  if (check.ok) throw new Error('expected the file to be refused, but it was read');
  return check.error;
}

const refusal = (doc: unknown) => errorOf(parseProgressJson(JSON.stringify(doc)));

describe('a progress file', () => {
  it('reads back what it wrote: every attempt equal, without the store key, as fresh objects', () => {
    const stored = [{ ...solved(), id: 7 }, failed()];
    const check = parseProgressJson(progressJson(stored, EXPORTED));
    expect(check).toEqual({ ok: true, attempts: [solved(), failed()] });
    expect(progressFileName(EXPORTED)).toBe('blake3-lab-progress-2026-12-01.json');
    expect(document().exported).toBe('2026-12-01T10:00:00.000Z');
  });

  it('reads a file picked in the page, with a byte-order mark', async () => {
    const file = new Blob(['\ufeff', progressJson([solved()], EXPORTED)]);
    expect(await readProgressFile(file)).toEqual({ ok: true, attempts: [solved()] });
  });

  it('keeps hostile text as text: HTML in file names and code, long code, odd names', () => {
    const hostile: Attempt = {
      ...failed(),
      files: { '<img src=x onerror=alert(1)>.ts': '</script><script>alert(1)</script>', 'toString': 'x'.repeat(MAX_CODE_CHARS), 'empty.ts': '' },
      browser: '<b>Chromium</b>',
    };
    const check = parseProgressJson(progressJson([hostile], EXPORTED));
    expect(check).toEqual({ ok: true, attempts: [hostile] });
  });
});

describe('a progress file is refused, with what is wrong', () => {
  it('when it is not JSON, or empty, or not UTF-8', async () => {
    expect(errorOf(parseProgressJson('{"format": "blake3-lab-exercises",'))).toMatch(/^This file is not JSON, so it cannot be a progress file \(.+\)$/);
    expect(errorOf(parseProgressJson('<html></html>'))).toMatch(/^This file is not JSON/);
    expect(errorOf(parseProgressJson(' \n'))).toBe('This file is empty: there is no text to read');
    expect(errorOf(await readProgressFile(new Blob([])))).toBe('This file is empty');
    expect(errorOf(await readProgressFile(new Blob([new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])])))).toBe(
      'This file is not UTF-8 text: it is binary or in another encoding, so it cannot be a progress file',
    );
  });

  it('when it is not this format', () => {
    expect(refusal([document()])).toBe('This is not a BLAKE3 Lab progress file: it holds a list, not an object');
    expect(refusal('attempts')).toBe('This is not a BLAKE3 Lab progress file: it holds the text "attempts", not an object');
    const { format: _, ...formatless } = document();
    expect(refusal(formatless)).toBe('This is not a BLAKE3 Lab progress file: it has no "format" field');
    expect(refusal({ ...document(), format: 'something-else' })).toBe('This is not a BLAKE3 Lab progress file: its format is the text "something-else", expected "blake3-lab-exercises"');
    expect(refusal({ format: 'blake3-lab-results', version: 3 })).toBe('This is a BLAKE3 Lab results file, not a progress file: import it on the Results page');
  });

  it('when a newer lab made it, or its version is no version', () => {
    expect(refusal({ ...document(), version: 2 })).toBe('This progress file was made by a newer BLAKE3 Lab (version 2); this one reads version 1');
    expect(refusal({ ...document(), version: '1' })).toBe('version is the text "1", which is not a progress file version; this BLAKE3 Lab reads version 1');
    const { version: _, ...versionless } = document();
    expect(refusal(versionless)).toBe('This progress file has no "version" field; this BLAKE3 Lab reads version 1');
  });

  it('when the document has a field missing, an extra one, or a bad export time', () => {
    const { attempts: _, ...empty } = document();
    expect(refusal(empty)).toBe('attempts is missing');
    expect(refusal({ ...document(), note: 'hi' })).toBe('note is not a field of version 1 progress files; files with extra fields are refused, not partly read');
    expect(refusal({ ...document(), exported: 'yesterday' })).toBe('exported is "yesterday": expected an ISO 8601 date-time such as "2026-03-14T15:09:26.535Z"');
    expect(refusal({ ...document(), attempts: {} })).toBe('attempts is an object: expected a list of attempts');
  });

  it('when an attempt has a wrong field, named by its position and field', () => {
    const broken = (change: (doc: Record<string, any>) => void) => {
      const doc = document();
      change(doc);
      return refusal(doc);
    };
    const last = STAGES.length - 1;
    expect(broken((d) => (d.attempts[1].exercise = 'two'))).toBe(`attempts[1].exercise is the text "two": an exercise must be a whole number from 1 to ${last}`);
    expect(broken((d) => (d.attempts[0].exercise = last + 1))).toBe(`attempts[0].exercise is ${last + 1}: an exercise must be a whole number from 1 to ${last}`);
    expect(broken((d) => (d.attempts[0].files['blake3.ts'] = 42))).toBe('attempts[0].files["blake3.ts"] is 42: expected the file\'s code as text');
    expect(broken((d) => (d.attempts[0].files = ['blake3.ts']))).toBe('attempts[0].files is a list: expected an object of files by name');
    expect(broken((d) => (d.attempts[0].files['a\u0007.ts'] = ''))).toBe('The name of attempts[0].files["a\\u0007.ts"] contains the control character U+0007; only printable text is allowed');
    expect(broken((d) => (d.attempts[1].check.ok = 'yes'))).toBe('attempts[1].check.ok is the text "yes": expected true or false');
    expect(broken((d) => (d.attempts[1].check.message = ''))).toBe('attempts[1].check.message is empty');
    expect(broken((d) => (d.attempts[0].verdict.status = 'done'))).toBe('attempts[0].verdict.status is the text "done": expected one of "met", "short", "unclear"');
    expect(broken((d) => (d.attempts[0].verdict.sizes = []))).toBe('attempts[0].verdict.sizes is empty: a verdict is judged on at least one size');
    expect(broken((d) => (d.attempts[0].verdict.sizes[1].draft.p = 2))).toBe('attempts[0].verdict.sizes[1].draft.p is 2: a p-value must be a number from 0 to 1');
    expect(broken((d) => (d.attempts[0].verdict.sizes[0].reference.ratio = -1))).toBe('attempts[0].verdict.sizes[0].reference.ratio is -1: a speedup must be a positive number');
    expect(broken((d) => (d.attempts[0].verdict.sizes[0].draft.range = [2, 1]))).toBe('attempts[0].verdict.sizes[0].draft.range runs from 2 down to 1: its low end comes first');
    expect(broken((d) => (d.attempts[0].verdict.sizes[0].draft.range = [1]))).toBe("attempts[0].verdict.sizes[0].draft.range is a list of 1: expected the interval's two ends, or null");
    expect(broken((d) => (d.attempts[0].verdict.sizes[0].size = 0))).toBe('attempts[0].verdict.sizes[0].size is 0: an input size in bytes must be a whole number from 1 to 1099511627776');
    expect(broken((d) => (d.attempts[1].time = '30/11/2026'))).toBe('attempts[1].time is "30/11/2026": expected an ISO 8601 date-time such as "2026-03-14T15:09:26.535Z"');
    expect(broken((d) => (d.attempts[1].browser = null))).toBe('attempts[1].browser is null: expected text');
    expect(broken((d) => delete d.attempts[1].browser)).toBe('attempts[1].browser is missing');
    expect(broken((d) => (d.attempts[1].id = 7))).toBe('attempts[1].id is not a field of version 1 progress files; files with extra fields are refused, not partly read');
    expect(broken((d) => (d.attempts[1].verdict = d.attempts[0].verdict))).toBe('attempts[1].verdict is set though attempts[1].check.ok is false: only a draft that passes the check is measured');
    expect(broken((d) => (d.attempts[0] = 'solved'))).toBe('attempts[0] is the text "solved": expected an object');
    expect(broken((d) => (d.attempts[0].prediction = 1.7))).toBe('attempts[0].prediction is 1.7: a prediction is one of 0.8, 1, 1.2, 1.5, 2, 3, 5, 10');
  });

  it('when it carries prototype-pollution keys, at the top, in an attempt or as a file name', () => {
    const json = progressJson([solved()], EXPORTED);
    expect(errorOf(parseProgressJson(json.replace('{', '{"__proto__": {"polluted": true},')))).toBe('The file has a key named "__proto__", which is never part of progress files and is refused as a prototype-pollution attempt');
    expect(errorOf(parseProgressJson(json.replace('"exercise"', '"constructor": 1, "exercise"')))).toBe('attempts[0] has a key named "constructor", which is never part of progress files and is refused as a prototype-pollution attempt');
    expect(errorOf(parseProgressJson(json.replace('"blake3.ts"', '"__proto__"')))).toBe('attempts[0].files has a key named "__proto__", which is never part of progress files and is refused as a prototype-pollution attempt');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('when it is too large: the file, the number of attempts, the files of one, one file\'s code, one text', async () => {
    const big = new Blob([new Uint8Array(MAX_PROGRESS_BYTES + 1)]);
    let read = false;
    // If the size were checked after reading, this would be called.
    Object.defineProperty(big, 'arrayBuffer', { value: () => ((read = true), Promise.reject(new Error('read'))) });
    expect(errorOf(await readProgressFile(big))).toBe(`This file is ${MAX_PROGRESS_BYTES + 1} bytes, more than the limit of 5 MB for progress files`);
    expect(read).toBe(false);

    const many = Array.from({ length: MAX_ATTEMPTS + 1 }, failed);
    expect(refusal(document(many))).toBe(`attempts has ${MAX_ATTEMPTS + 1} attempts; the limit is ${MAX_ATTEMPTS}`);
    const files = Object.fromEntries(Array.from({ length: MAX_FILES + 1 }, (_, i) => [`f${i}.ts`, '']));
    expect(refusal(document([{ ...failed(), files }]))).toBe(`attempts[0].files has ${MAX_FILES + 1} files; the limit is ${MAX_FILES}`);
    const long = { 'blake3.ts': 'x'.repeat(MAX_CODE_CHARS + 1) };
    expect(refusal(document([{ ...failed(), files: long }]))).toBe(`attempts[0].files["blake3.ts"] is ${MAX_CODE_CHARS + 1} characters long; the limit is ${MAX_CODE_CHARS}`);
    expect(refusal(document([{ ...failed(), browser: 'B'.repeat(61) }]))).toBe('attempts[0].browser is 61 characters long; the limit is 60');
  });
});

describe('an import adds only attempts not kept yet', () => {
  it('skips an attempt kept already (the same exercise, time and files, in any order) and one the file holds twice', () => {
    const twoFiles: Attempt = { ...failed(), files: { 'a.ts': 'a', 'b.ts': 'b' } };
    const reordered: Attempt = { ...twoFiles, files: { 'b.ts': 'b', 'a.ts': 'a' } };
    const edited: Attempt = { ...twoFiles, files: { 'a.ts': 'a', 'b.ts': 'b2' } };
    const later: Attempt = { ...twoFiles, time: '2026-11-30T09:21:00.000Z' };
    expect(attemptsToAdd([twoFiles], [reordered, edited, later, solved(), solved()])).toEqual([edited, later, solved()]);
    expect(attemptsToAdd([twoFiles, edited, later, solved()], [twoFiles, edited, later, solved()])).toEqual([]);
  });
});
