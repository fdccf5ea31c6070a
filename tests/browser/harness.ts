// Shared helpers for the browser tests: one Chromium for the whole run, a context per test,
// and a record of everything that should never happen (page errors, console errors,
// requests to another origin). Firefox (puppeteer-core over WebDriver BiDi) is started
// by launchFirefox from src/node/firefox.ts, with a fresh profile.
import { expect, inject } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Download, type Locator, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS, TEST_CHROMIUM } from '../../src/node/chromium-path.ts';

export { CHROMIUM_FLAGS, TEST_CHROMIUM };
export { FIREFOX, launchFirefox } from '../../src/node/firefox.ts';

/**
 * The app's service worker precaches the whole build (16 MB) a few seconds after the
 * load; contexts of tests that are not about it leave it out, so no test waits behind
 * that download (offline.test.ts, security.test.ts and static-host.test.ts let it run).
 */
export const SERVICE_WORKERS = 'block';

export function baseURL(): string {
  return inject('baseURL');
}

/**
 * The run's one Chromium, started by global-setup.ts: each test opens a context of its
 * own, as fresh as a new profile (closing what this returns closes those contexts and
 * leaves Chromium to the next file). With `extra` flags (a host name mapped to 127.0.0.1,
 * a test certificate), which a running browser cannot take, a Chromium of its own.
 */
export async function launchBrowser(extra: string[] = []): Promise<Browser> {
  if (extra.length > 0) return launchOwnBrowser(extra);
  return chromium.connect(inject('chromiumEndpoint'));
}

/**
 * A Chromium of the file's own, in this process: for flags a running browser cannot take,
 * and for pages given files of gigabytes, which the shared browser, reached over a socket,
 * would be sent byte by byte (this one reads them from disk by path). The headless shell,
 * or with `browser: 'chromium'` Chromium itself.
 */
export async function launchOwnBrowser(extra: string[] = [], { browser = 'headless-shell' }: { browser?: 'headless-shell' | 'chromium' } = {}): Promise<Browser> {
  return chromium.launch({ executablePath: browser === 'chromium' ? CHROMIUM : TEST_CHROMIUM, args: [...CHROMIUM_FLAGS, ...extra] });
}

/**
 * With BLAKE3_LAB_SHOTS=folder, saves the page as `name`-1280.png and `name`-390.png there
 * (a laptop and a phone), for looking at a page a test has put in a given state; then the
 * page is back at 1280x800. Without it, nothing: a test run takes no pictures.
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  if (!process.env.BLAKE3_LAB_SHOTS) return;
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await picture(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * With BLAKE3_LAB_SHOTS=folder, saves a picture of `target` (a page, or one part of it) there
 * as `name`.png, for looking at what a test left on screen; without it, nothing.
 */
export async function picture(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const folder = process.env.BLAKE3_LAB_SHOTS;
  if (!folder) return;
  const path = join(folder, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path, ...options });
  else await target.screenshot({ path });
}

/** A download saved where the test can read it (the shared browser keeps its own files to itself). */
export async function downloaded(download: Download): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'blake3-lab-download-')), download.suggestedFilename());
  await download.saveAs(path);
  return path;
}

/** The environment for a command line a test runs: it serves the run's one build, not a build of its own. */
export function cliEnv(): NodeJS.ProcessEnv {
  return { ...process.env, BLAKE3_LAB_DIST: inject('distDir') };
}

export interface OpenedPage {
  page: Page;
  /** Uncaught exceptions and console.error messages seen so far. */
  errors: string[];
  /** URLs of requests that left the app's origin. */
  foreignRequests: string[];
}

/**
 * Opens `path` (e.g. "/#/stage/4") of the served app in a new context and starts
 * recording errors and requests to other origins. `beforeLoad` runs as an init script,
 * before any of the app's code (used to override capability probes).
 */
export async function openApp(
  browser: Browser,
  path = '/',
  options: { beforeLoad?: string; colorScheme?: 'light' | 'dark'; serviceWorkers?: 'allow' | 'block' } = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    serviceWorkers: options.serviceWorkers ?? SERVICE_WORKERS,
    // As a reader who asks for less motion: charts appear drawn and transitions are off, so
    // a test judges each page as it ends up, and the browser paints no frames in between.
    reducedMotion: 'reduce',
  });
  if (options.beforeLoad) await context.addInitScript(options.beforeLoad);
  const page = await context.newPage();
  const origin = new URL(baseURL()).origin;
  const errors: string[] = [];
  const foreignRequests: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  context.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) foreignRequests.push(url);
  });
  await page.goto(baseURL() + path);
  return { page, errors, foreignRequests };
}

/**
 * Waits until the page on screen has drawn every part it loads or draws after its first
 * paint (a "Loading ..." line, a part marked data-after-paint="pending"): until then, parts
 * may still join the page, and a check of its size or layout would judge half a page.
 */
export async function drawn(page: Page, what = 'the page'): Promise<void> {
  const loading = page.locator('main [role="status"]', { hasText: /^Loading / });
  const pending = page.locator('[data-after-paint="pending"]');
  await expect.poll(async () => (await loading.count()) + (await pending.count()), { message: `${what} loads`, timeout: 15_000 }).toBe(0);
}
