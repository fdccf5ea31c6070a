// Presenter mode in real Chromium: toggled by "p", the button and ?present; large type
// that fits a slide on the screen, no chrome, keyboard still driving, and Escape (or the
// corner button) to leave.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { launchBrowser, openApp, type OpenedPage } from './harness.ts';

function expectClean(opened: OpenedPage) {
  expect(opened.errors, 'page errors').toEqual([]);
  expect(opened.foreignRequests, 'requests to other origins').toEqual([]);
}

const presenting = (page: Page) => page.evaluate(() => document.documentElement.hasAttribute('data-presenter'));
const rootFontPx = (page: Page) => page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));

describe('presenter mode', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('turns on with "p": bigger type, no header or lesson list, arrows still step, Escape leaves', async () => {
    const opened = await openApp(browser, '/#/stage/3');
    const { page } = opened;
    await expect.poll(() => page.locator('main h1').textContent()).toBe(STAGES[3].title);
    await page.setViewportSize({ width: 1920, height: 1080 }); // a projector
    const normalSize = await rootFontPx(page);
    await page.screenshot({ path: '/tmp/stage-3.png', fullPage: true });

    await page.keyboard.press('p');
    await expect.poll(() => presenting(page)).toBe(true);
    expect(new URL(page.url()).search).toBe('?present');
    expect(await rootFontPx(page)).toBeGreaterThan(normalSize * 1.3);
    expect(await page.locator('header.topbar').isVisible()).toBe(false);
    expect(await page.locator('nav[aria-label="Lesson"]').isVisible()).toBe(false);
    await page.screenshot({ path: '/tmp/presenter-stage-3.png' });

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('main h1').textContent()).toBe(STAGES[4].title);
    await page.keyboard.press('PageDown'); // what a presentation clicker sends
    await expect.poll(() => page.locator('main h1').textContent()).toBe(STAGES[5].title);
    await page.keyboard.press('c');
    await page.locator('.monaco-diff-editor').waitFor();
    await page.screenshot({ path: '/tmp/presenter-code-5.png' });

    await page.keyboard.press('Escape');
    await expect.poll(() => presenting(page)).toBe(false);
    expect(new URL(page.url()).search).toBe('');
    expect(await page.locator('header.topbar').isVisible()).toBe(true);
    expectClean(opened);
  });

  it('starts from ?present in the address, and the corner button leaves it', async () => {
    const opened = await openApp(browser, '/?present#/stage/7', { colorScheme: 'dark' });
    const { page } = opened;
    await expect.poll(() => presenting(page)).toBe(true);
    await expect.poll(() => page.locator('main h1').textContent()).toBe(STAGES[7].title);
    await page.screenshot({ path: '/tmp/presenter-dark-7.png' });
    await page.getByRole('button', { name: /Exit presenter/ }).click();
    await expect.poll(() => presenting(page)).toBe(false);
    expect(page.url()).toMatch(/\/#\/stage\/7$/);
    await page.getByRole('button', { name: 'Present' }).click();
    await expect.poll(() => presenting(page)).toBe(true);
    expectClean(opened);
  });

  it('fits every stage, and the code, on one screen of a 1280x800 projector', async () => {
    const opened = await openApp(browser, '/?present#/stage/0');
    const { page } = opened;
    const overflow = () => page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
    for (const stage of STAGES) {
      await page.evaluate((index) => (location.hash = `#/stage/${index}`), stage.index);
      await expect.poll(() => page.locator('main h1').textContent()).toBe(stage.title);
      expect(await overflow(), `stage ${stage.index}'s slide scrolls`).toBeLessThanOrEqual(8);
    }
    // The type follows the screen's height: smaller than on a 1080-pixel projector, still large.
    expect(await rootFontPx(page)).toBeGreaterThan(17);
    expect(await rootFontPx(page)).toBeLessThan(20);

    await page.keyboard.press('c');
    const editor = page.locator('.monaco-diff-editor');
    await editor.waitFor();
    const box = await editor.boundingBox();
    expect(box!.height).toBeGreaterThan(300);
    expect(box!.y + box!.height).toBeLessThanOrEqual(800);
    expect(await overflow()).toBeLessThanOrEqual(0);
    expectClean(opened);
  });

  it('shows the results page large too', async () => {
    const opened = await openApp(browser, '/?present#/results');
    const { page } = opened;
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => presenting(page)).toBe(true);
    await expect.poll(() => page.locator('main h1').count()).toBeGreaterThan(0);
    expect(await rootFontPx(page)).toBeGreaterThan(20);
    await page.screenshot({ path: '/tmp/presenter-results.png' });
    expectClean(opened);
  });
});
