// What the exercise tests do on the page: read a test id's text, select a line of the draft
// with the editor's own find, and press "Check and measure" and wait for its verdict.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export const text = (page: Page, testId: string) => page.getByTestId(testId).first().innerText({ timeout: 5000 }).catch(() => '');

/** Selects `needle` in the draft with the editor's own find, and leaves it selected. */
export async function select(page: Page, needle: string): Promise<void> {
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+F');
  const find = page.locator('.find-widget textarea, .find-widget input').first();
  await find.fill(needle);
  await expect.poll(() => page.locator('.find-widget .matchesCount').innerText()).toMatch(/^1 of 1$/);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
}

export async function checkAndMeasure(page: Page): Promise<string> {
  await page.getByTestId('check-and-measure').click();
  await page.getByTestId('check-and-measure').waitFor({ timeout: 240_000 });
  return text(page, 'exercise-verdict');
}

