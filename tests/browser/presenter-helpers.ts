// What the presenter-mode tests share (tests/browser/presenter.test.ts and
// tests/browser/slide-fit.test.ts): which slide is on screen, and whether it scrolls.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { OpenedPage } from './harness.ts';

export function expectClean(opened: OpenedPage) {
  expect(opened.errors, 'page errors').toEqual([]);
  expect(opened.foreignRequests, 'requests to other origins').toEqual([]);
}

export const presenting = (page: Page) => page.evaluate(() => document.documentElement.hasAttribute('data-presenter'));
export const rootFontPx = (page: Page) => page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
/**
 * Presses `key` until the slide's title is `title` (a page in parts takes a press per part:
 * a stage has up to seven, from its story to the offer of its exercise).
 */
export async function stepTo(page: Page, key: string, title: string): Promise<void> {
  for (let press = 0; press < 10; press++) {
    const before = await slideName(page);
    await page.keyboard.press(key);
    await expect.poll(() => slideName(page)).not.toBe(before);
    if ((await page.locator('main h1').textContent()) === title) return;
  }
  throw new Error(`${key} never reached "${title}"`);
}
/** How far the page scrolls past the screen, in pixels. */
export const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
/**
 * The address and, on a page shown in parts, which part: "#/measure 3/9". Read at the next
 * frame: the address changes at once and the app follows it on "hashchange", so a read
 * between the two would pair the new address with the old page's parts.
 */
export const slideName = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve) =>
        requestAnimationFrame(() => {
          const part = document.querySelector('.part-count')?.textContent?.replace(/\s/g, '');
          resolve(part ? `${location.hash} ${part}` : location.hash);
        }),
      ),
  );
