// Presenter mode in real Chromium: toggled by "p", the button and ?present; large type
// that fits a slide on the screen, no chrome, keyboard still driving, and Escape (or the
// corner button) to leave. Every slide fitting the screen: tests/browser/slide-fit.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { launchBrowser, openApp, picture } from './harness.ts';
import { expectClean, presenting, rootFontPx, slideName, stepTo } from './presenter-helpers.ts';

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
    await picture(page, 'stage-3', { fullPage: true });

    await page.keyboard.press('p');
    await expect.poll(() => presenting(page)).toBe(true);
    expect(new URL(page.url()).search).toBe('?present');
    expect(await rootFontPx(page)).toBeGreaterThan(normalSize * 1.3);
    expect(await page.locator('header.topbar').isVisible()).toBe(false);
    expect(await page.locator('nav[aria-label="Lesson"]').isVisible()).toBe(false);
    await picture(page, 'presenter-stage-3');

    // A stage may be shown in parts (the story, then its experiments): the keys walk through them to the next stage.
    await stepTo(page, 'ArrowRight', STAGES[4].title);
    await stepTo(page, 'PageDown', STAGES[5].title); // what a presentation clicker sends
    await page.keyboard.press('c');
    await page.locator('.monaco-diff-editor').waitFor();
    await picture(page, 'presenter-code-5');

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
    await picture(page, 'presenter-dark-7');
    await page.getByRole('button', { name: /Exit presenter/ }).click();
    await expect.poll(() => presenting(page)).toBe(false);
    expect(page.url()).toMatch(/\/#\/stage\/7$/);
    await page.getByRole('button', { name: 'Present' }).click();
    await expect.poll(() => presenting(page)).toBe(true);
    expectClean(opened);
  });

  // Read from the back of a room: on a 1920x1080 projector a stage's body text is at
  // least 28 px, its headings larger in proportion, and a chart's labels grow with it.
  // (A slide made dense by a full results set is shrunk until it fits, by src/app/shell/present/slide-fit.ts: that is the fit test's.)
  it('sets body text at 28 px or more on a 1920x1080 projector, headings in proportion', async () => {
    const opened = await openApp(browser, '/?present#/stage/5');
    const { page } = opened;
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => page.locator('main h1').textContent()).toBe(STAGES[5].title);
    const px = (selector: string) => page.locator(selector).first().evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
    const body = await px('main section.part p');
    expect(body).toBeGreaterThanOrEqual(28);
    const heading = await px('main h1');
    expect(heading).toBeGreaterThanOrEqual(body * 1.5);
    // The same page on a laptop screen in presenter mode: smaller type, the same proportions.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => px('main section.part p')).toBeLessThan(body * 0.75);
    expect((await px('main h1')) / (await px('main section.part p'))).toBeCloseTo(heading / body, 1);
    expectClean(opened);
  });

  it('shows the results page large too', async () => {
    const opened = await openApp(browser, '/?present#/results');
    const { page } = opened;
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => presenting(page)).toBe(true);
    await expect.poll(() => page.locator('main h1').count()).toBeGreaterThan(0);
    expect(await rootFontPx(page)).toBeGreaterThan(20);
    await picture(page, 'presenter-results');
    expectClean(opened);
  });
});
