// Exercise 5 edits a generator: the starting point is stage 4, whose compress.ts is what
// its gen.ts writes. compress.ts is shown read-only; "Check and measure" runs the draft's
// gen.ts in the sandbox first, puts what it writes in compress.ts, and checks that; a
// generator that throws is named as such, and nothing is run. Exercise 9 starts from
// stage 8 with stage 9's module files given, read-only, and blake3.ts to edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openApp, screenshots } from './harness.ts';
import { checkAndMeasure, select, text } from './exercise-helpers.ts';

const tab = (page: Page, name: string) => page.getByRole('group', { name: 'Files' }).getByRole('button', { name: new RegExp(`^${name.replace('.', '\\.')}`) });

describe('exercises that give files or run a generator', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('exercise 5 runs the draft gen.ts before the check, and shows what it wrote in the read-only compress.ts', async () => {
    const opened = await openApp(browser, '/#/exercise/5');
    const { page } = opened;
    await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });
    // It opens on a file to edit; compress.ts says it is read-only and what writes it.
    expect(await tab(page, 'compress.ts').innerText()).toMatch(/read-only/i);
    expect(await tab(page, 'gen.ts').innerText()).not.toMatch(/read-only/i);
    await tab(page, 'compress.ts').click();
    expect(await text(page, 'read-only-note')).toMatch(/^compress\.ts is read-only here\. It is what gen\.ts writes: Check and measure runs your gen\.ts first/);
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.insertText('typed');
    expect(await page.locator('.monaco-editor .view-lines').first().innerText()).not.toContain('typed');
    await screenshots(page, 'exercise-5-read-only');

    await tab(page, 'gen.ts').click();
    await page.getByTestId('rounds').selectOption('5');
    await select(page, 'export function generate(): string {');
    await page.keyboard.press('End');
    await page.keyboard.insertText("\n  throw new Error('gen boom');");
    expect(await checkAndMeasure(page)).toMatch(/^Not yet: your gen\.ts gave no code to check: generate\(\) threw: Error: gen boom\. Nothing was run\.$/);

    // A generator that writes one more comment line: its output is what compress.ts now holds, and it is checked and timed.
    await select(page, "throw new Error('gen boom');");
    await page.keyboard.press('Delete');
    await select(page, 'DO NOT EDIT.');
    await page.keyboard.insertText('DO NOT EDIT. Written by the draft gen.ts.');
    const verdict = await checkAndMeasure(page);
    expect(verdict).toMatch(/^(Not yet: your draft is|Cannot tell yet)/);
    await tab(page, 'compress.ts').click();
    // Long lines wrap in the editor, and its spaces are non-breaking.
    expect((await page.locator('.monaco-editor .view-lines').first().innerText()).replace(/\s+/g, ' ')).toContain('DO NOT EDIT. Written by the draft gen.ts.');
    expect(opened.errors).toEqual([]);
  }, 300_000);

  it('exercise 9 starts from stage 8 with the module files given read-only, and blake3.ts to edit', async () => {
    const opened = await openApp(browser, '/#/exercise/9');
    const { page } = opened;
    await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });
    const names = await page.getByRole('group', { name: 'Files' }).getByRole('button').allInnerTexts();
    expect(names.map((n) => n.split(/\s/)[0]).sort()).toEqual(['blake3.ts', 'compress.ts', 'compress4x.ts', 'wasm.ts']);
    for (const name of ['compress.ts', 'wasm.ts', 'compress4x.ts']) expect(await tab(page, name).innerText()).toMatch(/read-only/i);
    expect(await tab(page, 'blake3.ts').innerText()).not.toMatch(/read-only/i);
    await tab(page, 'wasm.ts').click();
    expect(await text(page, 'read-only-note')).toMatch(/^wasm\.ts is read-only here\. The exercise gives it as the next stage has it\./);
    // Stage 8 as it starts, with the given files beside it, is a correct BLAKE3 and is timed.
    await page.getByTestId('rounds').selectOption('5');
    expect(await checkAndMeasure(page)).toMatch(/^(Not yet|Cannot tell yet)/);
    await screenshots(page, 'exercise-9-given');
    expect(opened.errors).toEqual([]);
  }, 300_000);
});
