// Predict, then measure, as a learner and a class meet it. On a stage page the learner
// picks a guess (by keyboard), measures the step in place, and the guess stands beside the
// article's figure and this machine's with the line they teach, after a reload too; stored
// guesses that cannot be read are said so and the rest kept. In a class, the load test's
// 30 clients guess every step and post their runs, and the projector shows each step's
// spread of guesses, then what the class measured. With BLAKE3_LAB_SHOTS=folder, pictures of
// the pages at 1280x800 and 390x844, light and dark, go there.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { articleRatio } from '../../src/app/ui/lesson/article-facts.ts';
import { measuredRatio } from '../../src/app/story/step-answer.ts';
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { guessLesson } from '../../src/core/predict/lesson.ts';
import { parseResultsJson } from '../../src/core/results/io/validate.ts';
import { addressesOf } from '../../server/load/addresses.ts';
import { Device } from '../../server/load/client.ts';
import { guessCounts, lastEntries, sendGuesses, sentCounts } from '../../server/load/guesses.ts';
import { joinStudents, type ClassUnderTest } from '../../server/load/pace.ts';
import { planResults } from '../../server/load/server-process.ts';
import { call, startClass, startClassServer, type ClassServer } from '../fixtures/class-server.ts';
import { path } from '../../src/core/class/protocol.ts';
import { axeFindings } from './axe.ts';
import { launchBrowser, openApp, SERVICE_WORKERS } from './harness.ts';

/** Where to save pictures of the pages (BLAKE3_LAB_SHOTS, as in harness.ts's screenshots()); none without it. */
const SHOTS = process.env.BLAKE3_LAB_SHOTS;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/**
 * The page at both sizes: nothing reaches past its width, on a phone either. With
 * BLAKE3_LAB_SHOTS, pictures in light and dark too (`name`-1280-light.png ...). The page is
 * left at 1280, light.
 */
async function shots(page: Page, name: string, locator?: string) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5000 }).toBeLessThanOrEqual(viewport.width);
    if (!SHOTS) continue;
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const path = `${SHOTS}/predict-${name}-${viewport.width}-${colorScheme}.png`;
      if (locator) await page.locator(locator).screenshot({ path });
      else await page.screenshot({ path });
    }
  }
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** axe's serious and critical findings on the page (or in the elements `include` selects), in light and in dark (left light). */
async function axeInBoth(page: Page, route: string, include?: string[]) {
  const findings = [];
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    findings.push(...(await axeFindings(page, `${route} (${colorScheme})`, include)));
  }
  return findings;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('predict, then measure, on a stage page', () => {
  it('keeps a guess, and once the step is measured in place sets it beside the article’s figure and this machine’s, after a reload too', async () => {
    const { page, errors } = await openApp(browser, '/#/stage/5');
    const predict = page.getByTestId('predict');
    expect(await predict.locator('legend').innerText()).toBe('How much faster will stage 5 be than stage 4 on this machine?');
    expect(await predict.getByRole('button').count()).toBe(8);
    // By keyboard: Tab along the choices, Enter picks one; nothing is picked by moving.
    await predict.getByRole('button', { name: 'slower', exact: true }).focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => localStorage.getItem('blake3-lab:guesses'))).toBeNull();
    await page.keyboard.press('Enter');
    await expect.poll(() => predict.getByRole('button', { name: '2x', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await predict.locator('[aria-pressed="true"]').count()).toBe(1);
    // Its focus ring shows on the pill.
    expect(await predict.locator('button:focus-visible').innerText()).toBe('2x');
    expect(await page.evaluate(() => localStorage.getItem('blake3-lab:guesses'))).toBe('{"5":2}');
    expect(await page.getByTestId('guess-figure').count()).toBe(0);
    await shots(page, 'stage-before', '.stage-head');
    expect(await axeInBoth(page, '#/stage/5, guessed')).toEqual([]);

    // Measured in place, from the payoff line's link under the title.
    await page.getByTestId('payoff').getByRole('button', { name: /measure it here/ }).click();
    const figure = page.getByTestId('guess-figure');
    await figure.waitFor({ timeout: 90_000 });
    const payoff = /^YOUR GUESS\s+2x stage 4\s+ARTICLE\s+3× faster than stage 4\s+THIS MACHINE\s+(\S+x stage 4 at [\d.]+ (B|KiB|MiB)|no measurable difference from stage 4 at [\d.]+ (B|KiB|MiB) \(median \S+x\))\s*$/i;
    expect(await page.getByTestId('payoff').innerText()).toMatch(payoff);
    expect(await predict.count()).toBe(0);
    // The line is the one the numbers make: this machine's figure read back from the ladder it keeps.
    const stored = parseResultsJson((await page.evaluate(() => localStorage.getItem('blake3-lab:results')))!);
    if (!stored.ok) throw new Error(stored.error);
    const measured = measuredRatio(stored.results, 5)!;
    const lesson = guessLesson({ stage: 5, guess: 2, ...measured, measured: measured.ratio, article: articleRatio(5) });
    expect(lesson).toMatch(/; the article’s (M1 Max and this machine disagree|M1 Max measured about the same|3\.00x lies within this run’s range)/);
    expect(await page.getByTestId('predict-lesson').innerText()).toBe(lesson);
    // One figure, one size: the answer beside the button and the card's bold cell say what the line under the title says.
    const here = /THIS MACHINE\s+(.*)$/i.exec(await page.getByTestId('payoff').innerText())![1].trim();
    const at = /at ([\d.]+ \S+)/.exec(here)![1];
    expect(await page.getByTestId('step-answer').innerText()).toContain(`stage 4 at ${at} here`);
    const ratio = /^(\S+x) stage 4/.exec(here);
    if (ratio) expect(await page.getByTestId('stage-measured').locator('td.spoken').first().innerText()).toBe(ratio[1]);
    await shots(page, 'stage-after', '.stage-head');

    await page.reload();
    await expect.poll(() => page.getByTestId('payoff').innerText()).toMatch(payoff);
    expect(await page.getByTestId('predict-lesson').innerText()).toBe(lesson);
    // The ladder on Results has the guess beside the stage.
    await page.evaluate(() => (location.hash = '#/results'));
    const row = page.getByTestId('ladder-table').locator('tbody tr', { hasText: '5. No copies' });
    await expect.poll(() => page.getByTestId('ladder-table').locator('thead').innerText()).toMatch(/your guess/);
    expect(await row.locator('td').nth(2).innerText()).toBe('2x');
    expect(errors).toEqual([]);
  });

  it('changes a guess only when a choice is pressed: the arrow keys step to the next stage and leave it', async () => {
    const { page, errors } = await openApp(browser, '/#/stage/3');
    const predict = page.getByTestId('predict');
    await predict.getByRole('button', { name: '1.5x', exact: true }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('blake3-lab:guesses'))).toBe('{"3":1.5}');
    // Focus is still on the choice just pressed; the right arrow goes on, as on any stage page.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/stage/4');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/stage/3');
    expect(await page.evaluate(() => localStorage.getItem('blake3-lab:guesses'))).toBe('{"3":1.5}');
    await expect.poll(() => predict.getByRole('button', { name: '1.5x', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(errors).toEqual([]);
  });

  it('says so when stored guesses cannot all be read, and keeps the good ones', async () => {
    const stored = `localStorage.setItem('blake3-lab:guesses', ${JSON.stringify(JSON.stringify({ '0': 0.001, '6': 7, '99': 2 }))});`;
    const { page, errors } = await openApp(browser, '/#/stage/0', { beforeLoad: stored });
    const predict = page.getByTestId('predict');
    expect(await predict.locator('legend').innerText()).toBe('How much slower than Rust WASM will stage 0 be on this machine?');
    await expect.poll(() => predict.getByRole('button', { name: '1,000x slower' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('status').filter({ hasText: 'stored guesses' }).innerText()).toBe('2 stored guesses were not a choice this lab offers and are left out; the other one is kept.');
    // A new guess writes a clean store and the note goes.
    await predict.getByText('300x slower').click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('blake3-lab:guesses'))).toBe('{"0":0.0033333333333333335}');
    expect(await page.getByRole('status').filter({ hasText: 'stored guesses' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('predict, then measure, in a class', () => {
  let server: ClassServer;
  beforeAll(async () => {
    server = await startClassServer({ data: joinPath(mkdtempSync(joinPath(tmpdir(), 'blake3-lab-class-')), 'data'), dist: inject('distDir') });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sends a student’s guesses from the class page, those kept from the stage pages too', async () => {
    const started = (await startClass(server)).body;
    const context = await browser.newContext({ viewport: PHONE, colorScheme: 'light', serviceWorkers: SERVICE_WORKERS });
    // A guess this browser made on stage 0's page before the class.
    await context.addInitScript(() => {
      if (!localStorage.getItem('blake3-lab:guesses')) localStorage.setItem('blake3-lab:guesses', '{"0":0.001}');
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/#/class/${started.code}`);
    await page.getByTestId('nickname').fill('Ana');
    await page.getByTestId('join').click();
    const card = page.getByTestId('class-guesses');
    await expect.poll(() => card.getByTestId('guesses-on-board').innerText()).toBe('1 of 12 guesses on the board.');
    // The first step without a guess is asked first.
    expect(await card.getByTestId('predict').locator('legend').innerText()).toBe('How much faster will stage 1 be than stage 0 on this machine?');
    await card.getByTestId('guess-stage').selectOption('5');
    await card.getByText('1.5x', { exact: true }).click();
    await expect.poll(() => card.getByTestId('guesses-on-board').innerText()).toBe('2 of 12 guesses on the board.');
    const board = (await call(`${server.url}${path('board', { code: started.code })}`)).body;
    expect(board.entries).toMatchObject([{ nickname: 'Ana', silent: true, guesses: { '0': 0.001, '5': 1.5 } }]);
    // The same guesses are this browser's own, on the stage pages too.
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('blake3-lab:guesses')))!)).toEqual({ '0': 0.001, '5': 1.5 });
    await expect.poll(() => page.getByTestId('guess-board').getByTestId('guess-summary').innerText()).toBe('1 guess; most said 1,000x slower.');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/predict-student-390-light.png` });
    // What this page adds; the top bar at a phone's width is the accessibility walk's to judge.
    expect(await axeInBoth(page, 'the class page, guessing', ['[data-testid="class-guesses"]', '[data-testid="guess-board"]'])).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('30 clients guess every step, and the projector shows each step’s spread, then what the class measured', async () => {
    const started = (await startClass(server)).body;
    const at = addressesOf(server.url, started.code);
    const projector = await new Device().stream(at('events', { ticket: started.ticket }));
    const klass: ClassUnderTest = { at, teacherToken: started.teacherToken, projector, students: [] };
    expect(await joinStudents(klass, 30, 'student')).toEqual(Array(30).fill(201));
    const statuses = await sendGuesses(klass);
    expect([...statuses]).toEqual([[200, 30 * 12]]);
    // Each machine's run: every step 1.6x the one before (server/load/server-process.ts), Rust WASM 1.6^12 stage 0.
    const posted = await Promise.all(
      klass.students.map((s, seed) => s.device.call(at('results', { id: s.id, done: true }), { raw: JSON.stringify(planResults(seed, DEFAULT_CLASS_PLAN)), token: s.token })),
    );
    expect(posted.map((a) => a.status)).toEqual(Array(30).fill(200));
    const sent = sentCounts(klass.students);
    // The load test's projector, following the stream, has them all.
    await expect.poll(() => guessCounts(lastEntries(projector))).toEqual(sent);
    projector.close();

    const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'light', serviceWorkers: SERVICE_WORKERS });
    await context.addInitScript(
      ([code, token, ticket]) => {
        localStorage.setItem(`blake3-lab:class:${code}:teacher`, token);
        localStorage.setItem(`blake3-lab:class:${code}:teacher-ticket`, ticket);
      },
      [started.code, started.teacherToken, started.ticket],
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/?present#/class/${started.code}/board`);
    // On a projector the board shows one view at a time: the teacher picks the reveal.
    await page.getByTestId('board-view-guesses').click();
    await expect.poll(() => page.getByTestId('board-view-guesses').getAttribute('aria-pressed')).toBe('true');
    const board = page.getByTestId('guess-board');
    const counts = (column: number) => board.locator('[data-testid="guess-row"]').evaluateAll((rows, i) => rows.map((row) => Number(row.querySelectorAll('td')[i]?.querySelector('.n')?.textContent)), column);

    // The first step the class guessed: stage 0 against Rust WASM; its measurements folded away.
    await expect.poll(() => counts(0)).toEqual(sent[0]);
    expect(await board.locator('.question').innerText()).toBe('How much slower than Rust WASM will stage 0 be on your machine?');
    expect(await board.getByTestId('guess-summary').innerText()).toMatch(/^30 guesses; most said .+\.$/);
    expect(await board.getByTestId('measured-summary').count()).toBe(0);

    // Step by step: stage 5's guesses, then what the class measured.
    await board.getByTestId('guess-step').selectOption('5');
    await expect.poll(() => counts(0)).toEqual(sent[5]);
    await board.getByTestId('reveal-measured').click();
    expect(await counts(1)).toEqual([0, 0, 0, 30, 0, 0, 0, 0]);
    expect(await board.getByTestId('measured-summary').innerText()).toMatch(/^Measured: 1\.60x, the median of 30 machines\s+\(middle half 1\.60x to 1\.60x\)\s+at 64 KiB\.\s+The article's M1 Max: 3\.00x\.$/);
    expect(await board.locator('[data-testid="guess-row"]', { hasText: 'article' }).locator('th').innerText()).toMatch(/^3x\s*article$/i);
    await shots(page, 'projector', '[data-testid="guess-board"]');
    expect(await axeInBoth(page, 'the projector, guesses then measured')).toEqual([]);
    // The next step starts folded again, so the room guesses before it sees.
    await board.getByTestId('guess-next').click();
    await expect.poll(() => counts(0)).toEqual(sent[6]);
    expect(await board.getByTestId('measured-summary').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
