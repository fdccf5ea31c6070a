// A browser without WebAssembly SIMD, or without WebCrypto, simulated by overriding the
// capability probe before the app loads. The contestant that needs the missing feature
// is shown as unavailable with the reason, before and after a run; everything else runs
// as usual.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { parseResultsJson } from '../../src/core/results/io/validate.ts';
import { choosePlan, runNotes, runToEnd, throughputRow } from './bench-helpers.ts';
import { downloaded, launchBrowser, openApp } from './harness.ts';

const SIMD_REASON = 'needs WebAssembly SIMD (128-bit vectors), which this browser does not offer';
const CRYPTO_REASON = 'needs WebCrypto (crypto.subtle), which is only offered on secure (https or localhost) pages';

const cases = [
  {
    missing: 'WebAssembly SIMD',
    override: '{ wasmSimd: false }',
    lacking: { id: '09-simd-wasm', title: '9. SIMD WebAssembly', reason: SIMD_REASON },
    others: [
      { id: '08-little-endian', title: '8. Little-endian fast path' },
      { id: 'sha256', title: 'SHA-256 (native)' },
    ],
  },
  {
    missing: 'WebCrypto',
    override: '{ webCrypto: false }',
    lacking: { id: 'sha256', title: 'SHA-256 (native)', reason: CRYPTO_REASON },
    others: [
      { id: '08-little-endian', title: '8. Little-endian fast path' },
      { id: '09-simd-wasm', title: '9. SIMD WebAssembly' },
    ],
  },
];

describe('missing capabilities', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(cases)('without $missing: $lacking.id is unavailable with the reason, the rest run', async ({ override, lacking, others }) => {
    const opened = await openApp(browser, '/#/bench', { beforeLoad: `globalThis.__BLAKE3_LAB_CAPABILITIES__ = ${override};` });
    const { page } = opened;

    // Before any run, the form says why.
    const option = page.locator('label.option', { has: page.getByTestId(`pick-${lacking.id}`) });
    await expect.poll(() => option.textContent().then((text) => text?.replace(/\s+/g, ' '))).toContain(`unavailable here: ${lacking.reason}`);
    for (const other of others) {
      const text = await page.locator('label.option', { has: page.getByTestId(`pick-${other.id}`) }).textContent();
      expect(text, other.id).not.toContain('unavailable');
    }

    await choosePlan(page, { contestants: [lacking.id, ...others.map((o) => o.id)], sizes: [1024], rounds: 2 });
    await runToEnd(page);

    expect(await runNotes(page)).toEqual([`unavailable ${lacking.title} at 1 KiB: ${lacking.reason}`]);
    expect((await throughputRow(page, lacking.title))?.[1]).toBe('unavailable');
    for (const other of others) {
      const row = await throughputRow(page, other.title);
      expect(row, other.title).not.toBeNull();
      expect(row![1], other.title).toMatch(/\d/);
    }
    // The override reached the results document too: it says what this "browser" lacks.
    const env = await page.getByTestId('env').textContent();
    if (lacking.id === '09-simd-wasm') expect(env).toContain('no WASM SIMD');

    // The exported document records the run as unavailable, and imports again.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const exported = parseResultsJson(await readFile(await downloaded(download), 'utf8'));
    if (!exported.ok) throw new Error(`the exported file does not import: ${exported.error}`);
    expect(exported.results.runs.find((run) => run.contestant === lacking.id)).toMatchObject({ status: 'unavailable', reason: lacking.reason, nsPerOp: [] });

    expect(opened.errors).toEqual([]);
    expect(opened.foreignRequests).toEqual([]);
  });
});
