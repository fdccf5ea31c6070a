// The self-test page in real headless Chromium, against the built app: every stage and
// every BLAKE3 library must pass all 35 official vectors in a Web Worker, under the
// production headers and CSP, loading no .wasm file and calling no other origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { BASELINES } from '../../steps/baselines.ts';
import { launchBrowser, openApp } from './harness.ts';

interface Row {
  id: string;
  verdict: string | null;
  vectors: string | null;
  larger: string | null;
  text: string;
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

    const rows: Row[] = await page.locator('#rows tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        id: tr.id.replace(/^row-/, ''),
        verdict: tr.getAttribute('data-verdict'),
        vectors: tr.getAttribute('data-vectors'),
        larger: tr.getAttribute('data-larger'),
        text: (tr as HTMLElement).innerText.replace(/\s+/g, ' '),
      })),
    );
    const expectedIds = [
      ...STAGES.map((stage) => stage.id),
      ...BASELINES.filter((baseline) => baseline.digest === 'blake3').map((baseline) => baseline.id),
    ];
    expect(rows.map((row) => row.id)).toEqual(expectedIds);
    for (const row of rows) {
      expect({ id: row.id, verdict: row.verdict, vectors: row.vectors }, row.text).toEqual({
        id: row.id,
        verdict: 'pass',
        vectors: '35/35',
      });
      const [passed, total] = (row.larger ?? '').split('/').map(Number);
      expect(total, `${row.id} checked larger inputs`).toBeGreaterThan(0);
      expect(passed, row.text).toBe(total);
    }
    expect(await page.locator('body').getAttribute('data-status')).toBe('pass');
    expect(await page.locator('#status').textContent()).toMatch(/^All \d+ passed/);

    expect(workers.some((url) => url.includes('selftest.worker')), `workers started: ${workers.join(', ')}`).toBe(true);
    expect(wasmRequests).toEqual([]);
    expect(errors).toEqual([]);
    expect(foreignRequests).toEqual([]);
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
