// `npm run bench:cores -- --browser` and the page it drives: the machine's two-thread
// ceiling and stage 11's speedup measured in Chromium's Web Workers, with ratios that are
// real timings (positive, finite; their size is not judged: the machine is shared), and
// a clear message for options it cannot honour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchBrowser, openApp } from './harness.ts';
import type { CoresResult } from '../../src/core/bench/cores.ts';

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

  it('says what is wrong with the address instead of measuring', async () => {
    const { page } = await openApp(browser, '/cores.html?size=64KiB');
    await page.waitForFunction(() => document.body.dataset.status === 'failed');
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/could not run: --size must be at least 256 KiB/);
  });
});

describe('npm run bench:cores -- --browser', () => {
  it('prints the ceiling and stage 11 beside it, measured in Chromium', async () => {
    const { stdout, stderr } = await promisify(execFile)('npx', ['tsx', 'scripts/bench-cores.ts', '--browser', '--size', '1MiB', '--rounds', '6'], { timeout: 170_000 });
    expect(stderr).toMatch(/1 MiB, 6 rounds of \d+ hashes each way, Chromium [\d.]+ \(V8\), Web Workers/);
    expect(stdout).toMatch(new RegExp(`two independent hashes at once \\(the ceiling\\)\\s+${RATIO}`));
    expect(stdout).toMatch(/stage 11 gets \d+% of the ceiling/);
  });
});
