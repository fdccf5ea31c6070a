// "Where the time goes" on the stage pages, in the built app: every stage shows it (the
// stored profiles where data/profiles has them, one line where not), "Profile on this
// machine" fills in a real profile in Chromium without freezing the page, a host without
// the profiling policy and Firefox each get their one line, and the slide fits a projector.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { STORIES } from '../../src/app/story/narrative.ts';
import { top, type StoredProfiles } from '../../src/core/profile/profile.ts';
import { baseURL, launchBrowser, launchFirefox, launchOwnBrowser, openApp, type OpenedPage, picture, SERVICE_WORKERS } from './harness.ts';

/**
 * The longest task the page may run while it profiles itself in slices of at most 50 ms:
 * a profile taken in one piece would hold the page for its whole 2.5 s. The bound leaves
 * room for a machine busy with other tests (npm test runs the unit tests and another
 * browser file beside this one, on two cores).
 */
const MAX_TASK_MS = 600;

/** The stored profiles of a stage, when data/profiles has them. */
function stored(stageId: string): StoredProfiles | undefined {
  const file = new URL(`../../data/profiles/${stageId}.json`, import.meta.url);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StoredProfiles) : undefined;
}

/** The first name in this stage's stored top table, as pprof orders it, at the size the section opens on. */
function storedHottest(index: number): string | undefined {
  const bytes = STORIES[index].profile.size ?? 65536;
  const profile = stored(STAGES[index].id)?.profiles.find((p) => p.inputBytes === bytes);
  return profile && top(profile).find((row) => row.flatPercent > 0)?.name;
}

/** Records long tasks from the start, for the page to hand over when asked. */
const RECORD_LONG_TASKS = `
  globalThis.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) globalThis.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
`;
const longTasks = (page: Page) => page.evaluate(() => (globalThis as { __longTasks?: number[] }).__longTasks ?? []);
/** Forgets the long tasks so far (loading the page has its own): what follows is measured alone. */
const forgetLongTasks = (page: Page) => page.evaluate(() => void ((globalThis as { __longTasks?: number[] }).__longTasks = []));

const section = (page: Page) => page.locator('section.where');
const live = (page: Page) => page.getByTestId('live-profile');
/** The names in a top table, first to last. */
const names = (table: ReturnType<Page['locator']>) => table.locator('tbody td.name code').allTextContents();

function expectClean(opened: OpenedPage) {
  expect(opened.errors, 'page errors').toEqual([]);
  expect(opened.foreignRequests, 'requests to other origins').toEqual([]);
}

describe('Where the time goes, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is on every stage page, with the stored profiles or a line that says there are none', async () => {
    const opened = await openApp(browser, '/#/stage/0');
    const { page } = opened;
    for (const stage of STAGES) {
      await page.evaluate((index) => (location.hash = `#/stage/${index}`), stage.index);
      await expect.poll(() => page.locator('main h1').textContent()).toBe(stage.title);
      const where = section(page);
      await expect.poll(() => where.getByRole('heading', { name: 'Where the time goes' }).count(), { timeout: 15_000 }).toBe(1);
      const now = where.locator('.now');
      const hottest = storedHottest(stage.index);
      if (hottest) {
        // The stored profile's table, hottest first, and a sentence from the data.
        await expect.poll(() => names(now.locator('table')), { message: `stage ${stage.index}` }).toContain(hottest);
        expect((await names(now.locator('table')))[0], `stage ${stage.index}'s hottest`).toBe(hottest);
        expect(await where.locator('.sentence').textContent()).toMatch(new RegExp(`of stage ${stage.index > 0 ? stage.index - 1 : 0}’s time at \\d+ KiB`));
        expect(await now.locator('svg[role="img"]').getAttribute('aria-label')).toMatch(/flame graph\. The widest path: /);
      } else {
        await expect.poll(() => now.textContent()).toContain(`No stored profile of stage ${stage.index} yet`);
      }
      // The button is there before any profile is taken.
      expect(await live(page).getByRole('button', { name: 'Profile on this machine' }).count()).toBe(1);
    }
    expectClean(opened);
  });

  it('is sent the profiling policy, so the page may start the JS Self-Profiling API', async () => {
    const response = await fetch(baseURL() + '/');
    expect(response.headers.get('document-policy')).toBe('js-profiling');
    const opened = await openApp(browser, '/#/stage/5');
    const started = await opened.page.evaluate(async () => {
      const Profiler = (globalThis as { Profiler?: new (o: object) => { stop(): Promise<unknown> } }).Profiler;
      if (!Profiler) return 'no Profiler';
      try {
        await new Profiler({ sampleInterval: 10, maxBufferSize: 10 }).stop();
        return 'started';
      } catch (error) {
        return String(error);
      }
    });
    expect(started).toBe('started');
    expectClean(opened);
  });

  it('fills in a live profile of the stage, beside the stored one, in slices: no long task near the whole profile', async () => {
    const opened = await openApp(browser, '/#/stage/5', { beforeLoad: RECORD_LONG_TASKS });
    const { page } = opened;
    const button = live(page).getByRole('button', { name: 'Profile on this machine' });
    await button.waitFor();
    await forgetLongTasks(page);
    await button.click();
    // While it runs the page keeps answering: the progress bar moves.
    await expect.poll(() => live(page).locator('progress').count()).toBe(1);
    await expect.poll(() => live(page).locator('progress').getAttribute('value'), { timeout: 30_000 }).not.toBe('0');
    await expect.poll(() => live(page).locator('figure table').count(), { timeout: 60_000 }).toBe(1);

    const caption = await live(page).locator('figcaption').textContent();
    expect(caption).toMatch(/Stage 5 on this machine, 64 KiB/);
    expect(caption).toMatch(/\d+ samples in 2\.\d s, Chromium \d+/);
    // Stage 5 spends most of its time in compress in every engine: the live profile names it, the function this stage changes.
    const rows = await names(live(page).locator('figure table'));
    expect(rows[0]).toBe('compress');
    expect(await live(page).locator('tbody tr.changed').first().textContent()).toContain('compress');
    expect(await live(page).locator('figure svg[role="img"]').getAttribute('aria-label')).toMatch(/compress/);
    // Set against the stored profile, or said that there is none.
    const verdict = storedHottest(5) ? /Both profiles name `?compress`? the hottest function/ : /No stored profile of stage 5 at 64 KiB/;
    expect(await live(page).textContent()).toMatch(verdict);

    // Chromium offers no profiler to workers by default: the page profiled itself, in slices.
    expect(await live(page).textContent()).toContain('Profiled on the page, in slices of at most 50 ms.');

    const tasks = await longTasks(page);
    expect(Math.max(0, ...tasks), `long tasks while profiling: ${tasks.map(Math.round).join(', ')} ms`).toBeLessThanOrEqual(MAX_TASK_MS);
    expectClean(opened);
  });

  it('profiles stage 0 at 1 KiB, says why, and fits the presenter slide at 1280x800 with it', async () => {
    const opened = await openApp(browser, '/?present#/stage/0', { beforeLoad: RECORD_LONG_TASKS });
    const { page } = opened;
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => section(page).isVisible()).toBe(true);
    await live(page).getByRole('button', { name: 'Profile on this machine' }).waitFor();
    await forgetLongTasks(page);
    await live(page).getByRole('button', { name: 'Profile on this machine' }).click();
    await expect.poll(() => live(page).locator('figure table').count(), { timeout: 60_000 }).toBe(1);
    // One 64 KiB hash of the quadratic stage would hold a slice too long: the profile hashes 1 KiB, and the stored ones follow.
    expect(await live(page).locator('figcaption').textContent()).toMatch(/Stage 0 on this machine, 1 KiB/);
    if (stored(STAGES[0].id)) expect(await section(page).getByRole('button', { name: '1 KiB' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollHeight - innerHeight), { timeout: 5000 }).toBeLessThanOrEqual(0);
    await picture(page, 'presenter-profile-0-live');
    const tasks = await longTasks(page);
    expect(Math.max(0, ...tasks), `long tasks: ${tasks.map(Math.round).join(', ')} ms`).toBeLessThanOrEqual(MAX_TASK_MS);
    expectClean(opened);
  });

  it('says in one line that a host without the profiling policy cannot profile, and keeps the stored profile', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: SERVICE_WORKERS });
    // The same app from a host that sends every header but Document-Policy.
    await context.route(`${baseURL()}/`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['document-policy'];
      await route.fulfill({ response, headers });
    });
    const page = await context.newPage();
    await page.goto(`${baseURL()}/#/stage/3`);
    await live(page).getByRole('button', { name: 'Profile on this machine' }).click();
    const alert = live(page).getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toMatch(/^This host does not send the Document-Policy: js-profiling header/);
    expect(await live(page).locator('figure').count()).toBe(0);
    if (storedHottest(3)) expect(await section(page).locator('.now table').count()).toBe(1);
    await context.close();
  });

  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    it(`is a slide of its own that fits a ${width}x${height} projector`, async () => {
      const opened = await openApp(browser, '/?present#/stage/1');
      const { page } = opened;
      await page.setViewportSize({ width, height });
      for (const index of [0, 1, 5, 9]) {
        await page.evaluate((i) => (location.hash = `#/stage/${i}`), index);
        await expect.poll(() => page.locator('main h1').textContent()).toBe(STAGES[index].title);
        await page.keyboard.press('ArrowRight');
        // The slide is the section alone: the story before it and V8's report after it are hidden.
        await expect.poll(() => section(page).isVisible(), { message: `stage ${index}` }).toBe(true);
        await expect.poll(() => page.locator('main [role="status"]').count(), { timeout: 15_000 }).toBe(0);
        expect(await page.locator('#engine-title').isVisible()).toBe(false);
        expect(await page.locator('#figures-title').isVisible()).toBe(false);
        await expect.poll(() => page.evaluate(() => document.documentElement.scrollHeight - innerHeight), { message: `stage ${index} scrolls` }).toBeLessThanOrEqual(0);
      }
      expectClean(opened);
    });
  }

  it('does not scroll sideways on a 390 px phone', async () => {
    const opened = await openApp(browser, '/#/stage/1');
    const { page } = opened;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const index of [0, 1, 5, 9]) {
      await page.evaluate((i) => (location.hash = `#/stage/${i}`), index);
      await expect.poll(() => section(page).getByRole('heading', { name: 'Where the time goes' }).count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => page.locator('main [role="status"]').count(), { timeout: 15_000 }).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), `stage ${index}`).toBeLessThanOrEqual(0);
      // Nor does anything inside the section scroll on its own.
      const scrolling = await section(page).evaluate((root) =>
        [root, ...root.querySelectorAll('*')].filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible').length,
      );
      expect(scrolling, `stage ${index}: elements scrolling sideways`).toBe(0);
    }
    // A live profile of stage 9 too: its WebAssembly rows carry the longest unbroken names.
    await live(page).getByRole('button', { name: 'Profile on this machine' }).click();
    await expect.poll(() => live(page).locator('figure table').count(), { timeout: 60_000 }).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 'stage 9, live').toBeLessThanOrEqual(0);
    expectClean(opened);
  });
});

describe('Where the time goes, in a Chromium whose workers can profile', () => {
  // Chromium 156 offers the profiler to a classic dedicated worker behind these two features.
  const WORKER_PROFILING = '--enable-blink-features=ProfilerAPIForDedicatedWorker,DocumentPolicyInDedicatedWorker';
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchOwnBrowser([WORKER_PROFILING]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('profiles the stage in a Web Worker, off the page', async () => {
    const opened = await openApp(browser, '/#/stage/6');
    const { page } = opened;
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await live(page).getByRole('button', { name: 'Profile on this machine' }).click();
    await expect.poll(() => live(page).locator('figure table').count(), { timeout: 60_000 }).toBe(1);
    expect(await live(page).textContent()).toContain('Profiled in a Web Worker.');
    expect(workers.some((url) => /\/assets\/profile\.worker-[\w-]+\.js$/.test(url)), workers.join(', ')).toBe(true);
    // The worker's build keeps function names too: the profile names the stage's own.
    expect((await names(live(page).locator('figure table')))[0]).toBe('compress');
    expectClean(opened);
  });
});

describe('Where the time goes, in Firefox', () => {
  it('says in one line that this browser cannot profile the page, and shows the stored profile', async () => {
    const firefox = await launchFirefox();
    try {
      const page = await firefox.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`pageerror: ${error instanceof Error ? error.message : String(error)}`));
      await page.goto(`${baseURL()}/#/stage/1`);
      const text = () => page.evaluate(() => document.querySelector('[data-testid="live-profile"]')?.textContent?.trim() ?? null);
      await expect.poll(text, { timeout: 30_000 }).toBe(
        'This browser has no JS Self-Profiling API (Chromium has it), so only the stored profile shows here.',
      );
      const state = await page.evaluate(() => ({
        buttons: [...document.querySelectorAll('section.where button')].map((b) => b.textContent?.trim()),
        heading: document.querySelector('#where-title')?.textContent,
        tables: document.querySelectorAll('section.where .now table').length,
      }));
      expect(state.heading).toBe('Where the time goes');
      expect(state.buttons).not.toContain('Profile on this machine');
      expect(state.tables).toBe(storedHottest(1) ? 1 : 0);
      expect(errors).toEqual([]);
    } finally {
      await firefox.close();
    }
  });
});
