// Driving the benchmark page (#/bench) from the browser tests: choose exactly the
// contestants, sizes and rounds a test names, run, and wait for the run to end.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export interface TinyPlan {
  contestants: string[];
  sizes: number[];
  rounds: number;
}

/** Unticks everything on the bench form, then ticks what `plan` names. */
export async function choosePlan(page: Page, plan: TinyPlan): Promise<void> {
  await page.getByTestId('run').waitFor();
  for (const box of await page.locator('input[data-testid^="pick-"]').all()) await box.uncheck();
  for (const id of plan.contestants) await page.getByTestId(`pick-${id}`).check();
  for (const box of await page.locator('input[data-testid^="size-"]').all()) await box.uncheck();
  for (const size of plan.sizes) await page.getByTestId(`size-${size}`).check();
  await page.getByTestId('rounds').fill(String(plan.rounds));
}

/** The status line under the form once a run has ended ("Finished in 12 s."), or null. */
export function runStatus(page: Page): Promise<string | null> {
  return page.getByTestId('run-status').textContent({ timeout: 1000 }).catch(() => null);
}

/** Clicks "Run benchmark" and waits for the run to finish. */
export async function runToEnd(page: Page, whileRunning?: () => Promise<void>): Promise<void> {
  await page.getByTestId('run').click();
  await page.getByTestId('cancel').waitFor();
  await whileRunning?.();
  await expect.poll(() => runStatus(page), { timeout: 150_000, interval: 500 }).toMatch(/^Finished in/);
}

/** The notes for contestants that did not run cleanly: "FAILED Fault: throws at 96 B: threw ...". */
export async function runNotes(page: Page): Promise<string[]> {
  const notes = page.locator('[data-testid="run-notes"] li');
  return (await notes.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
}

/** The cells of the throughput table row whose header is `title`, or null when there is none. */
export async function throughputRow(page: Page, title: string): Promise<string[] | null> {
  const rows = page.locator('[data-testid="throughput-table"] tbody tr');
  for (const row of await rows.all()) {
    const cells = (await row.locator('th, td').allTextContents()).map((text) => text.trim());
    if (cells[0] === title) return cells;
  }
  return null;
}
