// A class in Chromium: a teacher starts a class and picks a short plan, three students
// (each in their own browser context) join and run it, and the board fills live. Served
// by the real class server over the built app; the static app shows no class features.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startClassServer, type ClassServer } from '../fixtures/class-server.ts';
import { launchBrowser, openApp } from './harness.ts';

let browser: Browser;
let server: ClassServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startClassServer({ data: join(mkdtempSync(join(tmpdir(), 'blake3-lab-class-')), 'data'), dist: inject('distDir') }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Opened {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

async function open(path: string, viewport = { width: 1280, height: 800 }): Promise<Opened> {
  const context = await browser.newContext({ viewport, colorScheme: 'light' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  context.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== server.url) errors.push(`foreign request: ${url}`);
  });
  await page.goto(server.url + path);
  return { context, page, errors };
}

const rowNames = (page: Page) => page.locator('[data-testid="board-row"] th').allTextContents();

describe('class board', () => {
  it('the static app shows no class link and says what a class needs', async () => {
    const { page, errors } = await openApp(browser, '/#/class');
    await page.getByTestId('no-class-server').waitFor();
    expect(await page.locator('nav a[href="#/class"]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a teacher and three students run a short plan and the board fills', async () => {
    const teacher = await open('/#/');
    await teacher.page.locator('nav a[href="#/class"]').click();
    await teacher.page.getByTestId('start-class').click();
    const code = (await teacher.page.getByTestId('join-code-big').textContent())!.replace(/\s/g, '');
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    expect(await teacher.page.getByTestId('join-url').textContent()).toBe(`${server.url}/#/class/${code}`);
    expect(await teacher.page.locator('[data-testid="qr"] path').getAttribute('d')).toMatch(/^M\d/);

    // A short plan: three stages at 1 KiB, 2 rounds.
    for (const box of await teacher.page.locator('input[data-testid^="plan-"][type="checkbox"]').all()) await box.uncheck();
    for (const id of ['06-message-locals', '07-reuse-buffers', '08-little-endian']) await teacher.page.getByTestId(`plan-${id}`).check();
    await teacher.page.getByTestId('plan-size-1024').check();
    await teacher.page.getByTestId('plan-rounds').fill('2');
    await teacher.page.getByTestId('save-plan').click();
    await expect.poll(() => teacher.page.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(1);
    await teacher.page.getByTestId('open-board').click();
    await teacher.page.getByTestId('teacher-tools').waitFor();

    const names = ['Ana', 'Ben <script>', 'Chloé'];
    const students = await Promise.all(names.map(() => open(`/#/class/${code.toLowerCase()}`, { width: 390, height: 844 })));
    for (const [i, student] of students.entries()) {
      await student.page.getByTestId('nickname').fill(names[i]);
      await student.page.getByTestId('join').click();
      await student.page.getByTestId('run-class').waitFor();
    }
    expect(await students[0].page.locator('.run').textContent()).toMatch(/3 contestants at 1 KiB, 2 rounds/);
    await Promise.all(students.map((s) => s.page.getByTestId('run-class').click()));
    for (const student of students) {
      await expect.poll(() => student.page.getByTestId('run-delivered').count(), { timeout: 120_000, interval: 500 }).toBe(1);
    }

    // The teacher's board has filled by itself: three machines, a ladder, a table.
    await expect.poll(() => teacher.page.getByTestId('board-count').textContent(), { timeout: 10_000 }).toMatch(/^3 machines have reported \(3 finished, 3 joined\)/);
    expect((await rowNames(teacher.page)).sort()).toEqual(['Ana', 'Ben <script>', 'Chloé']);
    const ladder = await teacher.page.locator('[data-testid="ladder"] tbody tr').allTextContents();
    expect(ladder).toHaveLength(2);
    expect(ladder[0]).toMatch(/^7\. .*\d\.\d+x.*1\.02x$/);
    const cells = await teacher.page.locator('[data-testid="board-row"]').first().locator('td').allTextContents();
    expect(cells.slice(3, 6).every((c) => /^[\d,.]+$/.test(c))).toBe(true);

    // Each student sees every machine, their own marked.
    for (const [i, student] of students.entries()) {
      await expect.poll(() => student.page.locator('[data-testid="board-row"]').count()).toBe(3);
      expect(await student.page.locator('tr.mine th').textContent()).toBe(`${names[i]} (you)`);
    }

    // Sorting by nickname, then hiding a machine: it leaves the students' boards.
    await teacher.page.getByRole('button', { name: 'Nickname' }).click();
    expect(await rowNames(teacher.page)).toEqual(['Ana', 'Ben <script>', 'Chloé']);
    await teacher.page.locator('[data-testid="board-row"]').nth(1).getByRole('button', { name: 'Hide' }).click();
    await expect.poll(() => rowNames(students[0].page)).toEqual(expect.not.arrayContaining(['Ben <script>']));
    expect(await students[0].page.locator('[data-testid="board-row"]').count()).toBe(2);

    for (const opened of [teacher, ...students]) expect(opened.errors).toEqual([]);
    await Promise.all([teacher, ...students].map((o) => o.context.close()));
  });
});
