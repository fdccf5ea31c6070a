// Contestants that break on purpose (`?faults` lists them): one that throws and one that
// never returns, run beside a real stage. The broken ones must be reported as failed with
// their reason, the real stage must finish with numbers, the page must keep answering
// while a worker spins forever, and the results must export and share as valid documents.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { decodeSharePayload } from '../../src/core/results/io/share.ts';
import { parseResultsJson } from '../../src/core/results/io/validate.ts';
import { choosePlan, runNotes, runToEnd, throughputRow } from './bench-helpers.ts';
import { downloaded, launchBrowser, openApp } from './harness.ts';

describe('faulty contestants', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('are listed only with ?faults', async () => {
    const plain = await openApp(browser, '/#/bench');
    await plain.page.getByTestId('pick-08-little-endian').waitFor();
    expect(await plain.page.locator('[data-testid^="pick-fault-"]').count()).toBe(0);
    await plain.page.context().close();

    const withFaults = await openApp(browser, '/?faults#/bench');
    await withFaults.page.getByTestId('pick-fault-throws').waitFor();
    const ids = await withFaults.page.locator('input[data-testid^="pick-fault-"]').evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value));
    expect(ids.sort()).toEqual(['fault-hangs', 'fault-oom', 'fault-stage11-crash', 'fault-throws', 'fault-wrong-digest']);
    // Never picked by default: a plain "Run" must not include them.
    for (const id of ids) expect(await withFaults.page.getByTestId(`pick-${id}`).isChecked(), id).toBe(false);
    await withFaults.page.context().close();
  });

  it('a worker script that does not load stops the run with a message that says what to do', async () => {
    const { page } = await openApp(browser, '/#/bench');
    // As after the app is updated on its server while this page is open: the old worker file is gone.
    await page.context().route(/bench\.worker[^/]*\.js/, (route) => route.fulfill({ status: 404, body: 'not found' }));
    await choosePlan(page, { contestants: ['08-little-endian'], sizes: [1024], rounds: 2 });
    await page.getByTestId('run').click();
    const alert = page.locator('.error[role="alert"]');
    await expect.poll(() => alert.textContent().catch(() => ''), { timeout: 30_000 }).toMatch(/did not start: .*reload the page/);
    await expect.poll(() => page.getByTestId('run').isEnabled()).toBe(true);
    await page.context().close();
  });

  it('a throwing and a hanging contestant fail with reasons; the real stage completes; the page stays responsive', async () => {
    const opened = await openApp(browser, '/?faults#/bench');
    const { page } = opened;
    await choosePlan(page, { contestants: ['08-little-endian', 'fault-throws', 'fault-hangs'], sizes: [1024], rounds: 2 });

    await runToEnd(page, async () => {
      // While fault-hangs spins in its worker, the page still navigates and renders.
      await page.evaluate(() => (location.hash = '#/stage/3'));
      await expect.poll(() => page.locator('main h1').textContent()).toBe('Inline round into compress');
      expect(await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve('frame'))))).toBe('frame');
      await page.evaluate(() => (location.hash = '#/bench'));
      await page.getByTestId('run-status').or(page.getByTestId('cancel')).first().waitFor();
    });

    const notes = await runNotes(page);
    expect(notes).toHaveLength(2);
    const throws = notes.find((note) => note.includes('Fault: throws'));
    const hangs = notes.find((note) => note.includes('Fault: hangs'));
    expect(throws).toMatch(/^failed Fault: throws at 1 KiB: .*deliberate failure: this contestant always throws/);
    expect(hangs).toMatch(/^failed Fault: hangs at 1 KiB: .*(hangs|did not finish)/);

    const stage = await throughputRow(page, '8. Little-endian fast path');
    expect(stage).not.toBeNull();
    expect(stage![1]).toMatch(/\d/);
    // The faults have no numbers: their cells say why instead.
    expect((await throughputRow(page, 'Fault: throws'))?.[1]).toBe('failed');
    expect((await throughputRow(page, 'Fault: hangs'))?.[1]).toBe('failed');

    // What the run produced passes the import validator, through a file and through a link.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const exported = parseResultsJson(await readFile(await downloaded(download), 'utf8'));
    if (!exported.ok) throw new Error(`the exported file does not import: ${exported.error}`);
    const byId = new Map(exported.results.runs.map((run) => [run.contestant, run]));
    expect(byId.get('fault-throws')).toMatchObject({ status: 'failed', nsPerOp: [] });
    expect(byId.get('fault-hangs')).toMatchObject({ status: 'failed', nsPerOp: [] });
    expect(byId.get('08-little-endian')).toMatchObject({ status: 'ok', size: 1024 });
    expect(byId.get('08-little-endian')!.nsPerOp).toHaveLength(2);

    await page.getByTestId('share').click();
    const link = await page.getByTestId('share-link').inputValue();
    expect(await decodeSharePayload(link.slice(link.indexOf('#/share/') + '#/share/'.length))).toEqual({ ok: true, results: exported.results });

    expect(opened.errors).toEqual([]);
    expect(opened.foreignRequests).toEqual([]);
  });

  it('stage 11 whose pool worker crashes mid-hash fails with the reason, never with a wrong digest', async () => {
    const opened = await openApp(browser, '/?faults#/bench');
    const { page } = opened;
    await choosePlan(page, { contestants: ['10-simd-one-block', 'fault-stage11-crash'], sizes: [16 * 1024 * 1024], rounds: 2 });
    await runToEnd(page);
    // The bench checks the first digest before timing anything: had the hash the worker
    // died in been wrong, the note would say "wrong digest". It was right (the calling
    // thread redid the piece), and once the crash was reported every hash threw the reason.
    const notes = await runNotes(page);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^failed Fault: stage 11 loses a pool worker mid-hash at 16 MiB: .*stage 11 cannot hash: pool worker 1 of 1 stopped: .*deliberate crash of a pool worker/);
    expect(notes[0]).not.toMatch(/wrong digest/);
    expect((await throughputRow(page, '10. One block in the module'))?.[1]).toMatch(/\d/);
    expect(opened.foreignRequests).toEqual([]);
  });
});
