// What a learner reads, read as they would: an experiment ticks the sizes it needs,
// labels say whose figures they are, and the pages stay readable on a phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openApp } from './harness.ts';
import { choosePlan, runToEnd } from './bench-helpers.ts';
import { fullResults } from '../fixtures/full-results.ts';

/** An init script that stores a full run as this device's results, as a finished run leaves them. */
const withFullRun = `localStorage.setItem('blake3-lab:results', ${JSON.stringify(JSON.stringify(fullResults()))});`;

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

  it('keeps the Measured cards of stages 10 and 11 to a figure and a line, with the rest full width below', async () => {
    const { page, errors } = await openApp(browser, '/#/stage/11');
    for (const index of [10, 11]) {
      await page.evaluate((i) => (location.hash = `#/stage/${i}`), index);
      const card = page.locator('.figures .article-figure');
      await expect.poll(() => page.locator('h1').innerText()).not.toBe('');
      await card.waitFor();
      const box = (await card.boundingBox())!;
      expect(box.height, `stage ${index}: the card's height`).toBeLessThan(320);
      const notes = page.getByTestId('past-notes');
      expect((await notes.boundingBox())!.width, `stage ${index}: the notes run full width`).toBeGreaterThan(600);
      // Nothing inside the figures runs past its box (a command line wraps).
      const overflowing = await page.locator('.figures .card, .figures .past-notes').evaluateAll((all) => all.filter((el) => el.scrollWidth > el.clientWidth + 1).length);
      expect(overflowing, `stage ${index}`).toBe(0);
    }
    expect(errors).toEqual([]);
  });

  it('hands the mouse wheel back to the page at the end of the diff', async () => {
    const { page, errors } = await openApp(browser, '/#/stage/5/code');
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ timeout: 60_000 });
    await page.locator('.monaco-diff-editor .view-lines').first().waitFor();
    // A point over the diff once the page has settled (the code view lays out in steps).
    const point = async (): Promise<[number, number] | null> => {
      const box = (await diff.boundingBox())!;
      // Inside the window: the diff may start low on a laptop's screen, under the stage's head.
      const [x, y] = [box.x + box.width / 2, Math.min(box.y + box.height / 2, 760)];
      const over = await page.evaluate(([x, y]) => !!document.elementFromPoint(x, y)?.closest('.monaco-diff-editor'), [x, y]);
      return over ? [x, y] : null;
    };
    await expect.poll(point).not.toBeNull();
    const [x, y] = (await point())!;
    await page.mouse.move(x, y);
    const start = await page.evaluate(() => window.scrollY);
    // Each poll turns the wheel once over the diff: it scrolls the diff to its end, then the page.
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, 600);
        return page.evaluate(() => window.scrollY);
      }, { timeout: 30_000 })
      .toBeGreaterThan(start + 100);
    expect(errors).toEqual([]);
  });

  it('on a 390 px phone: one row of sections that scrolls to the current one, the verdict as cards with no sideways scrolling, captions that wrap', async () => {
    const { page, errors } = await openApp(browser, '/#/results', { beforeLoad: withFullRun });
    await page.setViewportSize({ width: 390, height: 844 });
    const steps = page.getByTestId('steps-table');
    await steps.waitFor({ timeout: 15_000 });
    // The top bar is one short row: the eight sections by their short names, scrolling
    // sideways inside the bar (never the page), the current one in sight.
    await expect.poll(async () => (await page.locator('header.topbar').boundingBox())!.height).toBeLessThan(48);
    const sections = page.getByRole('navigation', { name: 'Sections' });
    expect(await sections.getByRole('link').count()).toBe(8);
    const inSight = async (name: string) => {
      const [link, row] = [await sections.getByRole('link', { name }).boundingBox(), await sections.boundingBox()];
      return link!.x >= row!.x - 1 && link!.x + link!.width <= row!.x + row!.width + 1;
    };
    await expect.poll(() => inSight('Results')).toBe(true);
    await page.evaluate(() => (location.hash = '#/teach'));
    await expect.poll(() => inSight('Teach')).toBe(true);
    await page.evaluate(() => (location.hash = '#/results'));
    await expect.poll(() => inSight('Results')).toBe(true);
    // Nothing on the page, and nothing in the verdict, scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const wide = await page.locator('.table-wrap').evaluateAll((all) => all.filter((el) => el.scrollWidth > el.clientWidth + 1).length);
    expect(wide).toBe(0);
    // A step's card says its speedup and the article's figure first, named.
    const first = steps.locator('tbody tr').first();
    // Cells by their column's name; p's cell names itself ("p<0.001 n=10").
    const cells = await first.locator('td').evaluateAll((all) =>
      all.map((td) => ({ label: td.dataset.label || (/^p[=<]/.test(td.textContent ?? '') ? 'p' : ''), box: td.getBoundingClientRect() })),
    );
    // Reading order: the line first, then the place on it.
    const place = (label: string) => {
      const { box } = cells.find((c) => c.label === label)!;
      return Math.round(box.top) * 10_000 + box.left;
    };
    expect(place('speedup')).toBeLessThan(place('before'));
    expect(place('article')).toBeLessThan(place('before'));
    expect(place('article')).toBeLessThan(place('p'));
    // The caption wraps inside the screen.
    const caption = (await steps.locator('caption').boundingBox())!;
    expect(caption.x + caption.width).toBeLessThanOrEqual(390);
    expect(caption.height).toBeGreaterThan(20);
    expect(errors).toEqual([]);
  });

  it('after a run on the Benchmark page, the results come first, right under the status line, and the plan follows', async () => {
    const { page, errors } = await openApp(browser, '/#/bench');
    await choosePlan(page, { contestants: ['07-reuse-buffers', '08-little-endian'], sizes: [1024], rounds: 2 });
    await runToEnd(page);
    const results = page.locator('section.results');
    await results.waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    const top = (await results.boundingBox())!.y;
    expect(top).toBeLessThan(800);
    expect(top).toBeLessThan((await page.locator('form#bench-plan').boundingBox())!.y);
    expect(errors).toEqual([]);
  });
});
