// The Go track in real Chromium against the built app: every Go stage by deep link with
// its compiler evidence and both tables, stepping by keyboard, the code view with the
// compiler's marks on the lines, importing a run, and the JS story's links into it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GO_STAGES } from '../../src/app/go/stages.ts';
import { TALK_STEPS } from '../../src/app/go/published.ts';
import { launchBrowser, openApp, type OpenedPage } from './harness.ts';

function expectClean(opened: OpenedPage) {
  expect(opened.errors, 'page errors').toEqual([]);
  expect(opened.foreignRequests, 'requests to other origins').toEqual([]);
}

describe('the Go track', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens every Go stage by deep link, with the compiler evidence and this machine beside the talk', async () => {
    for (const stage of GO_STAGES) {
      const opened = await openApp(browser, `/#/go/${stage.index}`);
      const { page } = opened;
      await expect.poll(() => page.locator('main h1').textContent()).toBe(stage.title);
      expect(await page.title()).toContain(`Go stage ${stage.index}`);
      await expect.poll(() => page.locator('#evidence-title').count()).toBe(1);
      expect(await page.locator('.evidence .inlining tbody tr').count()).toBeGreaterThan(3);
      // The evidence lists show the code of the line they are about, from the stage's source.
      if (stage.index < 2) await expect.poll(() => page.locator('.evidence .lines .code').first().textContent()).toMatch(/\S/);
      if (stage.index > 0) {
        await expect.poll(() => page.locator('.measured .bench tbody tr').count()).toBeGreaterThanOrEqual(3);
        await expect.poll(() => page.locator('.measured .words').first().textContent()).toContain(`against stage ${stage.index - 1}`);
      }
      const measured = page.locator('.measured').first();
      expect(await measured.textContent()).toContain('Micro-Optimizing Go Code');
      // The talk's own table for this step, time/op and speed, every figure as printed, beside this machine's.
      const talk = TALK_STEPS[stage.index];
      if (talk) {
        const text = (await measured.locator('.talk-tables').textContent())!;
        for (const row of [...talk.time, ...talk.speed]) for (const figure of [row.name, row.old, row.new, row.delta, `(${row.p})`]) expect(text).toContain(figure);
        expect(await measured.locator('.caveat').count(), `stage ${stage.index}'s caveat`).toBe(talk.discontinuity ? 1 : 0);
      } else {
        expect(await measured.locator('.talk-tables').count()).toBe(0);
      }
      expect(await measured.locator('a[href="#/measure"]').count()).toBe(1);
      expectClean(opened);
      await page.context().close();
    }
  });

  it('steps with the arrow keys, jumps with End, and C opens the code with the compiler\'s marks', async () => {
    const opened = await openApp(browser, '/#/go/0');
    const { page } = opened;
    await expect.poll(() => page.locator('main h1').textContent()).toBe(GO_STAGES[0].title);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('main h1').textContent()).toBe(GO_STAGES[1].title);
    expect(page.url()).toMatch(/#\/go\/1$/);
    await page.keyboard.press('c');
    await expect.poll(() => page.url()).toMatch(/#\/go\/1\/code$/);
    // Monaco draws the diff with the marks in the modified side's margin.
    await expect.poll(() => page.locator('.go-code .monaco-diff-editor').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('.go-code .go-glyph-inline').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // Hovering a mark shows what the compiler said about that line.
    const mark = page.locator('.go-code .monaco-editor .go-glyph-bounds').first();
    await mark.scrollIntoViewIfNeeded();
    const box = (await mark.boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + 2);
    await page.mouse.move(box.x + 5, box.y + 5, { steps: 5 });
    await expect.poll(() => page.locator('.monaco-hover').allTextContents()).toContainEqual(expect.stringContaining('bounds check left at column'));
    await page.locator('main h1').focus();
    await page.keyboard.press('End');
    await expect.poll(() => page.url()).toMatch(new RegExp(`#/go/${GO_STAGES.length - 1}/code$`));
    expectClean(opened);
    await page.context().close();
  });

  it('shows a run the reader imports in place of the committed one, and refuses a wrong file', async () => {
    const opened = await openApp(browser, '/#/go/5');
    const { page } = opened;
    const committed = readFileSync(new URL('../../data/go/', import.meta.url).pathname + 'bench-2026-11-23-vm.txt', 'utf8');
    await expect.poll(() => page.locator('.measured .run').first().textContent()).toContain('A committed run');
    await page.locator('.measured input[type=file]').setInputFiles({ name: 'mine.txt', mimeType: 'text/plain', buffer: Buffer.from(committed) });
    await expect.poll(() => page.locator('.measured .run').first().textContent()).toContain('Your run (mine.txt)');
    await page.locator('.measured input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
    await expect.poll(() => page.locator('.measured [role=alert]').textContent()).toContain('notes.txt could not be read');
    // The earlier import stays shown: a bad file loses nothing.
    expect(await page.locator('.measured .run').first().textContent()).toContain('Your run (mine.txt)');
    expectClean(opened);
    await page.context().close();
  });

  it('is linked from the JS stages that use a Go lesson', async () => {
    const opened = await openApp(browser, '/#/stage/1');
    const { page } = opened;
    const link = page.locator('.side-note a[href^="#/go/"]');
    await expect.poll(() => link.count()).toBeGreaterThan(0);
    await link.first().click();
    await expect.poll(() => page.url()).toMatch(/#\/go\/\d$/);
    await expect.poll(() => page.locator('#evidence-title').count()).toBe(1);
    expectClean(opened);
    await page.context().close();
  });
});
