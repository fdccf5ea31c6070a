// The live benchmark page in Chromium: a short run fills the charts and tables with
// numbers as a user would see them, and a run can be cancelled half-way without losing
// what was measured. (Unavailable contestants: capabilities.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MAX_CLEAR_ROUNDS } from '../../src/core/results/analysis/until-clear.ts';
import { choosePlan, runNotes, runStatus, runToEnd, throughputRow } from './bench-helpers.ts';
import { launchBrowser, openApp } from './harness.ts';
import { MEDIAN_CELL, paintedPixels } from './results-helpers.ts';

describe('benchmark page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('runs a short benchmark to the end and fills the chart and the tables', async () => {
    const { page, errors } = await openApp(browser, '/#/bench');
    await choosePlan(page, { contestants: ['01-read-words-full', '02-precomputed-permutations', 'blake3-wasm'], sizes: [96, 1024], rounds: 3 });
    await page.getByTestId('label').fill('test machine');
    // Before the run: how long it will take, and what 3 rounds cannot tell.
    expect(await page.getByTestId('estimate').textContent()).toMatch(/^Takes about \d+ s/);
    expect(await page.getByTestId('rounds-warning').textContent()).toMatch(/Fewer than 6 rounds give no confidence interval/);
    await runToEnd(page, async () => {
      // While it runs, the progress line names a contestant and a size.
      await expect.poll(() => page.getByTestId('progress-text').textContent().catch(() => '')).toMatch(/(96 B|1 KiB)$/);
    });

    for (const title of ['1. Full-block word reader', '2. Precomputed permutations', 'Rust → WASM (blake3-wasm)']) {
      const row = await throughputRow(page, title);
      expect(row, title).not.toBeNull();
      expect(row!.slice(1)).toHaveLength(2);
      for (const cell of row!.slice(1)) expect(cell, `${title}: ${cell}`).toMatch(MEDIAN_CELL);
    }
    await expect.poll(() => paintedPixels(page), { timeout: 15_000 }).toBeGreaterThan(1000);
    // After it: one sentence above the tables says what 3 samples cannot tell.
    expect(await page.getByTestId('short-run').textContent()).toMatch(/^With 3 samples per contestant and size .* no confidence interval/);
    // Each step against the previous one, and each contestant against blake3-wasm, at the chosen size.
    const step = await page.locator('[data-testid="steps-table"] tbody tr').first().locator('th, td').allTextContents();
    expect(step[0]).toMatch(/^2 vs 1 · Precomputed permutations/);
    expect(step[1]).toMatch(MEDIAN_CELL);
    expect(step[4]).toMatch(/^p=[\d.]+ n=3$/);
    expect(step[7]).toBe('1.60x');
    await expect.poll(() => page.locator('[data-testid="baseline-table"] tbody tr').count()).toBe(3);
    await expect.poll(() => page.getByTestId('env').textContent()).toMatch(/“test machine”/);

    // The stage page shows this machine's numbers now.
    await page.evaluate(() => (location.hash = '#/stage/2'));
    const measured = page.getByTestId('stage-measured');
    await expect.poll(() => measured.locator('tbody tr').count(), { timeout: 15_000 }).toBe(2);
    const cells = await measured.locator('tbody tr').last().locator('th, td').allTextContents();
    expect(cells[0]).toBe('1 KiB');
    expect(cells[1]).toMatch(/^[\d,.]+[¹²³⁴⁵⁶⁷⁸⁹⁰]*$/); // with the footnote a short run gets
    expect(cells[3].trim()).toBe('1.60x');
    expect(cells[4]).toMatch(/^([\d.]+x (faster|slower)|about [\d,]+x slower)$/); // against Rust WASM, in the article's direction
    // Compared with the stage it names, and with the tables' footnote on three rounds.
    expect(await measured.locator('thead').textContent()).toContain('vs stage 1');
    expect(await measured.locator('.notes').textContent()).toMatch(/confidence interval/);
    await page.evaluate(() => (location.hash = '#/stage/5'));
    await expect.poll(() => page.getByTestId('stage-measured').textContent()).toMatch(/Not measured on this machine yet/);
    expect(errors).toEqual([]);
  });

  it('runs until the answer is clear, and says which of its three limits ended it: the width, the time or its most rounds', async () => {
    const { page, errors } = await openApp(browser, '/#/bench');
    const percent = 50;
    const minutes = 0.5;
    await choosePlan(page, { contestants: ['07-reuse-buffers', '08-little-endian'], sizes: [1024], rounds: 10 });
    await page.getByTestId('stop-clear').check();
    await page.getByTestId('clear-percent').fill(String(percent));
    await page.getByTestId('clear-minutes').fill(String(minutes));
    expect(await page.getByTestId('estimate').textContent()).toMatch(/0\.5 min at most/);
    await runToEnd(page);
    const status = (await runStatus(page))!;
    // Which limit comes first depends on this machine's noise (a busy one may spend its most
    // rounds on 1 KiB inside the half minute); whichever it was, the figures it gives agree.
    const widestPercent = Number(/\(the widest: .*, ±(\d+)%\)\.$/.exec(status)?.[1]);
    if (/The width ended it/.test(status)) expect(widestPercent, status).toBeLessThanOrEqual(percent);
    else if (/The time limit ended it/.test(status)) expect(Number(/^Finished in (\d+) s\./.exec(status)?.[1]), status).toBeGreaterThanOrEqual(minutes * 60);
    else {
      expect(status).toMatch(new RegExp(`It stopped at its most rounds \\(${MAX_CLEAR_ROUNDS} rounds\\)`));
      expect(widestPercent, status).toBeGreaterThan(percent);
    }
    // Never before an interval exists: at least 6 rounds, as the table's sample counts show.
    const rounds = Number(/(\d+) rounds/.exec(status)![1]);
    expect(rounds).toBeGreaterThanOrEqual(6);
    expect(errors).toEqual([]);
  });

  it('says how many cores stage 11 hashed on, beside its figures', async () => {
    const { page, errors } = await openApp(browser, '/#/bench');
    await choosePlan(page, { contestants: ['11-every-core'], sizes: [1048576], rounds: 2 });
    await runToEnd(page);
    const row = await throughputRow(page, '11. Every core');
    expect(row?.[1]).toMatch(MEDIAN_CELL);
    // The pool worker runs nested in the bench worker: one per core but the calling thread's.
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const notes = await page.locator('[data-testid="thread-notes"] li').allTextContents();
    // The size from which it uses the pool is the one it measured when it loaded, with the timing that chose it.
    const size = String.raw`\d+ (KiB|MiB)`;
    const timing = String.raw`\((there )?[\d.]+ ms against [\d.]+ ms on one thread\)`;
    expect(notes).toHaveLength(1);
    const verdict = (input: string) => `(first won at ${size}|won at no size up to 16 MiB) with ${input} ${timing}`;
    expect(notes[0].replace(/\s+/g, ' ').trim()).toMatch(
      new RegExp(
        `^${cores} cores 11\\. Every core hashes inputs of ${size} or more( \\(${size} or more if already in shared memory\\))? ` +
          String.raw`on ${cores} threads at once \(the calling thread and ${cores - 1} pool workers?\), so it uses ${cores} cores; ` +
          `timed when it loaded, the pool ${verdict('a shared input')} and ${verdict('a copied one')}\\.$`,
      ),
    );
    expect(errors).toEqual([]);
  });

  it('can give every contestant its inputs in shared memory, and says so beside the figures', async () => {
    const { page, errors } = await openApp(browser, '/#/bench');
    await choosePlan(page, { contestants: ['10-simd-one-block', '11-every-core', 'blake3-jit', 'sha256'], sizes: [1048576], rounds: 2 });
    await page.getByTestId('shared-input').check();
    await runToEnd(page, async () => {
      await expect.poll(() => page.getByTestId('running-plan').textContent()).toMatch(/, inputs in shared memory\.$/);
    });
    for (const title of ['10. One block in the module', '11. Every core', 'blake3-jit', 'SHA-256 (native)']) {
      expect((await throughputRow(page, title))?.[1], title).toMatch(MEDIAN_CELL);
    }
    expect(await runNotes(page)).toEqual([]);
    await expect.poll(() => page.getByTestId('input-note').textContent()).toMatch(/Every input lived in a\s+SharedArrayBuffer/);
    expect(errors).toEqual([]);
  });

  it('cancels a run half-way, keeps what was measured and stays usable', async () => {
    const { page, errors } = await openApp(browser, '/#/bench');
    await choosePlan(page, { contestants: ['04-state-locals', '05-no-copies', 'blake3-wasm'], sizes: [96, 1024], rounds: 200 });
    await page.getByTestId('run').click();
    // Wait until some numbers are in, while the run is far from done.
    await expect
      .poll(async () => ((await throughputRow(page, '4. State in local variables')) ?? []).slice(1).some((cell) => MEDIAN_CELL.test(cell)), {
        timeout: 60_000,
      })
      .toBe(true);
    expect(await runStatus(page)).toBeNull();
    // The form gives way to one line saying what is being measured.
    expect(await page.getByTestId('running-plan').textContent()).toBe('Measuring 3 contestants at 2 sizes (96 B to 1 KiB), 200 rounds.');
    expect(await page.locator('input[data-testid^="pick-"]').count()).toBe(0);
    await page.getByTestId('cancel').click();
    await expect.poll(() => runStatus(page), { timeout: 30_000 }).toMatch(/^Cancelled after .*samples taken so far are kept/);

    const row = await throughputRow(page, '4. State in local variables');
    expect(row!.slice(1).some((cell) => MEDIAN_CELL.test(cell))).toBe(true);
    // One line for the cancel, not one per contestant and sample count.
    const cancelled = (await runNotes(page)).filter((note) => /^CANCELLED/i.test(note));
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatch(/^cancelled 3 contestants stopped with \d+( to \d+)? of 200 samples per size/i);
    // The form is back, and the results page shows the partial run.
    await expect.poll(() => page.getByTestId('run').isEnabled()).toBe(true);
    expect(await page.getByTestId('pick-05-no-copies').isChecked()).toBe(true);
    await page.evaluate(() => (location.hash = '#/results'));
    await expect.poll(async () => (await throughputRow(page, '4. State in local variables')) !== null, { timeout: 15_000 }).toBe(true);
    expect(errors).toEqual([]);
  });
  it("a step's address fills in that step and the yardstick, with Run and its estimate in the first screen", async () => {
    // A stage page measures its step in place (measure-in-place.test.ts); #/bench/step/N still fills in the bench.
    const { page, errors } = await openApp(browser, '/#/bench/step/9');
    await expect.poll(() => page.getByTestId('step-plan').textContent()).toMatch(/stage 8 against stage 9/);
    const picked = await page.locator('input[data-testid^="pick-"]:checked').evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value));
    // The step, and blake3-wasm beside it: every stage says how it stands against Rust compiled to WebAssembly.
    expect(picked).toEqual(['08-little-endian', '09-simd-wasm', 'blake3-wasm']);
    // About ten seconds, said before the run, and the button to start it above the fold of a laptop.
    expect(await page.getByTestId('estimate').textContent()).toMatch(/^Takes about (5|10|15|20) s/);
    const run = (await page.getByTestId('run').boundingBox())!;
    expect(run.y + run.height).toBeLessThanOrEqual(800);
    expect(errors).toEqual([]);
  });
});
