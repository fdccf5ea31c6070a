// Each machine's verdict on each step, on the board. Three pages join a class and run a
// short plan; the board's per-step verdicts (speedup, interval, p after Holm, faster or
// cannot tell) must equal what this test works out from the documents the pages posted,
// with the bench's statistics taken one by one (median interval, U test, Holm). Then a
// dozen machines, one of them noisy, posted through the API: the projector's board at
// 1920x1080 at the slides' scale, each view one press away, the reveal included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Results } from '../../src/core/bench/results.ts';
import { holm } from '../../src/core/stats/aggregate.ts';
import { compareSamples } from '../../src/core/stats/ab-test.ts';
import { summarize } from '../../src/core/stats/median.ts';
import { formatPValue } from '../../src/core/stats/format.ts';
import { formatRatio } from '../../src/core/format.ts';
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { call, classWithStudents, join, postResults, studentResults, type ClassServer } from '../fixtures/class-server.ts';
import { picture } from './harness.ts';
import { browserAndClassServer, closeBoth, openClassPage } from './class-pages.ts';

let browser: Browser;
let server: ClassServer;
beforeAll(async () => void ([browser, server] = await browserAndClassServer()));
afterAll(() => closeBoth(browser, server));

const open = (path: string, viewport: { width: number; height: number }, remember: Record<string, string> = {}) => openClassPage(browser, server, path, viewport, remember);

/** What the board should say of one step on one machine, worked out from its samples. */
interface Expected {
  speedup: string;
  interval: string;
  p: string;
  verdict: 'faster' | 'slower' | 'cannot tell';
}

/**
 * The steps of one posted document, each stage against the one before it in the plan, at
 * each size: throughput samples (bytes / ns), the median and its 95% interval per side, the
 * U test, then Holm over every step of the document, as the bench's comparison does.
 */
function expectedSteps(results: Results, stages: string[]): Map<string, Expected> {
  const samples = (id: string, size: number) => results.runs.find((r) => r.contestant === id && r.size === size)?.nsPerOp.map((ns) => (size / ns) * 1e9);
  const steps: { key: string; a: number[]; b: number[] }[] = [];
  for (const size of results.config.sizes) {
    for (let i = 1; i < stages.length; i++) {
      const a = samples(stages[i - 1], size);
      const b = samples(stages[i], size);
      if (a?.length && b?.length) steps.push({ key: `${stages[i]}>${stages[i - 1]}@${size}`, a, b });
    }
  }
  const tests = steps.map((s) => compareSamples(s.a, s.b));
  const adjusted = holm(tests.map((t) => t.p));
  return new Map(
    steps.map((s, i) => {
      const [old, neu] = [summarize(s.a), summarize(s.b)];
      const finite = [old.lo, old.hi, neu.lo, neu.hi].every(Number.isFinite);
      const sure = adjusted[i] <= 0.05;
      const ratio = neu.center / old.center;
      return [
        s.key,
        {
          speedup: formatRatio(ratio),
          interval: finite ? `${formatRatio(neu.lo / old.hi)}–${formatRatio(neu.hi / old.lo)}` : 'none yet',
          p: adjusted[i] < 0.0005 ? '< 0.001' : formatPValue(adjusted[i]),
          verdict: !sure ? 'cannot tell' : ratio >= 1 ? 'faster' : 'slower',
        },
      ];
    }),
  );
}

/** The rows of the board's verdict table for the step picked: nickname to its four cells. */
async function verdictRows(page: Page): Promise<Map<string, Expected>> {
  const rows = new Map<string, Expected>();
  for (const row of await page.getByTestId('verdict-row').all()) {
    const name = (await row.locator('th').textContent())!;
    const [speedup, interval, p, verdict] = await row.locator('td').allTextContents();
    rows.set(name, { speedup, interval, p, verdict: verdict.replace(/^(faster|slower|cannot tell).*$/s, '$1') as Expected['verdict'] });
  }
  return rows;
}

describe('each machine’s verdict on the board', () => {
  it('three pages run a plan, and the board’s verdicts are the statistics of the samples they posted', async () => {
    const stages = ['06-message-locals', '07-reuse-buffers', '08-little-endian'];
    const plan = { contestants: stages, sizes: [1024], rounds: 6 };
    const { code, base, teacherToken } = await classWithStudents(server, 0);
    expect((await call(`${base}/plan`, { method: 'PUT', body: { plan }, token: teacherToken })).status).toBe(200);

    const names = ['Ana', 'Ben', 'Chloé'];
    const posted = new Map<string, Results>();
    const students = await Promise.all(names.map(() => open(`/#/class/${code}`, { width: 390, height: 844 })));
    for (const [i, student] of students.entries()) {
      // The last finished document each page sends is what the board's row comes from.
      student.page.on('request', (request) => {
        if (request.method() === 'PUT' && /\/results\?done=1$/.test(request.url())) posted.set(names[i], JSON.parse(request.postData()!));
      });
      await student.page.getByTestId('nickname').fill(names[i]);
      await student.page.getByTestId('join').click();
      await student.page.getByTestId('run-class').waitFor();
    }
    await Promise.all(students.map((s) => s.page.getByTestId('run-class').click()));
    for (const student of students) await expect.poll(() => student.page.getByTestId('run-delivered').count(), { timeout: 180_000, interval: 500 }).toBe(1);
    expect([...posted.keys()].sort()).toEqual([...names].sort());

    const teacher = await open(`/?present#/class/${code}/board`, { width: 1920, height: 1080 }, { [`blake3-lab:class:${code}:teacher`]: teacherToken });
    await expect.poll(() => teacher.page.getByTestId('board-count').textContent(), { timeout: 10_000 }).toMatch(/^3 machines have reported \(3 finished/);
    await teacher.page.getByTestId('board-view-verdicts').click();
    const expected = new Map([...posted].map(([name, doc]) => [name, expectedSteps(doc, stages)]));
    for (const [step, label, words] of [
      ['07-reuse-buffers>06-message-locals', 'Stage 7 against stage 6', 'stage 7 faster than stage 6'],
      ['08-little-endian>07-reuse-buffers', 'Stage 8 against stage 7', 'stage 8 faster than stage 7'],
    ]) {
      await teacher.page.getByTestId('verdict-step').selectOption(step);
      await expect.poll(() => teacher.page.getByTestId('machine-verdicts-caption').textContent()).toMatch(new RegExp(`^${label} at 1 KiB`));
      const board = await verdictRows(teacher.page);
      for (const name of names) expect(board.get(name), `${name}, ${label}`).toEqual(expected.get(name)!.get(`${step}@1024`));
      // The count in words, from the same verdicts.
      const calls = names.map((name) => expected.get(name)!.get(`${step}@1024`)!.verdict);
      const faster = calls.filter((c) => c === 'faster').length;
      const unsure = calls.filter((c) => c === 'cannot tell').length;
      const slower = calls.length - faster - unsure;
      const sentence = await teacher.page.getByTestId('verdict-words').textContent();
      if (faster > 0 || slower === 0) expect(sentence).toContain(`${faster} of 3 machines ${faster === 1 ? 'sees' : 'see'} ${words}`);
      if (unsure > 0) expect(sentence).toContain(`${unsure} cannot tell`);
    }
    // Six rounds: every interval is finite, and no note says the plan is too short.
    expect(await teacher.page.getByTestId('few-rounds').count()).toBe(0);
    expect(await teacher.page.getByTestId('medians-only').count()).toBe(0);
    for (const opened of [teacher, ...students]) expect(opened.errors).toEqual([]);
    await Promise.all([teacher, ...students].map((o) => o.context.close()));
  });

  it('shows a dozen machines on a projector at the slides’ scale, each view one press away, and a short plan says why no machine can tell', async () => {
    const { code, base, teacherToken } = await classWithStudents(server, 0);
    const plan = DEFAULT_CLASS_PLAN;
    expect((await call(`${base}/plan`, { method: 'PUT', body: { plan }, token: teacherToken })).status).toBe(200);
    const nicknames = ['Ana', 'Ben', 'Chloé', 'Dmitri', 'Esperanza', 'Fatima', 'Gus', 'Hiroshi', 'Inès', 'Jo', 'Kwame', 'Noisy Nora'];
    const students: { id: string; token: string; nickname: string; ticket: string }[] = [];
    for (const [i, nickname] of nicknames.entries()) {
      const student = (await join(base, nickname)).body;
      students.push(student);
      const results = studentResults(i, plan.contestants, plan.sizes);
      results.config.rounds = plan.rounds;
      for (const run of results.runs) {
        const k = plan.contestants.indexOf(run.contestant);
        const ns = (run.nsPerOp[0] * 40) / 1.6 ** k;
        // Quiet machines vary by 1% from sample to sample; the noisy one by up to 60%.
        const spread = nickname === 'Noisy Nora' ? 0.6 : 0.01;
        run.nsPerOp = Array.from({ length: plan.rounds }, (_, j) => ns * (1 + spread * Math.sin(j * 2.4 + k + i)));
      }
      expect((await postResults(base, student, results)).status).toBe(200);
    }
    const teacher = await open(`/?present#/class/${code}/board`, { width: 1920, height: 1080 }, { [`blake3-lab:class:${code}:teacher`]: teacherToken });
    const { page } = teacher;
    await expect.poll(() => page.getByTestId('board-count').textContent(), { timeout: 10_000 }).toMatch(/^12 machines have reported/);
    // The slides' scale: 28 px type at 1920 pixels.
    const type = await page.locator('.class-board').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(type).toBeGreaterThanOrEqual(27.5);
    expect(type).toBeLessThanOrEqual(28.5);
    // Every view's button is on screen without scrolling, the reveal's among them.
    for (const view of ['throughput', 'guesses', 'verdicts', 'machines']) {
      const box = (await page.getByTestId(`board-view-${view}`).boundingBox())!;
      expect(box.y + box.height, view).toBeLessThanOrEqual(1080);
    }
    // The title's claim is a row of its own on the ladder.
    expect(await page.getByTestId('ladder-title').locator('th').textContent()).toBe('9 vs Rust WASM');
    expect(await page.getByTestId('ladder-title').locator('button').getAttribute('title')).toBe("Stage 9 against Rust WASM: each machine's verdict");
    expect(await page.getByTestId('ladder-title').locator('td').nth(1).textContent()).toBe('2.21x');
    await picture(page, 'board-1920-throughput');
    await page.getByTestId('board-view-guesses').click();
    await page.getByTestId('reveal-measured').waitFor();
    const reveal = (await page.getByTestId('reveal-measured').boundingBox())!;
    expect(reveal.y + reveal.height).toBeLessThanOrEqual(1080);
    await picture(page, 'board-1920-guesses');
    await page.getByTestId('board-view-verdicts').click();
    // Stage 7's step first: the one the Teach plans ask the room to read.
    expect(await page.getByTestId('verdict-step').inputValue()).toBe('07-reuse-buffers>06-message-locals');
    // Eleven quiet machines see each step; the noisy one cannot tell this one from noise.
    expect(await page.getByTestId('verdict-words').textContent()).toBe('11 of 12 machines see stage 7 faster than stage 6; 1 cannot tell.');
    expect(await page.getByTestId('verdict-row').filter({ hasText: 'Noisy Nora' }).locator('td.call').textContent()).toMatch(/^cannot tell/);
    expect(await page.getByTestId('verdict-room').textContent()).toMatch(/^The room: \S+x, middle half \S+x to \S+x\. The article’s M1 Max: 1\.02x\.$/);
    await picture(page, 'board-1920-verdicts');
    await page.getByTestId('board-view-machines').click();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBe(1920);
    await picture(page, 'board-1920-machines');
    expect(teacher.errors).toEqual([]);
    await teacher.context.close();

    // Fewer rounds than an interval needs: the board says why no machine can tell.
    expect((await call(`${base}/plan`, { method: 'PUT', body: { plan: { ...plan, rounds: 3 } }, token: teacherToken })).status).toBe(200);
    const short = studentResults(0, plan.contestants, plan.sizes);
    expect((await postResults(base, students[0], short)).status).toBe(200);
    const phone = await open(`/#/class/${code}`, { width: 390, height: 844 }, { [`blake3-lab:class:${code}:student`]: JSON.stringify(students[0]) });
    await phone.page.getByTestId('step-verdicts').waitFor();
    expect(await phone.page.getByTestId('few-rounds').textContent()).toMatch(/This plan takes 3 rounds, one sample of each stage a round: with fewer than 4 samples a side no machine can tell a step from noise, and with fewer than 6 no interval is finite\./);
    expect(await phone.page.getByTestId('verdict-row').filter({ hasText: 'Ana' }).locator('td.call').textContent()).toMatch(/^cannot tell3 samples a side: the smallest p the test can give is 0\.1/);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await picture(phone.page, 'student-390', { fullPage: true });
    await phone.page.getByTestId('step-verdicts').scrollIntoViewIfNeeded();
    await picture(phone.page, 'student-390-verdicts');
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
