// A first visit to the front page and to a stage page: the first screen is drawn before
// anything below it, and what the page shows below that screen (the rest of the front
// page; a stage's measurements on this machine, its profiles, V8's evidence, the question
// for the class) follows after the first paint, with its code. How much JavaScript the
// first paint waits for is `npm run size`'s budget: it measures the production build,
// which this run's build is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openApp } from './harness.ts';

/** The app's scripts the page asked for before its first contentful paint, and after it. */
async function scriptsAroundFirstPaint(page: Page): Promise<{ before: string[]; after: string[] }> {
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length)).toBe(1);
  const { paint, scripts } = await page.evaluate(() => ({
    paint: performance.getEntriesByName('first-contentful-paint')[0].startTime,
    scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => new URL(entry.name).origin === location.origin && entry.name.endsWith('.js'))
      .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
  }));
  return { before: scripts.filter((s) => s.start < paint).map((s) => s.path), after: scripts.filter((s) => s.start >= paint).map((s) => s.path) };
}

describe('a first visit', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('to the front page: its first screen, then the rest of the page', async () => {
    const { page, errors } = await openApp(browser, '/#/');
    await expect.poll(() => page.locator('main h1').count()).toBe(1);
    await expect.poll(() => page.locator('main h2').count()).toBeGreaterThanOrEqual(3);
    await expect.poll(() => page.locator('main .overview li').count()).toBeGreaterThan(10);
    const { before } = await scriptsAroundFirstPaint(page);
    expect(before.length, 'the entry script at least').toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("to a stage page: its story first; this machine's card, the profiles and V8's evidence after the first paint", async () => {
    const { page, errors } = await openApp(browser, '/#/stage/5');
    await expect.poll(() => page.locator('main .part').count()).toBeGreaterThanOrEqual(3);
    await expect.poll(() => page.getByTestId('stage-measured').textContent()).toMatch(/Not measured on this machine yet/);
    await expect.poll(() => page.locator('#where-title').count()).toBe(1);
    await expect.poll(() => page.locator('#engine-title').count()).toBe(1);
    await expect.poll(() => page.getByTestId('ask-the-class').count()).toBe(1);
    const { before, after } = await scriptsAroundFirstPaint(page);
    for (const section of ['StageMeasured', 'WhereTimeGoes', 'EngineEvidence']) {
      expect(before.some((path) => path.includes(`/${section}-`)), `${section} before the first paint`).toBe(false);
      expect(after.some((path) => path.includes(`/${section}-`)), `${section} after the first paint`).toBe(true);
    }
    // Nor does the bench's driver (src/app/ui/run/browser.ts) load before "Measure this step" is pressed.
    expect([...before, ...after].filter((path) => path.includes('/browser-'))).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
