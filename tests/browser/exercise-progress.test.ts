// A learner's progress carried from one browser to another: attempts kept in one context
// (written into its IndexedDB as the exercise page keeps them) are exported as a file,
// which a fresh context imports to show the same progress; a bad file is refused with
// its message and changes nothing; the same file again adds nothing; hostile text in a
// file stays text. The page is looked at on a laptop and a phone.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Attempt } from '../../src/core/exercise/progress-file.ts';
import type { Speedup } from '../../src/core/exercise/goal.ts';
import { downloaded, launchBrowser, openApp, screenshots } from './harness.ts';

const speedup = (ratio: number): Speedup => ({ ratio, range: [ratio * 0.9, ratio * 1.1], p: 0.001, significant: true });

const SOLVED: Attempt = {
  exercise: 2,
  files: { 'blake3.ts': 'export function hash(input: Uint8Array): Uint8Array {\n  return input;\n}\n' },
  check: { ok: true },
  verdict: { status: 'met', sizes: [{ size: 1024, draft: speedup(1.5), reference: speedup(1.6), draftVsReference: speedup(0.95), goal: 1.26, status: 'met' }] },
  time: '2026-11-30T09:15:00.000Z',
  browser: 'Chromium',
};

const FAILED: Attempt = { exercise: 3, files: {}, check: { ok: false, message: 'Not yet: your draft threw: boom' }, verdict: null, time: '2026-11-30T09:20:00.000Z', browser: 'Chromium' };

/** Markup that would set window.pwned if it ever ran. */
const HTML = '<img src=x onerror="window.pwned=1">';

/** The attempts written straight into the page's IndexedDB, in the store the app keeps them in. */
async function seed(page: Page, attempts: Attempt[]): Promise<void> {
  await page.evaluate(async (records) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('blake3-lab-exercises', 1);
      request.onupgradeneeded = () => request.result.createObjectStore('attempts', { keyPath: 'id', autoIncrement: true }).createIndex('exercise', 'exercise');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const transaction = db.transaction('attempts', 'readwrite');
    for (const record of records) transaction.objectStore('attempts').add(record);
    await new Promise((resolve, reject) => {
      transaction.oncomplete = resolve;
      transaction.onabort = () => reject(transaction.error);
    });
    db.close();
  }, attempts);
}

/** How many attempts the page's IndexedDB keeps. */
function stored(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('blake3-lab-exercises', 1);
        request.onsuccess = () => {
          const count = request.result.transaction('attempts').objectStore('attempts').count();
          count.onsuccess = () => {
            request.result.close();
            resolve(count.result);
          };
        };
        request.onerror = () => reject(request.error);
      }),
  );
}

const status = (page: Page, exercise: number) => page.getByTestId(`exercise-${exercise}`).getByTestId('exercise-status').innerText();
const statuses = (page: Page) => Promise.all([2, 3, 4, 5].map((exercise) => status(page, exercise)));
const done = (page: Page) => page.getByTestId('progress-done').innerText();
const refused = (page: Page) => page.getByTestId('progress-refused').innerText();

function jsonFile(name: string, document: unknown) {
  return { name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(document)) };
}

describe('exercise progress as a file', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('exports every attempt, imports them in a fresh browser, refuses a bad file whole and adds nothing twice', async () => {
    const first = await openApp(browser, '/#/exercises');
    await expect.poll(() => status(first.page, 2)).toBe('not started');
    await seed(first.page, [SOLVED, FAILED]);
    await first.page.reload();
    await expect.poll(() => statuses(first.page)).toEqual(['solved', 'attempted', 'not started', 'not started']);
    const [download] = await Promise.all([first.page.waitForEvent('download'), first.page.getByRole('button', { name: 'Export my progress' }).click()]);
    const name = download.suggestedFilename();
    expect(name).toMatch(/^blake3-lab-progress-\d{4}-\d{2}-\d{2}\.json$/);
    const file = await downloaded(download);
    expect(await done(first.page)).toBe(`Saved 2 attempts in ${name}.`);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported).toMatchObject({ format: 'blake3-lab-exercises', version: 1, attempts: [SOLVED, FAILED] });

    // A new context is a browser of its own: an IndexedDB with no attempts.
    const second = await openApp(browser, '/#/exercises');
    const { page } = second;
    await expect.poll(() => statuses(page)).toEqual(['not started', 'not started', 'not started', 'not started']);
    // The picker is reached from the keyboard, and named by its visible label.
    await page.getByRole('button', { name: 'Export my progress' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('import-progress');
    const picker = page.getByLabel('Import progress');
    await picker.setInputFiles(file);
    await expect.poll(() => done(page)).toBe(`Added 2 attempts from ${name}; 0 were already here.`);
    expect(await statuses(page)).toEqual(['solved', 'attempted', 'not started', 'not started']);

    // A file with a good attempt before a bad one adds neither; each refusal names what is wrong.
    const good: Attempt = { ...FAILED, exercise: 4 };
    const bad = { ...FAILED, exercise: HTML };
    await picker.setInputFiles(jsonFile('bad.json', { ...exported, attempts: [good, bad] }));
    await expect.poll(() => refused(page)).toBe(
      'bad.json: attempts[1].exercise is the text "<img src=x onerror=\\"window.pwned=1\\">": an exercise must be a whole number from 1 to 11. Nothing was added.',
    );
    expect(await page.getByTestId('progress-done').innerText()).toBe('');
    await screenshots(page, 'exercise-progress-refused');
    await picker.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "blake3-lab-exercises", attempts: []}') });
    await expect.poll(() => refused(page)).toMatch(/^notes\.json: This file is not JSON, so it cannot be a progress file \(.+\)\. Nothing was added\.$/);
    await picker.setInputFiles(jsonFile('future.json', { ...exported, version: 2 }));
    await expect.poll(() => refused(page)).toBe('future.json: This progress file was made by a newer BLAKE3 Lab (version 2); this one reads version 1. Nothing was added.');
    await picker.setInputFiles(jsonFile('results.json', { format: 'blake3-lab-results', version: 3 }));
    await expect.poll(() => refused(page)).toBe('results.json: This is a BLAKE3 Lab results file, not a progress file: import it on the Results page. Nothing was added.');
    await page.reload();
    await expect.poll(() => statuses(page)).toEqual(['solved', 'attempted', 'not started', 'not started']);
    expect(await stored(page)).toBe(2);

    await picker.setInputFiles(file);
    await expect.poll(() => done(page)).toBe(`Added 0 attempts from ${name}; 2 were already here.`);
    expect(await stored(page)).toBe(2);

    // Markup in file names, code and the browser's name is kept as text and never runs.
    const hostile: Attempt = { ...FAILED, exercise: 5, files: { [`${HTML}.ts`]: `</script><script>window.pwned=1</script>${HTML}` }, browser: HTML };
    await picker.setInputFiles(jsonFile(`${HTML}.json`, { ...exported, attempts: [hostile] }));
    await expect.poll(() => done(page)).toBe(`Added 1 attempt from ${HTML}.json; 0 were already here.`);
    expect(await statuses(page)).toEqual(['solved', 'attempted', 'not started', 'attempted']);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();

    await screenshots(page, 'exercise-progress-added');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    const [exportBox, importBox] = await Promise.all([page.getByRole('button', { name: 'Export my progress' }).boundingBox(), page.locator('label', { hasText: 'Import progress' }).boundingBox()]);
    expect(exportBox!.x + exportBox!.width).toBeLessThanOrEqual(390);
    expect(importBox!.x + importBox!.width).toBeLessThanOrEqual(390);

    for (const opened of [first, second]) {
      expect(opened.errors).toEqual([]);
      expect(opened.foreignRequests).toEqual([]);
    }
  });

  it('offers to start exercise 3 from the accepted files of exercise 2, and only after exercise 2 was solved', async () => {
    const opened = await openApp(browser, '/#/exercise/3');
    const { page } = opened;
    await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('start-from-solution').count()).toBe(0);
    await seed(page, [SOLVED]);
    await page.reload();
    await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('start-from-solution').click();
    // The solved draft's blake3.ts (here: one that returns its input) is in the editor, as the draft.
    await expect.poll(() => page.locator('.monaco-editor .view-lines').first().innerText()).toMatch(/return\s+input;/);
    expect(await page.getByTestId('draft-status').innerText()).toMatch(/Changed: blake3\.ts\./);
    expect(opened.errors).toEqual([]);
  });
});
