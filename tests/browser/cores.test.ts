// `npm run bench:cores -- --browser` and the page it drives: the machine's two-thread
// ceiling and stage 11's speedup measured in Chromium's Web Workers, with ratios that are
// real timings (positive, finite; their size is not judged: the machine is shared), and
// a clear message for options it cannot honour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { cliEnv, launchBrowser, openApp } from './harness.ts';
import type { CoresResult } from '../../src/core/bench/cores.ts';
import type { TimelineResult } from '../../src/core/bench/timeline.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const RATIO = String.raw`(\d+\.\d+)x  \(95% interval (\d+\.\d+|-?Infinity)x to`;

describe('cores.html', () => {
  it('measures the ceiling and stage 11 round by round, with the input in shared memory when asked', async () => {
    const { page, errors } = await openApp(browser, '/cores.html?size=1MiB&rounds=6&input=shared');
    await page.waitForFunction(() => document.body.dataset.status === 'done' || document.body.dataset.status === 'failed', null, { timeout: 120_000 });
    const result = (await page.evaluate(() => window.blake3LabCores)) as CoresResult;
    expect(result).toMatchObject({ size: 1048576, rounds: 6, sharedInput: true });
    for (const series of [result.ceiling, result.speedup]) {
      expect(series).toHaveLength(6);
      for (const ratio of series) expect(Number.isFinite(ratio) && ratio > 0).toBe(true);
    }
    const report = await page.locator('#out').textContent();
    expect(report).toMatch(/^1 MiB, 6 rounds of \d+ hashes each way, .*, the input in shared memory\n/);
    expect(report).toMatch(new RegExp(`two independent hashes at once \\(the ceiling\\)\\s+${RATIO}`));
    expect(report).toMatch(new RegExp(`stage 11: one hash split over the two threads\\s+${RATIO}`));
    expect(errors).toEqual([]);
  });

  it("records stage 11's timeline instead when asked: both threads' marks for every hash, a table and the median hash drawn", async () => {
    const { page, errors } = await openApp(browser, '/cores.html?size=4MiB&timeline=5');
    await page.waitForFunction(() => document.body.dataset.status === 'done' || document.body.dataset.status === 'failed', null, { timeout: 120_000 });
    const result = (await page.evaluate(() => window.blake3LabCores)) as TimelineResult;
    expect(result).toMatchObject({ size: 4194304, hashes: 5 });
    expect(result.recorded).toHaveLength(5);
    for (const hash of result.recorded) {
      expect(hash.ms).toBeGreaterThan(0);
      // Every piece hashed once at least, by a worker or by the calling thread, and the calling thread copied.
      const hashed = new Set(hash.events.filter((e) => e.what === 'hash' || e.what === 'redo').map((e) => e.piece));
      expect(hashed.size).toBe(hash.pieces);
      expect(hash.events.some((e) => e.thread === 0 && e.what === 'copy')).toBe(true);
      for (const e of hash.events) expect(e.end).toBeGreaterThanOrEqual(e.start);
    }
    const report = await page.locator('#out').textContent();
    expect(report).toMatch(/^4 MiB, 5 hashes on 2 threads in rounds of 5, each round after 5 of stage 10, .*\nthe pool's worker was ready [\d.]+ ms after start\(\); the median hash took [\d.]+ ms/);
    expect(report).toMatch(/\n0 \(calling\)\s+[\d.]+\s+[\d.]+/);
    expect(await page.locator('img[alt^="The median hash"]').getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
    expect(errors).toEqual([]);
  });

  it('says what is wrong with the address instead of measuring', async () => {
    const { page } = await openApp(browser, '/cores.html?size=64KiB');
    await page.waitForFunction(() => document.body.dataset.status === 'failed');
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/could not run: --size must be at least 256 KiB/);
  });
});

describe('npm run bench:cores -- --browser', () => {
  it('prints the ceiling and stage 11 beside it, measured in Chromium', async () => {
    const { stdout, stderr } = await promisify(execFile)('npx', ['tsx', 'scripts/bench-cores.ts', '--browser', '--size', '1MiB', '--rounds', '6'], { timeout: 170_000, env: cliEnv() });
    expect(stderr).toMatch(/1 MiB, 6 rounds of \d+ hashes each way, Chromium [\d.]+ \(V8\), Web Workers/);
    expect(stdout).toMatch(new RegExp(`two independent hashes at once \\(the ceiling\\)\\s+${RATIO}`));
    expect(stdout).toMatch(/stage 11 gets \d+% of the ceiling/);
  });
});
