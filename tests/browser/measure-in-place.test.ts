// "Measure this step" on a stage page, as a learner uses it: one click, a progress line,
// then the answer in one sentence beside the button and the figures in the card below,
// without leaving the page. Each step run also sets the stage against Rust WASM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openApp } from './harness.ts';

const answerOf = (page: import('playwright-core').Page) => page.getByTestId('step-answer').innerText({ timeout: 1000 }).catch(() => '');

describe('measuring a step in place', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('one click on stage 5 gives the answer on the same page, with the per-size figures', async () => {
    const { page, errors } = await openApp(browser, '/#/stage/5');
    const measured = page.getByTestId('stage-measured');
    await expect.poll(() => measured.innerText()).toMatch(/Not measured on this machine yet/);
    await page.getByTestId('measure-step').click();
    // A progress line while it runs.
    await expect.poll(() => page.getByTestId('step-progress').isVisible()).toBe(true);
    await expect.poll(() => answerOf(page), { timeout: 60_000 }).toMatch(
      /^Stage 5 is (\S+x stage 4|not measurably faster or slower than stage 4) at 1 MiB here \(.*p[=<][\d.]+.*\) and .* than Rust WASM at 64 KiB; the article measured 3× and about 0\.75× the speed of Rust WASM\.$/,
    );
    expect(page.url()).toMatch(/#\/stage\/5$/);
    // The figures, size by size, in the card under the answer, Rust WASM among them.
    await expect.poll(() => measured.locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
    expect(await measured.locator('thead').innerText()).toMatch(/vs stage 4[\s\S]*vs Rust WASM/);
    const at64 = await measured.locator('tbody tr', { hasText: '64 KiB' }).locator('td').last().innerText();
    expect(at64).toMatch(/x (faster|slower)$/);
    expect(await page.getByTestId('measure-step').innerText()).toMatch(/^Measure this step again/);
    expect(errors).toEqual([]);
  });
});
