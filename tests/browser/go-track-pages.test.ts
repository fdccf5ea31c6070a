// The Go track in real Chromium against the built app: every Go stage by deep link with
// its compiler evidence, its profile beside the talk's and both benchmark tables,
// stepping by keyboard, the code view with the compiler's marks on the lines, importing a
// run, a phone's width, and the JS story's links into it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GO_STAGES } from '../../src/app/go/stages.ts';
import { TALK_STEPS } from '../../src/app/go/published.ts';
import { ALLOC_STEPS, type GoStepProfiles } from '../../src/core/profile/go-profiles.ts';
import { talkPprofFor } from '../../src/app/go/profiles.ts';
import { profileRows } from '../../src/app/go/profile-rows.ts';
import { launchBrowser, openApp, type OpenedPage } from './harness.ts';

const storedProfile = (id: string) =>
  JSON.parse(readFileSync(new URL(`../../data/go/profiles/${id}.json`, import.meta.url), 'utf8')) as GoStepProfiles;
/** A table's rows as the reader sees them, cell by cell. */
const cells = (page: OpenedPage['page'], table: string) =>
  page.locator(`${table} tbody tr`).evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent!.trim())));

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
      const talk = TALK_STEPS[stage.id];
      if (talk) {
        const text = (await measured.locator('.talk-tables').textContent())!;
        for (const row of [...talk.time, ...talk.speed]) for (const figure of [row.name, row.old, row.new, row.delta, `(${row.p})`]) expect(text).toContain(figure);
        expect(await measured.locator('.caveat').count(), `stage ${stage.index}'s caveat`).toBe(talk.discontinuity ? 1 : 0);
      } else {
        expect(await measured.locator('.talk-tables').count()).toBe(0);
      }
      expect(await measured.locator('a[href="#/measure"]').count()).toBe(1);

      // Where the time goes: our stored profile in pprof's shape, beside the talk's table where the talk profiled this step.
      const profile = page.getByTestId('go-profile');
      await expect.poll(() => profile.locator('h2').textContent()).toBe('Where the time goes');
      await expect.poll(() => profile.locator('[data-testid="our-pprof"] tbody tr').count()).toBeGreaterThan(0);
      const headers = await profile.locator('[data-testid="our-pprof"] thead th').allTextContents();
      expect(headers).toEqual(['flat', 'flat%', 'sum%', 'cum', 'cum%', 'name']);
      const stored = storedProfile(stage.id);
      const talkTable = talkPprofFor(stage.id);
      const expected = profileRows(stored.cpu, `blake2slab/${stage.id}.`, talkTable?.rows.length ?? 5);
      expect(await cells(page, '[data-testid="our-pprof"]')).toEqual(
        expected.map((r) => [r.flat, r.flatPercent, r.sumPercent, r.cum, r.cumPercent, `${r.pkg}${r.symbol}${r.label ? ` ${r.label}` : ''}`]),
      );
      expect(await profile.locator('.lead').first().textContent()).toMatch(/^g is the hottest function: \d+\.\d% of the CPU samples/);
      const talkCard = profile.getByTestId('talk-pprof');
      expect(await talkCard.textContent()).toContain('Micro-Optimizing Go Code');
      if (talkTable) {
        expect(await cells(page, '[data-testid="talk-pprof"]')).toEqual(
          talkTable.rows.map((r) => [r.flat, r.flatPercent, r.sumPercent, r.cum, r.cumPercent, r.name]),
        );
        expect(await talkCard.textContent()).toContain(`on the slide “${talkTable.slide}”`);
      } else {
        expect(await talkCard.locator('table').count()).toBe(0);
        expect(await talkCard.locator('a[href^="#/go/"]').count()).toBe(3);
      }
      // The bytes the benchmark allocates, on the steps of the talk's "Allocations and copies".
      const alloc = page.getByTestId('our-alloc');
      expect(await alloc.count()).toBe(ALLOC_STEPS.includes(stage.id) ? 1 : 0);
      if (stored.alloc) {
        await expect.poll(() => alloc.locator('tbody tr').count()).toBe(3);
        expect(await alloc.locator('.lead').textContent()).toMatch(stage.index === 5 ? /^Nothing is allocated per hash/ : /^\(\*Digest\)\.Reset allocates 99\.\d% .* 96 B per hash/);
      }
      expectClean(opened);
      await page.context().close();
    }
  });

  it('reads on a 390 px phone without scrolling sideways, each profile row its name over its figures', async () => {
    const opened = await openApp(browser, '/#/go/3');
    const { page } = opened;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const stage of GO_STAGES) {
      await page.evaluate((index) => (location.hash = `#/go/${index}`), stage.index);
      await expect.poll(() => page.locator('main h1').textContent()).toBe(stage.title);
      await expect.poll(() => page.locator('[data-testid="our-pprof"] tbody tr').count()).toBeGreaterThan(0);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(sideways, `Go stage ${stage.index} scrolls sideways`).toBeLessThanOrEqual(0);
      // Every table of the profile fits its card: nothing hidden in a scroll box either.
      const wider = await page.locator('.profile table').evaluateAll((tables) => tables.filter((t) => t.scrollWidth > t.parentElement!.clientWidth + 1).length);
      expect(wider, `Go stage ${stage.index}'s profile tables`).toBe(0);
      const name = page.locator('[data-testid="our-pprof"] tbody tr').first().locator('td.name');
      const figure = page.locator('[data-testid="our-pprof"] tbody tr').first().locator('td').first();
      expect((await name.boundingBox())!.y).toBeLessThan((await figure.boundingBox())!.y);
    }
    expectClean(opened);
    await page.context().close();
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
