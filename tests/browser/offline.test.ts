// The app installed and offline: Chromium finds nothing missing to install it, and after
// one visit (the service worker precaches the build once the page has loaded) the lesson
// works with the server gone: a reload, every stage, the Go track, the benchmark and its
// share link, results, compare, the file page, the playground's editor, its check and
// measure and an exercise's (in the sandbox, whose page the cache serves with its own
// headers), presenter mode, and a run still measures with stage 11's workers,
// cross-origin isolated.
// The app is served by a `vite preview` of this file's own over the run's one build, so
// the test can stop it; a service worker needs a fresh context per test.
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { STAGES } from '../../steps/index.ts';
import { GO_STAGES } from '../../src/app/go/stages.ts';
import { choosePlan, runToEnd, throughputRow } from './bench-helpers.ts';
import { CHROMIUM_FLAGS, launchBrowser, screenshots, TEST_CHROMIUM } from './harness.ts';

async function serve(outDir: string): Promise<{ server: PreviewServer; origin: string }> {
  const server = await preview({ logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const address = server.resolvedUrls?.local[0];
  if (!address) throw new Error('vite preview did not report a local URL');
  return { server, origin: address.replace(/\/$/, '') };
}

/** Opens the app in a fresh context and waits until its service worker has precached the build and controls the page. */
async function firstVisit(browser: Browser, origin: string, path = '/#/'): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(origin + path);
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated' && navigator.serviceWorker.controller !== null), { timeout: 60_000 })
    .toBe(true);
  return { context, page, errors };
}

const heading = (page: Page) => page.locator('main h1').textContent({ timeout: 5000 }).catch(() => null);

describe('the app installed and offline', () => {
  let browser: Browser;
  let server: PreviewServer | undefined;
  let origin: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    ({ server, origin } = await serve(inject('distDir')));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('is installable: Chromium reports no installability error, and the manifest has its icons', async () => {
    // A profile on disk: Chromium installs nothing from an incognito-like context.
    const profile = mkdtempSync(join(tmpdir(), 'blake3-lab-install-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: TEST_CHROMIUM, args: CHROMIUM_FLAGS });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${origin}/#/`);
    await page.locator('main h1').waitFor();
    const cdp = await context.newCDPSession(page);
    await expect.poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, { timeout: 30_000 }).toEqual([]);
    const manifest = await (await fetch(`${origin}/manifest.webmanifest`)).json();
    expect(manifest).toMatchObject({ display: 'standalone', start_url: '/', scope: '/' });
    for (const icon of manifest.icons) expect((await fetch(`${origin}/${icon.src}`)).status, icon.src).toBe(200);
    expect(manifest.icons.some((icon: { purpose?: string }) => icon.purpose === 'maskable')).toBe(true);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('after one visit works with the server stopped: every page, a run with stage 11, its share link, a file, the playground and an exercise', async () => {
    const { context, page, errors } = await firstVisit(browser, origin);
    await server!.close();
    server = undefined;
    await context.setOffline(true);
    expect((await fetch(`${origin}/`).then((r) => r.status, () => 'refused'))).toBe('refused');

    await page.reload();
    await expect.poll(() => heading(page)).not.toBeNull();
    await screenshots(page, 'offline-reload');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);

    for (const stage of STAGES) {
      await page.evaluate((hash) => (location.hash = hash), `#/stage/${stage.index}`);
      await expect.poll(() => heading(page), { timeout: 15_000 }).toBe(stage.title);
    }
    for (const [index, stage] of GO_STAGES.entries()) {
      await page.evaluate((hash) => (location.hash = hash), `#/go/${index}`);
      await expect.poll(() => heading(page), { timeout: 15_000 }).toBe(stage.title);
    }
    for (const [hash, title] of [
      ['#/results', /Results/],
      ['#/compare', /Compare/],
      ['#/file', /Hash a file/],
    ] as const) {
      await page.evaluate((to) => (location.hash = to), hash);
      await expect.poll(() => heading(page), { timeout: 15_000 }).toMatch(title);
    }

    // The file page hashes a file (its workers and their WebAssembly come from the cache).
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(1025).fill(7)], 'offline.bin'));
      const input = document.querySelector<HTMLInputElement>('[data-testid="file-input"]')!;
      input.files = transfer.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await expect.poll(() => page.locator('[data-testid="file-result"]').first().textContent({ timeout: 1000 }).catch(() => ''), { timeout: 30_000 }).toMatch(/^[0-9a-f]{64}  offline\.bin$/);

    // The playground's editor (Monaco and its workers).
    await page.evaluate(() => (location.hash = '#/playground/1'));
    await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });

    // Its check and measure, in the sandbox: its page comes from the cache with its own headers.
    for (const box of await page.locator('input[data-testid^="size-"]').all()) await box.uncheck();
    await page.getByTestId('size-1024').check();
    await page.getByTestId('rounds').selectOption('5');
    await page.getByTestId('check-and-measure').click();
    await page.getByTestId('check-and-measure').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('check-passed').textContent()).toMatch(/^✓ Correct on all \d+ inputs/);
    await page.getByTestId('verdict').waitFor();

    // An exercise checks and measures stage 1's code as it is. Five rounds are too few for a
    // median's 95% interval, so the verdict is "Cannot tell yet": what counts is that there is one.
    await page.evaluate(() => (location.hash = '#/exercise/2'));
    await page.getByTestId('check-and-measure').waitFor({ timeout: 60_000 });
    await page.getByTestId('rounds').selectOption('5');
    await page.getByTestId('check-and-measure').click();
    await page.getByTestId('check-and-measure').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('exercise-verdict').textContent()).toMatch(/^(Done|Cannot tell yet)/);

    // Presenter mode.
    await page.evaluate(() => (location.hash = '#/stage/3'));
    await expect.poll(() => heading(page)).toBe(STAGES[3].title);
    await page.locator('main h1').click();
    await page.keyboard.press('p');
    await expect.poll(() => page.evaluate(() => document.documentElement.hasAttribute('data-presenter'))).toBe(true);
    await page.keyboard.press('Escape');

    // A short run with stage 11's workers, still cross-origin isolated, and its share link.
    await page.evaluate(() => (location.hash = '#/bench'));
    const every = STAGES[STAGES.length - 1];
    await choosePlan(page, { contestants: ['10-simd-one-block', every.id], sizes: [65536], rounds: 2 });
    await runToEnd(page);
    expect(await throughputRow(page, `${every.index}. ${every.title}`)).not.toBeNull();
    await expect.poll(() => page.getByTestId('env').textContent()).toContain('cross-origin isolated');
    await page.getByTestId('share').click();
    const link = page.getByTestId('share-link');
    await expect.poll(() => link.inputValue().catch(() => ''), { timeout: 15_000 }).toMatch(/#\/share\/[A-Za-z0-9_.-]+$/);
    const shared = await context.newPage();
    await shared.goto(await link.inputValue());
    await expect.poll(() => shared.locator('[data-testid="throughput-table"] tbody tr').count(), { timeout: 15_000 }).toBe(2);

    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a new build while the app is open', () => {
  let browser: Browser;
  let dir: string;
  let server: PreviewServer | undefined;
  let origin: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    dir = mkdtempSync(join(tmpdir(), 'blake3-lab-update-'));
    cpSync(inject('distDir'), dir, { recursive: true });
    ({ server, origin } = await serve(dir));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says a new version is ready and reloads only when asked', async () => {
    const { context, page, errors } = await firstVisit(browser, origin);
    const version = await page.getByTestId('app-version').textContent();
    expect(version).toMatch(/^\d+\.\d+\.\d+ \(/);
    let documents = 0;
    page.on('request', (request) => void (request.resourceType() === 'document' && documents++));

    // A new build: its service worker differs (a new precache list, here a new file in it).
    const worker = join(dir, 'sw.js');
    writeFileSync(worker, readFileSync(worker, 'utf8').replace('"url":"index.html"}', '"url":"index.html"},{"url":"new-in-this-build.txt","revision":"1"}'));
    writeFileSync(join(dir, 'new-in-this-build.txt'), 'new');
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());

    const notice = page.getByRole('status').filter({ hasText: 'A new version of BLAKE3 Lab is ready' });
    await expect.poll(() => notice.isVisible(), { timeout: 30_000 }).toBe(true);
    await screenshots(page, 'offline-update');
    expect(documents, 'no reload by itself').toBe(0);

    await notice.getByRole('button', { name: 'Reload to update' }).click();
    await expect.poll(() => documents, { timeout: 15_000 }).toBe(1);
    await page.locator('main h1').waitFor();
    expect(await notice.isVisible()).toBe(false);
    // The new build's files are the ones cached; the old build's cache keeps no stray entry.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      return urls;
    });
    expect(cached.some((url) => url.includes('new-in-this-build.txt'))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
