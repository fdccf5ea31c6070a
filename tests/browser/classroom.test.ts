// A class in Chromium: a teacher starts a class and picks a short plan, three students
// (each in their own browser context) join and run it, and the board fills live. Served
// by the real class server over the built app; the static app shows no class features.
// Then a full class posted through the API: the board fits a projector, its chart has a
// table with the same figures, and a student cancels a run and runs again.
import { get as httpGet } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Results } from '../../src/core/bench/results.ts';
import { spread } from '../../src/app/class/board.ts';
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { path } from '../../src/core/class/protocol.ts';
import { summarize } from '../../src/core/class/summary.ts';
import { formatSig } from '../../src/core/format.ts';
import { call, classWithStudents, join, postResults, studentResults, type ClassServer } from '../fixtures/class-server.ts';
import { openApp, picture } from './harness.ts';
import { browserAndClassServer, closeBoth, openClassPage, type ClassPage } from './class-pages.ts';

let browser: Browser;
let server: ClassServer;
beforeAll(async () => void ([browser, server] = await browserAndClassServer()));
afterAll(() => closeBoth(browser, server));

type Opened = ClassPage;

const open = (path: string, viewport = { width: 1280, height: 800 }, remember: Record<string, string> = {}) => openClassPage(browser, server, path, viewport, remember);

/** Holds one event stream open from this process (127.0.0.1), until `close`. */
function holdStream(url: string): Promise<{ close(): void }> {
  return new Promise((resolve, reject) => {
    const get = httpGet(url, { agent: false }, (response) => {
      response.resume();
      resolve({ close: () => get.destroy() });
    });
    get.on('error', reject);
  });
}

/** The nicknames in the board's table, without the "(you)" that marks the page's own machine. */
const rowNames = async (page: Page) => (await page.locator('[data-testid="board-row"] th').allTextContents()).map((name) => name.replace(/ \(you\)$/, ''));

describe('class board', () => {
  it('the static app links the class page from the top bar, and it says what a class needs', async () => {
    const { page, errors } = await openApp(browser, '/#/');
    await page.locator('nav[aria-label="Sections"] a[href="#/class"]').click();
    await page.getByTestId('no-class-server').waitFor();
    expect(await page.getByTestId('start-class').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('starts a class only from the teacher’s link, which leaves the address bar at once', async () => {
    const stranger = await open('/#/class');
    await stranger.page.getByTestId('need-host').waitFor();
    expect(await stranger.page.getByTestId('start-class').count()).toBe(0);
    await stranger.context.close();
    const teacher = await open(`/?present&host=${server.hostKey}#/class`);
    await teacher.page.getByTestId('start-class').waitFor();
    expect(teacher.page.url()).toBe(`${server.url}/?present#/class`);
    expect(teacher.errors).toEqual([]);
    await teacher.context.close();
  });

  it('a teacher and three students run a short plan and the board fills', async () => {
    const teacher = await open(`/?host=${server.hostKey}#/`);
    expect(teacher.page.url()).toBe(`${server.url}/#/`);
    await teacher.page.locator('nav a[href="#/class"]').click();
    await teacher.page.getByTestId('start-class').click();
    const code = (await teacher.page.getByTestId('join-code-big').textContent())!.replace(/\s/g, '');
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    expect(await teacher.page.getByTestId('join-url').textContent()).toBe(`${server.url}/#/class/${code}`);
    expect(await teacher.page.locator('[data-testid="qr"] path').getAttribute('d')).toMatch(/^M\d/);

    // A short plan: three stages at 1 KiB, 2 rounds. The picker shows once the class has
    // loaded; unticking before then would find no boxes and save the default plan.
    await teacher.page.getByTestId('plan-picker').waitFor();
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
    expect(await students[0].page.locator('section.run').textContent()).toMatch(/3 contestants at 1 KiB, 2 rounds/);
    await Promise.all(students.map((s) => s.page.getByTestId('run-class').click()));
    for (const student of students) {
      await expect.poll(() => student.page.getByTestId('run-delivered').count(), { timeout: 120_000, interval: 500 }).toBe(1);
    }

    // The teacher's board has filled by itself: three machines, a ladder, a table.
    await expect.poll(() => teacher.page.getByTestId('board-count').textContent(), { timeout: 10_000 }).toMatch(/^3 machines have reported \(3 finished, 3 joined\)/);
    // Every machine ran in a cross-origin isolated page (served by the class server over http://127.0.0.1).
    expect(await teacher.page.getByTestId('not-isolated').count()).toBe(0);
    expect((await rowNames(teacher.page)).sort()).toEqual(['Ana', 'Ben <script>', 'Chloé']);
    const ladder = await teacher.page.locator('[data-testid="ladder"] tbody tr').allTextContents();
    expect(ladder).toHaveLength(2);
    // Each step: the class's median, the article's figure, and how many machines can tell it (none, with 2 rounds).
    expect(ladder[0]).toMatch(/^7 vs 6\d\.\d+x1\.02x0 of 3$/);
    const cells = await teacher.page.locator('[data-testid="board-row"]').first().locator('td').allTextContents();
    expect(cells.slice(0, 3).every((c) => /^[\d,.]+$/.test(c))).toBe(true);

    // Each student sees every machine, their own marked.
    for (const [i, student] of students.entries()) {
      await expect.poll(() => student.page.locator('[data-testid="board-row"]').count()).toBe(3);
      expect(await student.page.locator('[data-testid="board-table"] tr.mine th').textContent()).toBe(`${names[i]} (you)`);
    }

    // Sorting by nickname, then hiding a machine: it leaves every board, the teacher's
    // (the projector's) too; only the teacher's closed list of hidden machines names it.
    await teacher.page.getByRole('button', { name: 'Nickname' }).click();
    expect(await rowNames(teacher.page)).toEqual(['Ana', 'Ben <script>', 'Chloé']);
    await teacher.page.getByRole('button', { name: 'Hide Ben <script>' }).click();
    await expect.poll(async () => (await rowNames(students[0].page)).sort()).toEqual(['Ana', 'Chloé']);
    await expect.poll(() => rowNames(teacher.page)).toEqual(['Ana', 'Chloé']);
    expect(await teacher.page.getByTestId('board-count').textContent()).toMatch(/^2 machines have reported/);
    const hiddenList = teacher.page.getByTestId('hidden-machines');
    expect(await hiddenList.locator('summary').textContent()).toBe('1 hidden machine (not on any board)');
    expect(await hiddenList.getByText('Ben <script>').isVisible()).toBe(false);
    await hiddenList.locator('summary').click();
    await hiddenList.getByRole('button', { name: 'Show Ben <script> again' }).click();
    await expect.poll(() => rowNames(students[0].page)).toHaveLength(3);

    // Closing joins: the projector and a new student's page say so; a student who joins anyway
    // waits, counted on the teacher's board, and gets in by itself when the teacher lets them in.
    await teacher.page.getByTestId('close-joins').click();
    await expect.poll(() => teacher.page.getByTestId('class-state').textContent()).toBe('joins closed: no new machines');
    const late = await open(`/#/class/${code}`, { width: 390, height: 844 });
    await late.page.getByTestId('joins-closed').waitFor();
    // A name is counted as a reader counts it: 41 family emoji (11 UTF-16 units each) are
    // kept whole in the field and refused for being one character too long, before sending.
    const family = '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
    await late.page.getByTestId('nickname').fill(family.repeat(41));
    expect(await late.page.getByTestId('nickname').inputValue()).toBe(family.repeat(41));
    await late.page.getByTestId('join').click();
    await expect.poll(() => late.page.getByRole('alert').textContent()).toBe('A nickname has at most 40 characters');
    await late.page.getByTestId('nickname').fill('Dana');
    await late.page.getByTestId('join').click();
    await expect.poll(() => late.page.getByTestId('join-waiting').textContent()).toMatch(/Not in yet\. The teacher has closed joins for now\. This page joins by itself as soon as they open them again/);
    await expect.poll(() => teacher.page.getByTestId('refused').textContent()).toMatch(/1 turned away \(1 joins closed\); 1 waiting to get in/);
    await teacher.page.getByTestId('admit').click();
    await late.page.getByTestId('run-class').waitFor();
    expect(await late.page.locator('h1').textContent()).toBe('Hello, Dana');
    await expect.poll(() => rowNames(teacher.page)).toContain('Dana');
    expect(await teacher.page.locator('[data-testid="board-row"]', { hasText: 'Dana' }).locator('td.run').textContent()).toBe('silent');
    await late.context.close();

    // Removing a machine: it leaves every board, and that student's page offers to join again.
    teacher.page.once('dialog', (dialog) => void dialog.accept());
    await teacher.page.getByRole('button', { name: 'Remove Chloé' }).click();
    await expect.poll(async () => (await rowNames(students[0].page)).sort()).toEqual(['Ana', 'Ben <script>', 'Dana']);
    await expect.poll(() => teacher.page.getByTestId('board-count').textContent()).toMatch(/\(2 finished, 3 joined\)/);
    await students[2].page.getByTestId('run-class').click();
    await students[2].page.getByTestId('nickname').waitFor({ timeout: 60_000 });
    expect(await students[2].page.getByRole('alert').textContent()).toMatch(/no longer in the class/);

    // The removed student's post was refused (404), which the browser logs; nothing else may be.
    students[2].errors.splice(0, Infinity, ...students[2].errors.filter((e) => !/status of 404/.test(e)));
    for (const opened of [teacher, ...students]) expect(opened.errors).toEqual([]);
    await Promise.all([teacher, ...students].map((o) => o.context.close()));
  });
});

/**
 * A class on the default plan (every stage and WASM at 1 KiB and 64 KiB) with ten machines
 * posted through the API, long nicknames among them, figures from about 1 to 4,000 MB/s
 * like a real ladder, and one run still going.
 */
async function fullClass() {
  const nicknames = ['Ana', 'Benjamin Oluwaseun-Hartmann', 'Chloé', 'Dmitri', 'Esperanza la más rápida del aula', 'Fatima', 'Gus', 'Hiroshi', 'Inès', 'Jo'];
  const { code, teacherToken, ticket, base } = await classWithStudents(server, 0);
  const students: { id: string; token: string; nickname: string }[] = [];
  const documents: Results[] = [];
  for (const [i, nickname] of nicknames.entries()) {
    const student = (await join(base, nickname)).body;
    students.push(student);
    const results = studentResults(i, DEFAULT_CLASS_PLAN.contestants, DEFAULT_CLASS_PLAN.sizes);
    for (const run of results.runs) {
      const k = DEFAULT_CLASS_PLAN.contestants.indexOf(run.contestant);
      run.nsPerOp = run.nsPerOp.map((ns) => (ns * 40) / 1.6 ** k);
    }
    documents.push(results);
    expect((await postResults(base, student, results, i !== 3)).status).toBe(200);
  }
  return { code, teacherToken, ticket, students, documents };
}

/** How far the page and the board table reach sideways, against what they show. */
const widths = (page: Page) =>
  page.evaluate(() => {
    const box = document.querySelector('[data-testid="board-table"]')!.parentElement!;
    return { page: document.documentElement.scrollWidth, box: box.clientWidth, table: box.scrollWidth };
  });

/** Opens the teacher's board at both sizes while its stream is refused: each says it is not live, and still shows the class. */
async function offlineBoards(code: string, teacherToken: string, ticket: string, opened: Opened[]) {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const board = await open(`/#/class/${code}/board`, viewport, { [`blake3-lab:class:${code}:teacher`]: teacherToken, [`blake3-lab:class:${code}:teacher-ticket`]: ticket });
    opened.push(board);
    const status = board.page.getByTestId('live-status');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 10_000 }).toBe('offline');
    expect(await status.textContent()).toMatch(/Not live: the connection to the class server was lost, so this board may be out of date\. Reconnect/);
    await expect.poll(() => board.page.locator('[data-testid="board-row"]').count()).toBe(10);
    await picture(board.page, `board-offline-${viewport.width}`);
  }
}

describe('class board for a whole class', () => {
  it('fits the machine table in 1280 pixels, in presenter type too; on a phone only the table scrolls', async () => {
    const { code, teacherToken } = await fullClass();
    const teacher = { [`blake3-lab:class:${code}:teacher`]: teacherToken };
    for (const path of [`/#/class/${code}/board`, `/?present#/class/${code}/board`]) {
      const opened = await open(path, { width: 1280, height: 800 }, teacher);
      // On a projector the board shows one view at a time: the machines are one press away.
      if (path.includes('present')) await opened.page.getByTestId('board-view-machines').click();
      await expect.poll(() => opened.page.locator('[data-testid="board-row"]').count()).toBe(10);
      // Every stage, the run's state and the teacher's button, with no scrolling at all.
      const { page, box, table } = await widths(opened.page);
      expect(page, path).toBe(1280);
      expect(table, path).toBeLessThanOrEqual(box);
      const headings = await opened.page.locator('[data-testid="board-table"] thead th').allTextContents();
      expect(headings.map((h) => h.trim())).toEqual(['Nickname', ...'0 1 2 3 4 5 6 7 8 9 10 11'.split(' '), 'WASM▼', 'Run', 'Teacher']);
      // Names wrap rather than being cut.
      expect(await opened.page.locator('[data-testid="board-row"] th').allTextContents()).toContain('Esperanza la más rápida del aula');
      // Browser, OS and cores are one press away.
      await opened.page.getByTestId('board-details').click();
      expect(await opened.page.locator('[data-testid="board-table"] thead th').nth(1).textContent()).toBe('Browser');
      expect(await opened.page.locator('[data-testid="board-table"] thead th').nth(4).textContent()).toBe('Isolated');
      expect(new Set(await opened.page.locator('[data-testid="board-row"] td.isolated').allTextContents())).toEqual(new Set(['yes']));
      expect(await opened.page.locator('[data-testid="board-row"]', { hasText: 'Benjamin' }).locator('td').first().textContent()).toBe('Chromium 156');
      expect(opened.errors).toEqual([]);
      await opened.context.close();
    }
    const phone = await open(`/#/class/${code}/board`, { width: 390, height: 844 }, teacher);
    await expect.poll(() => phone.page.locator('[data-testid="board-row"]').count()).toBe(10);
    const { page, box, table } = await widths(phone.page);
    expect(page).toBe(390);
    expect(table).toBeGreaterThan(box);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it('says when the board is no longer live, and goes live again by itself', async () => {
    const { code, teacherToken, ticket } = await fullClass();
    // Every place the teacher's browsers have: the board's stream is refused.
    const held = await Promise.all(Array.from({ length: 8 }, () => holdStream(`${server.url}${path('events', { code })}?ticket=${encodeURIComponent(ticket)}`)));
    const shots: Opened[] = [];
    try {
      await offlineBoards(code, teacherToken, ticket, shots);
    } finally {
      for (const stream of held) stream.close();
    }
    for (const opened of shots) {
      await expect.poll(() => opened.page.getByTestId('live-status').getAttribute('data-status'), { timeout: 20_000 }).toBe('live');
      await picture(opened.page, `board-live-${opened.page.viewportSize()!.width}`);
      // The refused stream is all the browser logged.
      expect(opened.errors.filter((e) => !/EventSource|status of 503/.test(e))).toEqual([]);
      await opened.context.close();
    }
  });

  it('gives the chart a table of the same figures, named as its description', async () => {
    const { code, students, documents } = await fullClass();
    const opened = await open(`/#/class/${code}`, { width: 1280, height: 800 }, { [`blake3-lab:class:${code}:student`]: JSON.stringify(students[0]) });
    const { page } = opened;
    await expect.poll(() => page.locator('[data-testid="board-row"]').count()).toBe(10);
    const chart = page.getByRole('img', { name: /^MB\/s of every machine/ });
    const described = await chart.getAttribute('aria-describedby');
    expect(await page.evaluate((id) => document.getElementById(id)?.tagName, described!)).toBe('CAPTION');

    await page.getByText('Show the chart as a table').click();
    const table = page.getByRole('table', { name: /^MB\/s at 64 KiB for each column of the chart/ });
    await table.waitFor();
    expect(await table.locator('thead th').allTextContents()).toEqual(['Stage', 'Machines', 'Slowest', 'Middle half', 'Median', 'Fastest', 'This machine']);
    const rows = await table.locator('tbody tr').all();
    expect(rows).toHaveLength(DEFAULT_CLASS_PLAN.contestants.length);
    // The figures the board draws, worked out here from the documents the machines posted.
    const summaries = documents.map((d, i) => summarize(d, { id: String(i), nickname: '', done: true, hidden: false, updatedAt: 0 }));
    for (const [k, id] of DEFAULT_CLASS_PLAN.contestants.entries()) {
      const s = spread(summaries.map((summary) => summary.throughput[id]['65536']))!;
      const cells = await rows[k].locator('td').allTextContents();
      expect(cells, id).toEqual([
        '10',
        formatSig(s.min),
        `${formatSig(s.q1)}–${formatSig(s.q3)}`,
        formatSig(s.median),
        formatSig(s.max),
        formatSig(summaries[0].throughput[id]['65536']),
      ]);
    }
    expect(await rows[0].locator('th').textContent()).toBe('0. Reference port');
    expect(opened.errors).toEqual([]);
    await opened.context.close();
  });

  it('lets a student cancel a run: what reached the board stays, marked stopped, and the student can run again', async () => {
    const { code, base, teacherToken } = await classWithStudents(server, 0);
    // Long enough that a cancel always lands mid-run: every contestant at 1 KiB, 30 rounds.
    const plan = { contestants: DEFAULT_CLASS_PLAN.contestants, sizes: [1024], rounds: 30 };
    expect((await call(`${base}/plan`, { method: 'PUT', body: { plan }, token: teacherToken })).status).toBe(200);
    const { page, context, errors } = await open(`/#/class/${code}`, { width: 390, height: 844 });
    await page.getByTestId('nickname').fill('Ana');
    await page.getByTestId('join').click();

    const run = page.getByTestId('run-class');
    const cancel = page.getByTestId('cancel-run');
    const myRow = page.locator('[data-testid="board-table"] tr.mine');
    const runCell = async () => (await myRow.locator('td.run').allTextContents())[0] ?? null;
    const figures = async () => (await myRow.locator('td').allTextContents()).filter((c) => /^[\d,.]+$/.test(c)).length;
    for (const attempt of [1, 2]) {
      await run.click();
      expect(await run.isDisabled()).toBe(true);
      // The run posts as it goes: wait until this machine shows on the board, running, with figures.
      await expect.poll(runCell, { timeout: 60_000 }).toBe('running');
      await expect.poll(figures, { timeout: 60_000 }).toBeGreaterThan(0);
      const before = await figures();
      await cancel.click();
      await page.getByTestId('run-stopped').waitFor();
      // Focus goes back to the run button, which runs the plan again.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('run-class');
      expect(await cancel.count()).toBe(0);
      expect(await run.textContent()).toMatch(/Run again/);
      expect(await run.isEnabled()).toBe(true);
      // The board keeps every figure it had, and says the run was stopped, on every screen.
      await expect.poll(runCell, { timeout: 15_000 }).toBe('stopped');
      expect(await figures(), `attempt ${attempt}`).toBeGreaterThanOrEqual(before);
      const entry = (await call(`${base}/board`)).body.entries[0];
      expect(entry).toMatchObject({ nickname: 'Ana', done: true, stopped: true });
      expect(Object.keys(entry.throughput).length).toBeGreaterThanOrEqual(before);
    }
    // Cancelled before its first sample: nothing of that run reaches the board, which keeps the last one.
    const kept = (await call(`${base}/board`)).body.entries[0];
    await run.click();
    await cancel.click();
    await page.getByTestId('run-stopped').waitFor();
    await expect.poll(() => run.isEnabled()).toBe(true);
    expect((await call(`${base}/board`)).body.entries[0]).toEqual(kept);
    expect(await runCell()).toBe('stopped');

    expect(await page.getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
