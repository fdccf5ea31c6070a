// A full class in Chromium, every page from one address (127.0.0.1, as a school's network
// looks from outside it): a script took the last place, two students are turned away and
// wait, the teacher sees why and lets them in. What a refused student and the teacher see
// can be saved as pictures (BLAKE3_LAB_SHOTS=folder), at a projector's 1280 and a phone's 390.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { call, join, postResults, startClass, studentResults, type ClassServer } from '../fixtures/class-server.ts';
import { path } from '../../src/core/class/protocol.ts';
import { picture } from './harness.ts';
import { browserAndClassServer, closeBoth, openClassPage, type ClassPage } from './class-pages.ts';

/** One character as a reader counts it, of twenty joined jamo: the most UTF-16 units the rules allow in one character. */
const WIDE_NAME = `${'\u1100'.repeat(19)}\u1161`;

let browser: Browser;
let server: ClassServer;
beforeAll(async () => void ([browser, server] = await browserAndClassServer()));
afterAll(() => closeBoth(browser, server));

type Opened = ClassPage;

// A refused join is an HTTP error the browser logs; the page says why in its own words.
const open = (hash: string, viewport: { width: number; height: number }, remember: Record<string, string> = {}) => openClassPage(browser, server, `/${hash}`, viewport, remember, /status of 409/);

describe('a class whose pages share one address', () => {
  it('shows a refused student why, and the teacher who was turned away, with one button to let them in', async () => {
    const started = await startClass(server, { size: 4 });
    const { code, teacherToken, ticket } = started.body;
    const base = `${server.url}${path('info', { code })}`;
    const ana = (await join(base, 'Ana')).body;
    expect((await postResults(base, ana, studentResults(0))).status).toBe(200);
    const wide = (await join(base, WIDE_NAME)).body;
    expect((await postResults(base, wide, studentResults(1))).status).toBe(200);
    const benjamin = (await join(base, 'Benjamin')).body;
    expect((await postResults(base, benjamin, studentResults(2), false)).status).toBe(200);
    // A script on the school's network takes the last place; it never posts.
    expect((await call(`${base}/students`, { body: { nickname: 'bot 1' } })).status).toBe(201);
    expect((await call(`${base}/students`, { body: { nickname: 'bot 2' } })).body.reason).toBe('full');

    const teacherKeys = { [`blake3-lab:class:${code}:teacher`]: teacherToken, [`blake3-lab:class:${code}:teacher-ticket`]: ticket };
    const teacher = await open(`#/class/${code}/board`, { width: 1280, height: 800 }, teacherKeys);
    await expect.poll(() => teacher.page.locator('[data-testid="board-row"]').count()).toBe(4);

    // Two students come late: each reads that the class is full and waits.
    const students = [
      { name: 'Zoé', opened: await open(`#/class/${code}`, { width: 390, height: 844 }) },
      { name: 'Yann', opened: await open(`#/class/${code}`, { width: 1280, height: 800 }) },
    ];
    for (const { name, opened } of students) {
      await opened.page.getByTestId('nickname').fill(name);
      await opened.page.getByTestId('join').click();
      await expect.poll(() => opened.page.getByTestId('join-waiting').textContent()).toMatch(
        /Not in yet\. This class is full: it takes 4 machines\. Ask your teacher to let you in; this page joins by itself when they do/,
      );
      // Nothing about the student's device, which is not what stopped them.
      expect(await opened.page.getByTestId('join-waiting').textContent()).not.toMatch(/device/);
    }
    await picture(students[0].opened.page, 'refused-student-390', { fullPage: true });
    await picture(students[1].opened.page, 'refused-student-1280');

    // The teacher's board: who was turned away and why, the silent machine, the button.
    await expect.poll(() => teacher.page.getByTestId('refused').textContent()).toMatch(/3 turned away \(3 class full\); 2 waiting to get in/);
    expect(await teacher.page.getByTestId('places').textContent()).toBe('4 of');
    expect(await teacher.page.locator('[data-testid="board-row"]', { hasText: 'bot 1' }).locator('td.run').textContent()).toBe('silent');
    // The widest character the rules allow stays in its name's cell (the cell clips it too): the cell beside it is what shows there.
    const covered = await teacher.page.evaluate((name) => {
      const cell = [...document.querySelectorAll('[data-testid="board-row"] th')].find((th) => th.textContent === name)!;
      const box = cell.getBoundingClientRect();
      const drawn = document.createRange();
      drawn.selectNodeContents(cell);
      return { wider: drawn.getBoundingClientRect().width > box.width, covered: document.elementFromPoint(box.right + 4, box.top + box.height / 2)?.closest('td, th') === cell };
    }, wide.nickname);
    expect(covered).toEqual({ wider: false, covered: false });
    await picture(teacher.page, 'teacher-refusals-1280');
    const phone = await open(`#/class/${code}/board`, { width: 390, height: 844 }, teacherKeys);
    await phone.page.getByTestId('refused').waitFor();
    await picture(phone.page, 'teacher-refusals-390', { fullPage: true });

    // Removing the silent machine gives its place back: one waiting page gets in by itself.
    teacher.page.once('dialog', (dialog) => void dialog.accept());
    await teacher.page.getByTestId('remove-silent').click();
    const inClass = async () => (await Promise.all(students.map((s) => s.opened.page.getByTestId('run-class').count()))).reduce((a, b) => a + b);
    await expect.poll(inClass, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => teacher.page.getByTestId('refused').textContent()).toMatch(/4 turned away \(4 class full\); 1 waiting to get in/);
    expect(await inClass()).toBe(1);
    // "Let them in" makes room for the other.
    await teacher.page.getByTestId('admit').click();
    for (const { opened } of students) await opened.page.getByTestId('run-class').waitFor();
    await expect.poll(() => teacher.page.getByTestId('places').textContent()).toBe('5 of');
    expect(await teacher.page.getByTestId('class-size').inputValue()).toBe('5');
    // Nobody waits any more: the count and the button go.
    await expect.poll(() => teacher.page.getByTestId('refused').textContent()).toMatch(/^\s*4 turned away \(4 class full\)\s*$/);
    expect(await teacher.page.getByTestId('admit').count()).toBe(0);
    await picture(teacher.page, 'teacher-let-in-1280');

    for (const opened of [teacher, phone, ...students.map((s) => s.opened)]) {
      expect(opened.errors).toEqual([]);
      await opened.context.close();
    }
  });
});
