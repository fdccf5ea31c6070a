// The Teach page in real Chromium: in the top bar beside Class, its plans' links open the
// slides they name in presenter mode, it reads on a phone, and printed each plan takes
// one A4 sheet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { GO_TRACK } from '../../go/index.ts';
import { launchBrowser, openApp, picture } from './harness.ts';
import { TEACH } from '../../src/app/teach/plans.ts';

describe('the Teach page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sits in the top bar beside Class, and each plan link opens the slide it names', async () => {
    const opened = await openApp(browser, '/#/');
    const { page } = opened;
    const sections = page.locator('nav[aria-label="Sections"] a');
    const labels = await sections.allTextContents();
    expect(labels.slice(labels.indexOf('Class'))).toEqual(['Class', 'Teach']);
    await page.getByRole('link', { name: 'Teach', exact: true }).click();
    await expect.poll(() => page.locator('main h1').textContent()).toBe(TEACH.title);
    expect(await page.getByTestId('plan-45').locator('.step').count()).toBe(TEACH.plans[0].steps.length);
    expect(await page.getByTestId('plan-90').locator('.step').count()).toBe(TEACH.plans[1].steps.length);
    await picture(page, 'teach-page', { fullPage: true });

    // Every distinct slide a plan links to: the link opens it in presenter mode, on that slide.
    const hrefs = [...new Set(await page.locator('.plan a[href^="/?present"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!)))];
    expect(hrefs.length).toBeGreaterThan(12);
    for (const href of hrefs) {
      await page.locator(`.plan a[href="${href}"]`).first().click();
      await expect.poll(() => page.evaluate(() => document.documentElement.hasAttribute('data-presenter')), { message: href }).toBe(true);
      const [, hash] = href.split('#');
      const stage = /^\/stage\/(\d+)$/.exec(hash);
      const go = /^\/go\/(\d+)$/.exec(hash);
      // The introduction's and the engines page's titles are prose; those only need their page.
      const title = stage ? STAGES[Number(stage[1])].title : go ? GO_TRACK[Number(go[1])].title : hash === '/measure' ? 'How we measure' : null;
      expect(await page.evaluate(() => location.hash), href).toBe(`#${hash}`);
      if (title) await expect.poll(() => page.locator('main h1').textContent(), { message: href, timeout: 15_000 }).toBe(title);
      else await expect.poll(() => page.locator('main h1').count(), { message: href, timeout: 15_000 }).toBe(1);
      await page.goBack();
      await expect.poll(() => page.getByTestId('plan-45').count(), { message: `back from ${href}` }).toBe(1);
    }
    expect(opened.errors).toEqual([]);
    expect(opened.foreignRequests).toEqual([]);
  });

  it('reads on a phone, and prints each plan on one A4 sheet, without the chrome', async () => {
    const opened = await openApp(browser, '/#/teach');
    const { page } = opened;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('plan-90').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await picture(page, 'teach-phone');

    await page.emulateMedia({ media: 'print' });
    // A4 at 96 px an inch, less the page's 14 mm margins: the room one sheet has.
    await page.setViewportSize({ width: 794, height: 1123 });
    const sheet = 1123 - (2 * 14 * 96) / 25.4;
    expect(await page.locator('header.topbar').isVisible()).toBe(false);
    for (const minutes of [45, 90]) {
      const height = await page.getByTestId(`plan-${minutes}`).evaluate((plan) => plan.getBoundingClientRect().height);
      expect(height, `the ${minutes}-minute plan fits one sheet`).toBeLessThanOrEqual(sheet);
      expect(await page.getByTestId(`plan-${minutes}`).evaluate((plan) => getComputedStyle(plan).breakAfter)).toBe('page');
    }
    const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages.length, 'a sheet per plan, and one for what to prepare').toBe(3);
    expect(opened.errors).toEqual([]);
  });
});
