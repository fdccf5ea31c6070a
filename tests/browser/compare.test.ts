// Two result sets side by side: one side from an exported file, the other from a pasted
// share link, compared row by row with the same statistics as a single run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { choosePlan, runToEnd } from './bench-helpers.ts';
import { downloaded, launchBrowser, openApp } from './harness.ts';
import { MEDIAN_CELL, paintedPixels, tableTexts } from './results-helpers.ts';

async function shortRun(page: Page, label: string): Promise<void> {
  await choosePlan(page, { contestants: ['05-no-copies', '06-message-locals', 'blake3-wasm'], sizes: [96, 1024], rounds: 3 });
  await page.getByTestId('label').fill(label);
  await runToEnd(page);
}

async function compareTable(page: Page): Promise<string[][]> {
  return (await tableTexts(page, ['compare-table']))['compare-table'];
}

describe('compare page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('compares an imported file with a pasted share link', async () => {
    const { page, errors } = await openApp(browser, '/#/bench');
    await shortRun(page, 'first laptop');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const firstFile = await downloaded(download);

    await shortRun(page, 'second laptop');
    await page.getByTestId('share').click();
    await expect.poll(() => page.getByTestId('share-link').inputValue().catch(() => ''), { timeout: 15_000 }).toContain('#/share/');
    const secondLink = await page.getByTestId('share-link').inputValue();

    await page.evaluate(() => (location.hash = '#/compare'));
    // A link that is not one is refused with a reason, and the side stays empty.
    await page.getByTestId('link-1').fill('https://example.com/#/bench');
    await page.getByTestId('side-1').getByRole('button', { name: 'Use link' }).click();
    await expect.poll(() => page.getByTestId('side-1').getByRole('alert').textContent().catch(() => '')).toMatch(/share link/);

    await page.getByTestId('import-0').locator('input[type="file"]').setInputFiles(firstFile);
    await page.getByTestId('link-1').fill(secondLink);
    await page.getByTestId('side-1').getByRole('button', { name: 'Use link' }).click();

    const heads = page.locator('[data-testid="compare-table"] thead th');
    await expect.poll(() => heads.allTextContents(), { timeout: 15_000 }).toEqual([
      'contestant',
      'first laptop',
      'second laptop',
      'vs first',
      'p',
      'Holm p',
    ]);
    // At one size: the three contestants and the geomean, each side with its own median.
    const rows = await compareTable(page);
    expect(rows.map((row) => row[0].replace(/[¹²³⁴⁵⁶⁷⁸⁹⁰]+$/, ''))).toEqual([
      '5. No copies',
      '6. Message in local variables',
      'Rust → WASM (blake3-wasm)',
      'geomean (all sizes)',
    ]);
    for (const row of rows.slice(0, 3)) {
      expect(row[1]).toMatch(MEDIAN_CELL);
      expect(row[2]).toMatch(MEDIAN_CELL);
      expect(row[3]).toMatch(/^(~|[+-][\d.]+%)$/);
      expect(row[4]).toMatch(/^(p=[\d.]+ )?n=3$/);
    }
    await expect.poll(() => paintedPixels(page, '[data-testid="comparison"]'), { timeout: 15_000 }).toBeGreaterThan(1000);

    // Every size in the table, then the sides swapped.
    await page.getByTestId('compare-size').selectOption('all');
    await expect.poll(async () => (await compareTable(page)).length).toBe(7);
    await page.getByRole('button', { name: 'Swap the sides' }).click();
    await expect.poll(() => heads.nth(1).textContent()).toBe('second laptop');
    expect(errors).toEqual([]);
  });
});
