// Exercise 5 in the built app: a draft of stage 4 that keeps each parent's chaining value
// as a `.subarray` view of its compression's output takes the exercise's "a view for every block"
// turn, and after Check and measure the page lists that comment, labelled actionable,
// with the words of content/stages/05-no-copies.md. The page is looked at on a laptop and a phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { exerciseText } from '../../src/app/ui/lesson/exercise-texts.ts';
import { checkAndMeasure, select } from './exercise-helpers.ts';
import { launchBrowser, openApp, picture, screenshots } from './harness.ts';

/** The turn's comment as the page shows it: its Markdown, backticks drawn as code. */
const shown = (paragraph: string) => paragraph.replace(/`/g, '');

describe('exercise comments', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('lists the wrong turn a draft takes after Check and measure, under its kind', async () => {
    const turn = exerciseText(5)!.turns.find((t) => t.id === 'subarray')!;
    const opened = await openApp(browser, '/#/exercise/5');
    const { page } = opened;
    await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('exercise-comment').count()).toBe(0);

    await select(page, 'return compress(IV, blockWords, 0, BLOCK_LEN, PARENT | flags).slice(0, 8);');
    await page.keyboard.insertText('return compress(IV, blockWords, 0, BLOCK_LEN, PARENT | flags).subarray(0, 8);');
    await page.getByTestId('rounds').selectOption('5');
    await checkAndMeasure(page);

    const comment = page.locator('[data-testid="exercise-comment"][data-kind="actionable"]', { hasText: shown(turn.text[0]) });
    await expect.poll(() => comment.count()).toBe(1);
    expect((await comment.innerText()).toLowerCase()).toMatch(/^actionable\b/);
    // Every comment is under one of the four kinds.
    const kinds = await page.getByTestId('exercise-comment').evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    for (const kind of kinds) expect(['essential', 'actionable', 'informative', 'celebratory']).toContain(kind);
    await comment.scrollIntoViewIfNeeded();
    await screenshots(page, 'exercise-5-comments');
    // On a phone the list is far below the editor: a picture of it there too.
    await page.setViewportSize({ width: 390, height: 844 });
    await comment.scrollIntoViewIfNeeded();
    await picture(page, 'exercise-5-comments-list-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(opened.errors).toEqual([]);
    expect(opened.foreignRequests).toEqual([]);
  }, 400_000);
});
