// Broken and hostile input through the real UI: share links that are garbage, cut short,
// from a newer version or a zip bomb, and results files that are not what they claim.
// Each shows its own message, the page keeps working, and the results already on the
// page stay as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MAX_RESULTS_BYTES } from '../../src/core/results/io/limits.ts';
import { decodeSharePayload, encodeSharePayload, toBase64Url } from '../../src/core/results/io/share.ts';
import { BAD_FILES, BAD_TEXT, validResults } from '../fixtures/bad-inputs.ts';
import { launchBrowser, openApp } from './harness.ts';

const GOOD_LABEL = 'Results before the bad input';

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function goodFile() {
  const doc = validResults();
  doc.env.label = GOOD_LABEL;
  return { name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) };
}

async function importFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.locator('[data-testid="import"] input[type="file"]').setInputFiles(file);
}

/** Imports a valid document, so each test can check that bad input leaves it alone. */
async function withGoodResults(page: Page): Promise<void> {
  await importFile(page, goodFile());
  await expect.poll(() => page.getByTestId('results-source').textContent()).toContain('Imported from good.json');
}

async function expectGoodResultsStill(page: Page): Promise<void> {
  await page.evaluate(() => (location.hash = '#/results'));
  await expect.poll(() => page.getByTestId('results-source').textContent()).toContain('Imported from good.json');
  expect(await page.getByTestId('env').textContent()).toContain(GOOD_LABEL);
  expect(await page.locator('[data-testid="throughput-table"] tbody tr').count()).toBe(validResults().contestants.length);
}

/** The page still navigates and paints. */
async function expectResponsive(page: Page): Promise<void> {
  await page.evaluate(() => (location.hash = '#/stage/2'));
  await expect.poll(() => page.locator('main h1').textContent()).toBe('Precomputed permutations');
  expect(await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve('frame'))))).toBe('frame');
}

describe('bad input through the UI', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('bad share links each show their message, and nothing else changes', async () => {
    const good = await encodeSharePayload(validResults());
    const negative = JSON.stringify(validResults()).replace('30750', '-1');
    const links: [name: string, payload: string][] = [
      ['garbage', 'hello-world'],
      ['truncated', good.slice(0, Math.floor(good.length / 2))],
      ['from a newer version', good.replace(/^1\./, '2.')],
      ['standard base64 instead of base64url', '1.abc+def/ghi'],
      ['a zip bomb', '1.' + toBase64Url(await deflateRaw(new Uint8Array(64 * 1024 * 1024).fill(0x20).fill(0x7b, 0, 1)))],
      ['results with a negative sample', '1.' + toBase64Url(await deflateRaw(new TextEncoder().encode(negative)))],
    ];

    const opened = await openApp(browser, '/#/results');
    const { page } = opened;
    await withGoodResults(page);
    for (const [name, payload] of links) {
      const check = await decodeSharePayload(payload);
      expect(check.ok, name).toBe(false);
      const expected = check.ok ? '' : check.error;
      await page.evaluate((hash) => (location.hash = hash), `#/share/${payload}`);
      await expect.poll(() => page.getByTestId('share-error').textContent(), { timeout: 30_000 }).toContain(expected);
      await expectResponsive(page);
    }
    // Spot-check that the messages are the specific ones, not one generic text.
    const bomb = await decodeSharePayload(links[4][1]);
    expect(!bomb.ok && bomb.error).toBe(`This link expands to more than ${MAX_RESULTS_BYTES / (1024 * 1024)} MB, far more than any real results; it was not opened.`);

    await expectGoodResultsStill(page);
    expect(opened.errors).toEqual([]);
    expect(opened.foreignRequests).toEqual([]);
  });

  it('an empty share link says so', async () => {
    const opened = await openApp(browser, '/#/share/');
    await expect.poll(() => opened.page.locator('main').textContent()).toContain('This share link is empty: it carries no results.');
    await expectResponsive(opened.page);
    expect(opened.errors).toEqual([]);
  });

  it('bad files each show their message, and the imported results stay', async () => {
    // The messages our own code writes; the JSON engine's wording is tested in Node.
    const texts = BAD_TEXT.filter((c) => typeof c.error === 'string' && c.text.length < 1_000_000).filter((c) =>
      [
        'truncated in the middle',
        'newer version 4',
        '__proto__ at the top',
        'extra env field',
        'missing samples',
        'a run of an undeclared contestant',
        'unknown status',
        'duplicated contestant',
        '1e999 (parses as Infinity)',
        'null (JSON.stringify writes NaN as null)',
        'oversize label',
        'too many samples in all',
      ].includes(c.name),
    );
    expect(texts).toHaveLength(12);
    const files = [
      ...texts.map((c) => ({ name: c.name, buffer: Buffer.from(c.text), error: c.error as string })),
      ...BAD_FILES.map((c) => ({ name: c.name, buffer: Buffer.from(c.bytes), error: c.error })),
      {
        name: 'a file over the size limit',
        buffer: Buffer.alloc(MAX_RESULTS_BYTES + 1, 0x20),
        error: `This file is ${MAX_RESULTS_BYTES + 1} bytes, more than the limit of ${MAX_RESULTS_BYTES / (1024 * 1024)} MB for results files (a real run is well under 1 MB)`,
      },
    ];

    const opened = await openApp(browser, '/#/results');
    const { page } = opened;
    await withGoodResults(page);
    const alert = page.locator('[data-testid="import"] [role="alert"]');
    for (const [i, file] of files.entries()) {
      const fileName = `bad-${i}.json`;
      await importFile(page, { name: fileName, mimeType: 'application/json', buffer: file.buffer });
      await expect.poll(() => alert.textContent(), { timeout: 10_000 }).toBe(`${fileName}: ${file.error}`);
      expect(await page.getByTestId('results-source').textContent(), file.name).toContain('Imported from good.json');
    }
    await expectResponsive(page);
    await expectGoodResultsStill(page);
    expect(opened.errors).toEqual([]);
  });

  it('HTML in a label or title is shown as text, in a file and in a link', async () => {
    const doc = validResults();
    doc.env.label = '<img src=x onerror="window.__pwned=1">';
    doc.contestants[0].title = '<b>bold</b><script>window.__pwned=2</script>';

    const opened = await openApp(browser, '/#/results');
    const { page } = opened;
    await importFile(page, { name: 'html.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
    await expect.poll(() => page.getByTestId('env').textContent()).toContain(doc.env.label);
    expect(await throughputTitles(page)).toContain(doc.contestants[0].title);

    await page.evaluate((hash) => (location.hash = hash), `#/share/${await encodeSharePayload(doc)}`);
    await expect.poll(() => page.getByTestId('shared-name').textContent()).toBe(doc.env.label);
    expect(await throughputTitles(page)).toContain(doc.contestants[0].title);

    const injected = await page.evaluate(() => ({
      images: document.querySelectorAll('img[src="x"]').length,
      bold: [...document.querySelectorAll('b')].filter((b) => b.textContent === 'bold').length,
      scripts: [...document.scripts].filter((s) => s.textContent?.includes('__pwned')).length,
    }));
    expect(injected).toEqual({ images: 0, bold: 0, scripts: 0 });
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(opened.errors).toEqual([]);
  });
});

function throughputTitles(page: Page): Promise<string[]> {
  return page.locator('[data-testid="throughput-table"] tbody th').allTextContents();
}
