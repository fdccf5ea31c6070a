// "Ask the class" in real Chromium: every stage and Go step shows its question with the
// answer folded until a click; stage 11 lists what to try by hand; a Go step shows the
// commands that run it; in presenter mode the question is a slide of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { GO_TRACK } from '../../go/index.ts';
import { launchBrowser, openApp, picture } from './harness.ts';

describe('ask the class', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('asks on every stage and every Go step, with the answer folded until clicked', async () => {
    const opened = await openApp(browser, '/#/stage/0');
    const { page } = opened;
    const pages = [...STAGES.map((s) => `#/stage/${s.index}`), ...GO_TRACK.map((s) => `#/go/${s.index}`)];
    for (const hash of pages) {
      await page.evaluate((to) => (location.hash = to), hash);
      const ask = page.getByTestId('ask-the-class');
      await expect.poll(() => ask.count(), { message: hash, timeout: 15_000 }).toBe(1);
      expect(await ask.locator('.question').innerText(), hash).toMatch(/\?/);
      const answer = ask.locator('details p').first();
      expect(await answer.isVisible(), `${hash}: the answer starts folded`).toBe(false);
      await ask.getByText('The answer').click();
      await expect.poll(() => answer.isVisible(), { message: `${hash}: the answer unfolds` }).toBe(true);
    }
    expectClean(opened.errors, opened.foreignRequests);
  });

  it('gives stage 11 its "Try it yourself", and each Go step the commands that run it', async () => {
    const opened = await openApp(browser, `/#/stage/${STAGES.length - 1}`);
    const { page } = opened;
    const tryIt = page.locator('section.experiments');
    await expect.poll(() => tryIt.count()).toBe(1);
    expect(await tryIt.innerText()).toMatch(/TRY IT YOURSELF[\s\S]*npm run bench:cores -- --browser/i);
    const last = STAGES.length - 1;
    expect(await tryIt.getByRole('link', { name: `Benchmark stage ${last - 1} against stage ${last}` }).getAttribute('href')).toBe(`#/bench/step/${last}`);
    expect(await tryIt.getByRole('link', { name: `Open stage ${last - 1} in the playground` }).getAttribute('href')).toBe(`#/playground/${last - 1}`);
    await picture(page, 'stage-11-try', { fullPage: true });

    await page.evaluate(() => (location.hash = '#/go/2'));
    const commands = page.getByTestId('go-run-yourself');
    await expect.poll(() => commands.count(), { timeout: 15_000 }).toBe(1);
    expect((await commands.innerText()).split('\n')).toEqual([
      'cd go',
      "go test -run '^$' -bench . -count 10 ./02-bounds-checks > 02-bounds-checks.txt",
      "go test -run '^$' -bench . -count 10 ./01-inline-g > 01-inline-g.txt",
      'benchstat 01-inline-g.txt 02-bounds-checks.txt',
    ]);
    expectClean(opened.errors, opened.foreignRequests);
  });

  it('is a slide of its own in presenter mode, that fits a 1920x1080 projector, and the exercise is offered after it', async () => {
    const opened = await openApp(browser, '/?present#/stage/5');
    const { page } = opened;
    await page.setViewportSize({ width: 1920, height: 1080 });
    const ask = page.getByTestId('ask-the-class');
    await expect.poll(() => page.locator('main h1').textContent()).toBe(STAGES[5].title);
    // The question is drawn after the page's first paint, a part of its own: once it is
    // there, part by part to it, never past the page's last part.
    await expect.poll(() => ask.count(), { timeout: 15_000 }).toBe(1);
    const parts: string[] = [];
    for (let press = 0; press < 20 && !(await ask.isVisible()); press++) {
      const before = (await page.locator('.part-count').textContent()) ?? '';
      parts.push(before);
      const [part, count] = before.split('/').map(Number);
      if (part >= count) break;
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.locator('.part-count').textContent()).not.toBe(before);
    }
    expect(await ask.isVisible(), `the question on one of the parts ${parts.join(', ')}`).toBe(true);
    expect(await page.getByTestId('stage-measured').isVisible(), 'the question is alone on its slide').toBe(false);
    await ask.getByText('The answer').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollHeight - innerHeight)).toBeLessThanOrEqual(0);
    await picture(page, 'ask-the-class-1920');

    // The stage's last part is the exercise's offer, with what it asks, alone on its slide.
    const yourTurn = page.getByTestId('your-turn');
    for (let press = 0; press < 20 && !(await yourTurn.isVisible()); press++) {
      const before = (await page.locator('.part-count').textContent()) ?? '';
      const [part, count] = before.split('/').map(Number);
      if (part >= count) break;
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.locator('.part-count').textContent()).not.toBe(before);
    }
    expect(await yourTurn.isVisible(), 'the exercise is offered on a slide').toBe(true);
    const [part, count] = ((await page.locator('.part-count').textContent()) ?? '').split('/').map(Number);
    expect(part).toBe(count);
    expect(await ask.isVisible()).toBe(false);
    expect(await page.locator('.your-turn-ask').innerText()).toMatch(/compress/);
    expect(await page.getByRole('link', { name: /^Read the changes/ }).isVisible()).toBe(false);
    await picture(page, 'your-turn-1920');
    expectClean(opened.errors, opened.foreignRequests);
  });
});

function expectClean(errors: string[], foreign: string[]) {
  expect(errors, 'page errors').toEqual([]);
  expect(foreign, 'requests to other origins').toEqual([]);
}
