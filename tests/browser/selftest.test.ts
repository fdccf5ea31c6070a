// The self-test page in real headless Chromium, Firefox and WPE WebKit, against the built
// app: every stage and every BLAKE3 library must pass all 35 official vectors in a Web
// Worker, under the production headers and CSP, loading no .wasm file and calling no
// other origin. Only a stage that needs what the engine lacks (WebAssembly SIMD in
// Debian's WPE WebKit 2.38) may be marked unavailable instead, and says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { BASELINES } from '../../steps/baselines.ts';
import { baseURL, launchBrowser, launchFirefox, openApp } from './harness.ts';
import { launchWebKit } from '../../src/node/webkit.ts';
import { SIMD_PROBE } from '../../src/core/bench/capabilities.ts';

interface Row {
  id: string;
  verdict: string | null;
  vectors: string | null;
  larger: string | null;
  text: string;
}

/** Every stage and every BLAKE3 library, in the page's order. */
const EXPECTED_IDS = [
  ...STAGES.map((stage) => stage.id),
  ...BASELINES.filter((baseline) => baseline.digest === 'blake3').map((baseline) => baseline.id),
];

/** Reads the table's rows in the page (runs in the browser, so only plain DOM). */
function readRows(): Row[] {
  return [...document.querySelectorAll<HTMLTableRowElement>('#rows tr')].map((tr) => ({
    id: tr.id.replace(/^row-/, ''),
    verdict: tr.getAttribute('data-verdict'),
    vectors: tr.getAttribute('data-vectors'),
    larger: tr.getAttribute('data-larger'),
    text: tr.innerText.replace(/\s+/g, ' '),
  }));
}

/** Every row passed; with `noSimd`, the stages that need WebAssembly SIMD are unavailable instead. */
function expectAllPassed(rows: Row[], noSimd = false): void {
  expect(rows.map((row) => row.id)).toEqual(EXPECTED_IDS);
  for (const row of rows) {
    if (noSimd && STAGES.find((stage) => stage.id === row.id)?.requires === 'wasm-simd') {
      expect({ id: row.id, verdict: row.verdict }, row.text).toEqual({ id: row.id, verdict: 'unavailable' });
      expect(row.text).toMatch(/no WebAssembly SIMD/);
      continue;
    }
    expect({ id: row.id, verdict: row.verdict, vectors: row.vectors }, row.text).toEqual({ id: row.id, verdict: 'pass', vectors: '35/35' });
    const [passed, total] = (row.larger ?? '').split('/').map(Number);
    expect(total, `${row.id} checked larger inputs`).toBeGreaterThan(0);
    expect(passed, row.text).toBe(total);
  }
  // Stage 11 hashed the larger inputs on its pool, nested in the self-test's worker (where it could run).
  if (!noSimd) {
    const everyCore = rows.find((row) => row.id === '11-every-core')?.text;
    expect(everyCore).toMatch(/on \d+ threads at once/);
    // Right after loading, with no pause: the workers must already take pieces.
    expect(everyCore).toMatch(/16 MiB input: its pool workers hashed [1-9]\d* of \d+ pieces/);
  }
}

describe('self-test page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('passes every stage and BLAKE3 library, 35/35 vectors each, in a Web Worker', async () => {
    const { page, errors, foreignRequests } = await openApp(browser, '/selftest.html');
    const wasmRequests: string[] = [];
    const workers: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.wasm')) wasmRequests.push(request.url());
    });
    page.on('worker', (worker) => workers.push(worker.url()));

    await expect
      .poll(() => page.locator('body').getAttribute('data-status'), { timeout: 150_000, interval: 500 })
      .not.toBeNull();

    expectAllPassed(await page.evaluate(readRows));
    expect(await page.locator('body').getAttribute('data-status')).toBe('pass');
    expect(await page.locator('#status').textContent()).toMatch(/^All \d+ passed/);

    expect(workers.some((url) => url.includes('selftest.worker')), `workers started: ${workers.join(', ')}`).toBe(true);
    expect(wasmRequests).toEqual([]);
    expect(errors).toEqual([]);
    expect(foreignRequests).toEqual([]);
    await page.context().close();
  });

  it('reports a contestant that hangs, throws or lies as failed, with the reason, and still checks the rest', async () => {
    // ?faults adds the contestants broken on purpose; ?limit=4 stops the one that hangs after 4 s, three times.
    const { page, errors } = await openApp(browser, '/selftest.html?faults&limit=4');
    await expect.poll(() => page.locator('body').getAttribute('data-status'), { timeout: 150_000, interval: 500 }).toBe('fail');
    const rows = await page.evaluate(readRows);
    const verdicts = Object.fromEntries(rows.map((row) => [row.id, row.verdict]));
    expect(verdicts).toMatchObject({ 'fault-throws': 'fail', 'fault-wrong-digest': 'fail', 'fault-hangs': 'fail', '08-little-endian': 'pass' });
    const text = (id: string) => rows.find((row) => row.id === id)!.text;
    expect(text('fault-hangs')).toMatch(/did not finish within 4 s: it hangs or is far too slow, 3 times/);
    expect(text('fault-throws')).toMatch(/deliberate failure/);
    expect(text('fault-wrong-digest')).toMatch(/wrong digest/);
    expect(await page.locator('#status').textContent()).toMatch(/Fault: hangs/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('links back to the app', async () => {
    const { page, errors } = await openApp(browser, '/selftest.html');
    expect(errors).toEqual([]);
    await page.getByRole('link', { name: /back to blake3 lab/i }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });
});

describe('self-test page in Firefox', () => {
  it('passes every stage and BLAKE3 library in SpiderMonkey, in a Web Worker of an isolated page', async () => {
    const browser = await launchFirefox();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`pageerror: ${error instanceof Error ? error.message : String(error)}`));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      await page.goto(`${baseURL()}/selftest.html`);
      await expect
        .poll(() => page.evaluate(() => document.body.dataset.status ?? null), { timeout: 150_000, interval: 500 })
        .not.toBeNull()
        .catch(async (error: Error) => {
          // Say where it stood: the page names the contestant it is checking.
          const where = await page.evaluate(() => document.getElementById('status')?.textContent).catch(() => 'unreadable');
          throw new Error(`${error.message}; the page says: ${where}`);
        });
      expectAllPassed(await page.evaluate(readRows));
      expect(await page.evaluate(() => document.body.dataset.status)).toBe('pass');
      expect(await page.evaluate(() => [navigator.userAgent, crossOriginIsolated])).toEqual([expect.stringMatching(/Firefox\//), true]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('self-test page in WPE WebKit', () => {
  it('passes every stage and BLAKE3 library in JavaScriptCore; the SIMD stages say the engine has no WebAssembly SIMD', async () => {
    const webkit = await launchWebKit();
    try {
      const { driver } = webkit;
      await driver.get(`${baseURL()}/selftest.html`);
      await expect
        .poll(() => driver.executeScript<string | null>('return document.body.dataset.status || null'), { timeout: 150_000, interval: 500 })
        .not.toBeNull();
      const simd = await driver.executeScript<boolean>(`return WebAssembly.validate(new Uint8Array(${JSON.stringify([...SIMD_PROBE])}))`);
      expectAllPassed(await driver.executeScript<Row[]>(`return (${readRows.toString()})()`), !simd);
      expect(await driver.executeScript('return [document.body.dataset.status, crossOriginIsolated]')).toEqual(['pass', true]);
    } finally {
      await webkit.close();
    }
  });
});
