// Results leave the page and come back unchanged: a share link opens, in a fresh
// browser context, to the same tables; an exported file imports to the same tables; a
// broken link or file shows the validator's message and changes nothing.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { choosePlan, runToEnd } from './bench-helpers.ts';
import { baseURL, downloaded, launchBrowser, openApp } from './harness.ts';
import { MEDIAN_CELL, paintedPixels, tableTexts } from './results-helpers.ts';

const TABLES = ['throughput-table', 'steps-table', 'baseline-table'];

function tables(page: Page) {
  return tableTexts(page, TABLES);
}

async function shortRun(page: Page, label: string): Promise<void> {
  await choosePlan(page, { contestants: ['02-precomputed-permutations', '03-inline-round', 'blake3-wasm'], sizes: [96, 1024], rounds: 3 });
  await page.getByTestId('label').fill(label);
  await runToEnd(page);
}

describe('sharing, exporting and importing results', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens a share link to the same numbers, labelled with where they were measured', async () => {
    // A label that would run script if it were ever treated as HTML.
    const label = `<img src=x onerror="window.__pwned=1">Ana's laptop`;
    const { page, errors } = await openApp(browser, '/#/bench');
    await shortRun(page, label);
    const original = await tables(page);
    expect(original['throughput-table']).toHaveLength(3);
    expect(original['throughput-table'][0][1]).toMatch(MEDIAN_CELL);

    await page.getByTestId('share').click();
    const link = page.getByTestId('share-link');
    await expect.poll(() => link.inputValue().catch(() => ''), { timeout: 15_000 }).toMatch(/#\/share\/[A-Za-z0-9_.-]+$/);
    const url = await link.inputValue();
    expect(url.startsWith(`${baseURL()}/#/share/`)).toBe(true);

    const shared = await openApp(browser, url.slice(baseURL().length));
    await expect.poll(() => shared.page.locator('[data-testid="throughput-table"] tbody tr').count(), { timeout: 15_000 }).toBe(3);
    expect(await tables(shared.page)).toEqual(original);
    expect(await shared.page.getByTestId('shared-name').textContent()).toBe(label);
    expect(await shared.page.locator('main img').count()).toBe(0);
    expect(await shared.page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect.poll(() => paintedPixels(shared.page), { timeout: 15_000 }).toBeGreaterThan(1000);
    // From there, straight into a comparison: the shared set fills the second side.
    await shared.page.getByTestId('compare-shared').click();
    await expect.poll(() => shared.page.getByTestId('side-1').textContent()).toContain('From a shared link.');
    expect(await shared.page.getByTestId('side-1').getByTestId('env').textContent()).toContain(label);

    // A link cut short in transit says so instead of showing anything.
    const cut = await openApp(browser, url.slice(baseURL().length, -12));
    await expect.poll(() => cut.page.getByTestId('share-error').textContent().catch(() => ''), { timeout: 15_000 }).toMatch(/does not carry readable results/);
    expect([...errors, ...shared.errors, ...cut.errors]).toEqual([]);
  });

  it('exports JSON and Go benchmark text, and imports either file elsewhere to the same numbers', async () => {
    const { page, errors } = await openApp(browser, '/#/bench');
    await shortRun(page, 'exported');
    const original = await tables(page);

    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    expect(json.suggestedFilename()).toMatch(/^blake3-lab-exported-.*\.json$/);
    const jsonPath = await downloaded(json);
    const [go] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-go').click()]);
    expect(go.suggestedFilename()).toMatch(/\.txt$/);
    const goText = await readFile(await downloaded(go), 'utf8');
    expect(goText).toMatch(/^BenchmarkBLAKE3\/stage=02-precomputed-permutations\/size=1KiB\S*\s+\d+\s+[\d.]+ ns\/op\s+[\d.]+ MB\/s$/m);

    // Another browser profile, with no results of its own.
    const other = await openApp(browser, '/#/results');
    await expect.poll(() => other.page.locator('main').textContent()).toMatch(/No results yet/);
    await other.page.getByTestId('import').locator('input[type="file"]').setInputFiles(jsonPath);
    await expect.poll(() => other.page.locator('[data-testid="throughput-table"] tbody tr').count(), { timeout: 15_000 }).toBe(3);
    expect(await tables(other.page)).toEqual(original);
    await expect.poll(() => other.page.getByTestId('results-source').textContent()).toMatch(/Imported from/);

    // The Go text imports too: its "# blake3-lab" comments carry what Go's format has no place for.
    const third = await openApp(browser, '/#/results');
    await third.page.getByTestId('import').locator('input[type="file"]').setInputFiles(await downloaded(go));
    await expect.poll(() => third.page.locator('[data-testid="throughput-table"] tbody tr').count(), { timeout: 15_000 }).toBe(3);
    expect(await tables(third.page)).toEqual(original);

    // A broken file dropped on the import zone: the validator's message, the results untouched.
    await other.page.getByTestId('import').evaluate((zone) => {
      const data = new DataTransfer();
      const bad = { format: 'blake3-lab-results', version: 1, env: {}, config: {}, contestants: [], runs: [] };
      data.items.add(new File([JSON.stringify(bad)], 'broken.json', { type: 'application/json' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    const alert = other.page.getByTestId('import').getByRole('alert');
    await expect.poll(() => alert.textContent().catch(() => ''), { timeout: 10_000 }).toMatch(/^broken\.json: .*env/);
    expect(await tables(other.page)).toEqual(original);
    expect([...errors, ...other.errors, ...third.errors]).toEqual([]);
  });
});
