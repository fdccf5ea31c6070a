// An exercise in a class of two, in the built app served by a real class server: the
// teacher names exercise 2 in the plan; one student joins on the class page, opens the
// exercise, reads that its outcome goes to the board, and measures the draft as it starts
// (stage 1 unchanged, 5 rounds): its outcome reaches the board as figures, never code.
// The other student's solved attempt is posted through the API. The board counts them,
// on a laptop, on a phone and on the projector, where the exercise is a view of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { call, join, startClass, type ClassServer } from '../fixtures/class-server.ts';
import { path } from '../../src/core/class/protocol.ts';
import { picture, screenshots } from './harness.ts';
import { browserAndClassServer, closeBoth, openClassPage } from './class-pages.ts';
import { checkAndMeasure, text } from './exercise-helpers.ts';

let browser: Browser;
let server: ClassServer;
beforeAll(async () => void ([browser, server] = await browserAndClassServer()));
afterAll(() => closeBoth(browser, server));

const open = (path: string, viewport: { width: number; height: number }, remember: Record<string, string> = {}) => openClassPage(browser, server, path, viewport, remember);

describe('an exercise in a class', () => {
  it('names exercise 2 in the plan, and the board counts the machines that solved it and shows their speedups, never their code', async () => {
    const started = await startClass(server);
    const { code, teacherToken } = started.body as { code: string; teacherToken: string };
    const base = `${server.url}${path('info', { code })}`;
    const asTeacher = { [`blake3-lab:class:${code}:teacher`]: teacherToken };

    // The teacher names the exercise on the join screen's plan picker.
    const teacher = await open(`/#/class/${code}/join`, { width: 1280, height: 800 }, asTeacher);
    await teacher.page.getByTestId('plan-picker').waitFor();
    await teacher.page.getByTestId('plan-exercise').selectOption('2');
    await teacher.page.getByTestId('save-plan').click();
    await expect.poll(() => teacher.page.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(1);
    expect((await call(base)).body.plan.exercise).toBe(2);
    await teacher.context.close();

    // Ana joins on the class page, then opens the exercise in the same browser.
    const ana = await open(`/#/class/${code}`, { width: 1280, height: 800 });
    await ana.page.getByTestId('nickname').fill('Ana');
    await ana.page.getByTestId('join').click();
    await ana.page.getByTestId('run-class').waitFor();
    const sent: string[] = [];
    ana.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/exercise')) sent.push(request.postData() ?? '');
    });
    await ana.page.goto(`${server.url}/#/exercise/2`);
    await ana.page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });
    await expect.poll(() => text(ana.page, 'exercise-class')).toBe(`Each attempt's outcome goes to the board of class ${code}: its verdict and speedups, never your code.`);
    await ana.page.getByTestId('rounds').selectOption('5');
    expect(await checkAndMeasure(ana.page)).toMatch(/^(Not yet|Cannot tell yet)/);
    await expect.poll(() => text(ana.page, 'exercise-class-note'), { timeout: 10_000 }).toBe(`This attempt’s outcome is on the board of class ${code}.`);
    expect(sent).toHaveLength(1);
    const outcome = JSON.parse(sent[0]);
    expect(Object.keys(outcome)).toEqual(['exercise', 'passed', 'status', 'sizes']);
    expect(outcome).toMatchObject({ exercise: 2, passed: true, sizes: [{ size: 1024 }, { size: 1048576 }] });
    expect(outcome.status).not.toBe('met');
    expect(sent[0]).not.toMatch(/function|export|import/);
    await screenshots(ana.page, 'class-exercise-page');
    await picture(ana.page.locator('section.run'), 'class-exercise-run');
    expect(ana.errors).toEqual([]);
    await ana.context.close();

    // Ben's solved attempt comes through the API, as his page would send it.
    const ben = (await join(base, 'Ben')).body;
    const solved = {
      exercise: 2,
      passed: true,
      status: 'met',
      sizes: [
        { size: 1024, draft: { ratio: 1.34, range: [1.3, 1.38] }, reference: 1.36 },
        { size: 1048576, draft: { ratio: 1.3, range: [1.26, 1.33] }, reference: 1.32 },
      ],
    };
    expect((await call(`${base}/students/${ben.id}/exercise`, { method: 'POST', body: solved, token: ben.token })).status).toBe(200);

    // The board on a laptop and a phone: the exercise's section, in words and figures.
    const board = await open(`/#/class/${code}/board`, { width: 1280, height: 800 }, asTeacher);
    await expect.poll(() => text(board.page, 'exercise-words'), { timeout: 10_000 }).toBe('1 of 2 machines solved exercise 2; 1 attempted.');
    // Neither machine ran the benchmark, and the machine table says they sent exercises, not nothing.
    for (const name of ['Ana', 'Ben']) expect(await board.page.locator('[data-testid="board-row"]', { hasText: name }).locator('td.run').textContent()).toBe('exercises only');
    const rows = board.page.getByTestId('exercise-size');
    expect(await rows.count()).toBe(2);
    expect(await rows.first().locator('th').textContent()).toBe('1 KiB');
    expect(await rows.first().locator('td').allTextContents()).toEqual(['2', expect.stringMatching(/^\d+\.\d+x\d+\.\d+x–\d+\.\d+x$/), expect.stringMatching(/^\d+\.\d+x\d+\.\d+x–\d+\.\d+x$/)]);
    await board.page.getByTestId('exercise-board').scrollIntoViewIfNeeded();
    await screenshots(board.page, 'class-exercise-board');
    // The phone's board fits its width once the chart has followed the resize.
    await board.page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => board.page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await picture(board.page.getByTestId('exercise-board'), 'class-exercise-section-390');
    expect(board.errors).toEqual([]);
    await board.context.close();

    // The projector: the exercise is one press away, and its figures are on screen.
    const projector = await open(`/?present#/class/${code}/board`, { width: 1920, height: 1080 }, asTeacher);
    await projector.page.getByTestId('board-view-exercise').click();
    await expect.poll(() => text(projector.page, 'exercise-words')).toBe('1 of 2 machines solved exercise 2; 1 attempted.');
    const table = (await projector.page.getByTestId('exercise-figures').boundingBox())!;
    expect(table.y + table.height).toBeLessThanOrEqual(1080);
    expect(await projector.page.evaluate(() => document.documentElement.scrollWidth)).toBe(1920);
    await picture(projector.page, 'class-exercise-board-1920');
    expect(projector.errors).toEqual([]);
    await projector.context.close();
  });
});
