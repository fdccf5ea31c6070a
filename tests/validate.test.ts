// Untrusted results: every case of the hostile corpus gets its own exact message, and
// valid documents come back as fresh, equal objects.
import { describe, expect, it } from 'vitest';
import { toBenchfmt } from '../src/core/results/io/benchfmt-write.ts';
import { readResultsFile, resultsToBlob, suggestedFileName } from '../src/core/results/io/io.ts';
import { MAX_RESULTS_BYTES } from '../src/core/results/io/limits.ts';
import { parseResultsJson, validateResults, type ResultsCheck } from '../src/core/results/io/validate.ts';
import { BAD_FILES, BAD_TEXT, validResults } from './fixtures/bad-inputs.ts';

function errorOf(check: ResultsCheck): string {
  if (check.ok) throw new Error('expected the input to be refused, but it was accepted');
  return check.error;
}

describe('parseResultsJson refuses each broken or hostile document with its own message', () => {
  it('has a large corpus of distinct cases', () => {
    expect(BAD_TEXT.length + BAD_FILES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(BAD_TEXT.map((c) => c.text)).size).toBe(BAD_TEXT.length);
  });

  it.each(BAD_TEXT.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const error = errorOf(parseResultsJson(c.text));
    if (typeof c.error === 'string') expect(error).toBe(c.error);
    else expect(error).toMatch(c.error);
  });
});

describe('readResultsFile refuses files that are not UTF-8 JSON', () => {
  it.each(BAD_FILES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    expect(errorOf(await readResultsFile(new Blob([c.bytes as Uint8Array<ArrayBuffer>])))).toBe(c.error);
  });

  it('refuses a file over the size limit without reading it', async () => {
    const big = new Blob([new Uint8Array(MAX_RESULTS_BYTES + 1)]);
    let read = false;
    // If the size check came after reading, this would be called.
    Object.defineProperty(big, 'arrayBuffer', { value: () => ((read = true), Promise.reject(new Error('read'))) });
    expect(errorOf(await readResultsFile(big))).toBe(
      `This file is ${MAX_RESULTS_BYTES + 1} bytes, more than the limit of ${MAX_RESULTS_BYTES / (1024 * 1024)} MB for results files (a real run is well under 1 MB)`,
    );
    expect(read).toBe(false);
  });
});

describe('readResultsFile refuses nesting deeper than results before parsing it', () => {
  const TOO_DEEP = 'This is not a BLAKE3 Lab results file: it nests lists or objects more than 4 deep, deeper than any results document';

  it.each([
    ['nested lists', '['.repeat(500_000) + ']'.repeat(500_000)],
    ['nested objects after a byte-order mark and blank lines', '\ufeff\n\n' + '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)],
    ['lists nested in a run', JSON.stringify(validResults()).replace('[5120.5,', '[[[[5120.5]]],')],
  ])('%s', async (_name, text) => {
    expect(errorOf(await readResultsFile(new Blob([text])))).toBe(TOO_DEEP);
  });
});

describe('valid documents', () => {
  it('are accepted and returned as a fresh deep copy', () => {
    const input = validResults();
    const check = validateResults(input);
    if (!check.ok) throw new Error(check.error);
    expect(check.results).toEqual(input);
    expect(check.results).not.toBe(input);
    expect(check.results.env).not.toBe(input.env);
    expect(check.results.config.sizes).not.toBe(input.config.sizes);
    expect(check.results.runs[0]).not.toBe(input.runs[0]);
    expect(check.results.runs[0].nsPerOp).not.toBe(input.runs[0].nsPerOp);
  });

  it('are accepted from JSON text, with or without a UTF-8 byte-order mark', async () => {
    const json = JSON.stringify(validResults());
    expect(parseResultsJson(json)).toEqual({ ok: true, results: validResults() });
    expect(parseResultsJson('\ufeff' + json)).toEqual({ ok: true, results: validResults() });
    const file = new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), json]);
    expect(await readResultsFile(file)).toEqual({ ok: true, results: validResults() });
  });

  it('round-trip through the file format', async () => {
    const blob = resultsToBlob(validResults());
    expect(blob.type).toBe('application/json');
    expect(await readResultsFile(blob)).toEqual({ ok: true, results: validResults() });
  });

  it('come back from the exported Go benchmark text as well as from JSON', async () => {
    expect(await readResultsFile(new Blob([toBenchfmt(validResults())]))).toEqual({ ok: true, results: validResults() });
  });

  it('are not made up from Go benchmark text that BLAKE3 Lab did not export', async () => {
    const foreign = 'goos: linux\nBenchmarkSum-8   1000   1234 ns/op\n';
    expect(errorOf(await readResultsFile(new Blob([foreign])))).toMatch(/not exported by BLAKE3 Lab .* cannot be imported as results/);
  });

  it('may leave out the optional label and reasons', () => {
    const doc = validResults();
    delete doc.env.label;
    for (const run of doc.runs) delete run.reason;
    const check = validateResults(doc);
    expect(check.ok && check.results).toEqual(doc);
    expect(check.ok && 'label' in check.results.env).toBe(false);
  });

  it('keep HTML, quotes and non-Latin text in labels as plain text, unchanged', () => {
    const doc = validResults();
    doc.env.label = '<img src=x onerror="alert(1)"> & <b>Zoë</b> 🚀 مختبر';
    doc.contestants[0].title = '</script><script>alert(1)</script>';
    const check = parseResultsJson(JSON.stringify(doc));
    if (!check.ok) throw new Error(check.error);
    expect(check.results.env.label).toBe(doc.env.label);
    expect(check.results.contestants[0].title).toBe(doc.contestants[0].title);
  });

  it('keep how many threads a contestant hashed on and its note, and refuse a count of none', () => {
    const doc = validResults();
    Object.assign(doc.contestants[0], { threads: 2, note: 'hashes inputs of 256 KiB or more on 2 threads at once' });
    const check = validateResults(doc);
    expect(check.ok && check.results.contestants[0]).toMatchObject({ threads: 2, note: doc.contestants[0].note });
    doc.contestants[0].threads = 0;
    expect(errorOf(validateResults(doc))).toMatch(/^contestants\[0\]\.threads/);
  });

  it('keep a run on inputs in shared memory as such, and refuse anything but true there', () => {
    const doc = validResults();
    expect(validateResults(doc).ok && 'sharedInput' in doc.config).toBe(false);
    Object.assign(doc.config, { sharedInput: true });
    const check = validateResults(doc);
    expect(check.ok && check.results.config.sharedInput).toBe(true);
    Object.assign(doc.config, { sharedInput: 'yes' });
    expect(errorOf(validateResults(doc))).toMatch(/^config\.sharedInput is .*expected true/);
  });

  it('keep line breaks and tabs in a reason, which may quote an error message', () => {
    const doc = validResults();
    doc.runs[4].reason = 'threw on a 64-byte input:\n\tRangeError: Array buffer allocation failed';
    const check = validateResults(doc);
    expect(check.ok && check.results.runs[4].reason).toBe(doc.runs[4].reason);
  });

  it('accept every status, Node results and limits exactly at their bounds', () => {
    const doc = validResults();
    doc.env.runtime = 'node';
    doc.env.label = 'x'.repeat(80);
    doc.config.sizes = [1, 1024 * 1024 * 1024];
    doc.contestants = [{ id: 'fault-hangs', title: 'Hangs', kind: 'peer', version: 'v1' }];
    doc.runs = [
      { contestant: 'fault-hangs', runtime: 'chromium', size: 1, status: 'cancelled', iterations: 10, nsPerOp: [0.001, 1e12] },
      { contestant: 'fault-hangs', runtime: 'chromium', size: 1073741824, status: 'cancelled', iterations: 0, nsPerOp: [] },
    ];
    const check = validateResults(doc);
    expect(check.ok && check.results).toEqual(doc);
  });

  it('never let a __proto__ key reach Object.prototype', () => {
    const text = JSON.stringify(validResults()).replace('{"id"', '{"__proto__":{"polluted":true},"id"');
    expect(parseResultsJson(text).ok).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('are refused when built in code with NaN, which JSON cannot carry', () => {
    const doc = validResults();
    doc.runs[3].nsPerOp[2] = NaN;
    expect(errorOf(validateResults(doc))).toBe('runs[3].nsPerOp[2] is NaN: samples must be numbers of nanoseconds');
  });
});

describe('suggestedFileName', () => {
  it('uses a file-system-safe label and the date', () => {
    expect(suggestedFileName(validResults())).toBe('blake3-lab-ana-s-laptop-2026-03-14-1509.json');
    const doc = validResults();
    doc.env.label = '../../etc/passwd <Zoë>';
    expect(suggestedFileName(doc)).toBe('blake3-lab-etc-passwd-zoe-2026-03-14-1509.json');
    delete doc.env.label;
    expect(suggestedFileName(doc)).toBe('blake3-lab-2026-03-14-1509.json');
  });
});
