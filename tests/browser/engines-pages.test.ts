// Engines in the app, in real Chromium against the built app: results measured in two
// engines shown side by side, two engines judged against each other on the compare
// page, and the "Every engine" page drawing the committed run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchBrowser, openApp } from './harness.ts';
import { paintedPixels, tableTexts } from './results-helpers.ts';

const RUN = fileURLToPath(new URL('../../data/engines/chromium-firefox-2026-11-27.json', import.meta.url));

describe('engines', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows results of two engines side by side and compares them with statistics', async () => {
    const { page, errors, foreignRequests } = await openApp(browser, '/#/results');
    await page.getByTestId('import').locator('input[type="file"]').setInputFiles(RUN);
    const heads = page.locator('[data-testid="ladder-table"] thead th');
    await expect.poll(() => heads.allTextContents()).toEqual(['contestant', 'Chromium MB/s', '× wasm', 'Firefox MB/s', '× wasm']);
    await expect.poll(() => paintedPixels(page, '[data-testid="engines-view"]')).toBeGreaterThan(1000);
    expect(await page.getByTestId('env').textContent()).toMatch(/2 runtimes.*Chromium [\d.]+ \(V8\).*Firefox [\d.]+ \(SpiderMonkey\)/s);
    // One runtime's full results below, picked by the reader.
    await page.getByTestId('runtime-picker').selectOption('firefox');
    await expect.poll(() => page.getByTestId('results-view').getByRole('heading', { name: 'Throughput' }).count()).toBe(1);

    await page.getByTestId('compare-engines').click();
    const compareHeads = page.locator('[data-testid="compare-table"] thead th');
    await expect.poll(() => compareHeads.allTextContents()).toEqual([
      'contestant',
      expect.stringMatching(/^Chromium [\d.]+$/),
      expect.stringMatching(/^Firefox [\d.]+$/),
      'vs first',
      'p',
      'Holm p',
    ]);
    const rows = (await tableTexts(page, ['compare-table']))['compare-table'];
    expect(rows.find((row) => row[0].startsWith('9. SIMD WebAssembly'))?.[4]).toMatch(/^p=0\.\d+ n=10$/);
    expect(await page.getByTestId('runtime-1').inputValue()).toBe('firefox');
    expect(errors).toEqual([]);
    expect(foreignRequests).toEqual([]);
  });

  it('"Every engine" draws the committed run and fits a phone', async () => {
    const opened = await openApp(browser, '/#/engines');
    const { page } = opened;
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Every engine');
    await expect.poll(() => page.locator('[data-testid="ladder-table"] tbody tr').count()).toBeGreaterThan(10);
    expect(await page.getByTestId('simd-per-engine').textContent()).toMatch(/Chromium: stage 9 [\d,.]+ MB\/s.*Firefox: stage 9 [\d,.]+ MB\/s/s);
    expect(await page.locator('nav[aria-label="Lesson"] [aria-current="page"]').textContent()).toBe('Every engine');
    await page.setViewportSize({ width: 390, height: 844 });
    // The chart's canvas follows the new width one frame later (Chart.js watches its box).
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(opened.errors).toEqual([]);
    expect(opened.foreignRequests).toEqual([]);
  });
});
