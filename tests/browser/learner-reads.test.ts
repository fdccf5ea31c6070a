// What a learner reads, read as they would: an experiment ticks the sizes it needs,
// labels say whose figures they are, and the pages stay readable on a phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openApp } from './harness.ts';

describe('what a learner reads', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('an experiment ticks the sizes it needs itself', async () => {
    const { page, errors } = await openApp(browser, '/#/playground/7/try/allocate-again');
    await page.getByTestId('size-96').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('size-96').isChecked()).toBe(true);
    expect(await page.getByTestId('size-1024').isChecked()).toBe(false);
    expect(await page.getByTestId('size-1048576').isChecked()).toBe(true);
    expect(await page.locator('main').innerText()).toContain('The sizes it needs are ticked for you');
    expect(errors).toEqual([]);
  });

  it("the Go track's card says whose run it shows, and a typed class code names the alphabet", async () => {
    const { page, errors } = await openApp(browser, '/#/go/1');
    await expect.poll(() => page.getByTestId('go-run-owner').innerText().catch(() => ''), { timeout: 15_000 }).toMatch(/^committed run \(.+\): import yours to replace it$/i);
    expect(await page.getByTestId('go-run-owner').innerText()).not.toMatch(/this machine/i);
    await page.evaluate(() => (location.hash = '#/class/ABC123'));
    await expect.poll(() => page.locator('main').innerText()).toContain('codes never use 0, 1, I or O');
    expect(errors).toEqual([]);
  });
});
