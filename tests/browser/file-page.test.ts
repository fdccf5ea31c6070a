// The file page (#/file) as a user meets it: Cancel stops every worker at once; stage 0
// refuses a large file and hashes a prefix instead, giving b3sum's line for those bytes;
// on demand the workers only read the files and the page says how fast, beside the hash;
// Check says match, mismatch or why a line is not one; Copy all and the .b3 download
// hold the lines; without WebAssembly SIMD or without workers the page says why and
// hashes on one thread. In Firefox and WPE WebKit the lines match too, files built in
// the page; WebKit (no SIMD) says its pool cannot run and hashes with stage 8.
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blake3 } from '@noble/hashes/blake3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchWebKit } from '../../src/node/webkit.ts';
import { b3sumLine } from '../../src/core/file/b3sum.ts';
import { toHex } from '../../src/core/file/tree.ts';
import { baseURL, downloaded, launchFirefox, launchOwnBrowser, openApp } from './harness.ts';
import { recordRequests, requestProblems } from './file-helpers.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Files the page builds itself where no driver can give it paths: name and size, bytes (i * 31 + 7) mod 256. */
const BUILT = [
  ['empty.bin', 0],
  ['one.bin', 1],
  ['chunk-and-one.bin', 1025],
  ['piece-and-one.bin', 64 * 1024 + 1],
  ['three-MiB-and-7.bin', 3 * MiB + 7],
  ['back\\slash.bin', 5000],
  ['two\nlines.bin', 70_000],
] as const;

const pattern = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) & 255);
const expectedBuiltLines = BUILT.map(([name, size]) => b3sumLine(toHex(blake3(pattern(size))), name));

/** Runs in the page: makes the files and chooses them through the page's own file input. */
function chooseBuilt(files: readonly (readonly [string, number])[]): void {
  const transfer = new DataTransfer();
  for (const [name, size] of files) {
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 255;
    transfer.items.add(new File([bytes], name));
  }
  const input = document.querySelector<HTMLInputElement>('[data-testid="file-input"]')!;
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

const readLines = () => [...document.querySelectorAll('[data-testid="file-result"]')].map((e) => e.textContent);

describe('the file page in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let sparse: string;

  beforeAll(async () => {
    browser = await launchOwnBrowser(); // files of gigabytes, read by path
    dir = mkdtempSync(join(tmpdir(), 'blake3-lab-file-page-'));
    // 2 GiB of zeros on no disk: long enough to cancel, and far too long for stage 0.
    sparse = join(dir, 'zeros-2GiB.bin');
    const fd = openSync(sparse, 'w');
    ftruncateSync(fd, 2 * GiB);
    closeSync(fd);
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(beforeLoad?: string): Promise<{ page: Page; errors: string[] }> {
    const opened = await openApp(browser, '/#/file', { beforeLoad });
    await opened.page.getByRole('heading', { name: 'Hash a file' }).waitFor();
    return opened;
  }

  it('stops at once on Cancel: every worker ends, the file is marked cancelled, and the next hash works', async () => {
    const { page, errors } = await open();
    await page.getByTestId('file-stage').selectOption('8');
    await page.getByTestId('file-input').setInputFiles(sparse);
    await expect.poll(() => page.getByRole('progressbar').getAttribute('aria-valuenow')).not.toBe('0');
    expect(page.workers().length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.workers().length, { timeout: 2000, interval: 50 }).toBe(0);
    expect(await page.getByTestId('file-status').textContent()).toMatch(/cancelled/);
    expect(await page.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    await page.evaluate(chooseBuilt, [BUILT[2]]);
    await expect.poll(() => page.evaluate(readLines)).toEqual([expectedBuiltLines[2]]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says on demand how fast this browser reads the file, and the hash beside it; Cancel stops a read too', async () => {
    const { page, errors } = await open();
    await page.evaluate(chooseBuilt, [BUILT[4]]);
    await expect.poll(() => page.evaluate(readLines)).toEqual([expectedBuiltLines[4]]);
    await page.getByRole('button', { name: 'How fast can this browser read this file?' }).click();
    const figure = page.getByTestId('file-read-speed');
    await expect.poll(async () => (await figure.textContent())?.replace(/\s+/g, ' ')).toMatch(/Reading only, nothing hashed: 3 MiB in \d+\.\d\d s, [\d.,]+ MB\/s, on (\d+ workers|one worker) with a BYOB stream reader into kept buffers\./);
    expect((await figure.textContent())!.replace(/\s+/g, ' ')).toMatch(/Stage 11 hashed it at [\d.]+ MB\/s: \d+\.\d\d× the speed of reading alone\./);
    // Reading is no hash: the line and its status stay.
    expect(await page.evaluate(readLines)).toEqual([expectedBuiltLines[4]]);
    // 2 GiB of zeros takes long enough to cancel: the workers end, and no figure is given.
    await page.getByTestId('file-stage').selectOption('8');
    await page.getByTestId('file-input').setInputFiles(sparse);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('file-status').textContent()).toMatch(/cancelled/);
    await page.getByRole('button', { name: 'How fast can this browser read this file?' }).click();
    await expect.poll(() => page.getByRole('progressbar', { name: 'Reading progress' }).getAttribute('aria-valuenow')).not.toBe('0');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.workers().length, { timeout: 5000, interval: 50 }).toBe(0);
    expect(await figure.count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('refuses stage 0 on 2 GiB, saying how long it would take, and hashes the prefix it offers: b3sum\'s line for those bytes', async () => {
    const { page, errors } = await open();
    await page.getByTestId('file-stage').selectOption('0');
    await page.getByTestId('file-input').setInputFiles(sparse);
    const refusal = page.getByTestId('file-refused');
    await expect.poll(() => refusal.textContent()).toMatch(/Stage 0 would take about \d+ (h|days) on this file/);
    expect(page.workers()).toEqual([]);
    expect(await page.getByTestId('file-result').count()).toBe(0);
    const offer = page.getByRole('button', { name: /Hash the first/ });
    const prefix = Number(/(\d+) (KiB|MiB)/.exec((await offer.textContent())!)![1]) * ((await offer.textContent())!.includes('MiB') ? MiB : 1024);
    await offer.click();
    await expect.poll(() => page.getByTestId('prefix-result').textContent(), { timeout: 60_000 }).toBe(`${toHex(blake3(new Uint8Array(prefix)))}  -`);
    expect(await page.getByText(`head -c ${prefix} 'zeros-2GiB.bin' | b3sum`).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('checks pasted lines and a .b3 file: match, mismatch, not hashed here, and why a line is not one', async () => {
    const { page, errors } = await open();
    await page.evaluate(chooseBuilt, BUILT.slice(0, 3));
    await expect.poll(() => page.getByTestId('file-result').count()).toBe(3);
    const wrong = expectedBuiltLines[1].replace(/^[0-9a-f]/, (c) => (c === '0' ? '1' : '0'));
    const pasted = [expectedBuiltLines[0], wrong, `${'ab'.repeat(32)}  elsewhere.bin`, 'not a line'].join('\n');
    await page.getByTestId('check-text').fill(pasted);
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    const verdicts = () => page.getByTestId('check-verdicts').locator('li').evaluateAll((items) => items.map((li) => [li.getAttribute('data-verdict'), li.textContent?.replace(/\s+/g, ' ').trim()]));
    await expect.poll(verdicts).toEqual([
      ['match', expect.stringMatching(/^match empty\.bin/)],
      ['mismatch', expect.stringMatching(/^mismatch one\.bin/)],
      ['not-hashed', expect.stringMatching(/^not hashed here elsewhere\.bin/)],
      ['unreadable', expect.stringMatching(/^line 4 is not a b3sum line: expected 64 hex digits/)],
    ]);
    // The text stays for the user to fix.
    expect(await page.getByTestId('check-text').inputValue()).toBe(pasted);
    const list = join(dir, 'list.b3');
    writeFileSync(list, `${expectedBuiltLines.slice(0, 3).join('\n')}\n`);
    await page.getByTestId('check-file').setInputFiles(list);
    await expect.poll(async () => (await verdicts()).map(([verdict]) => verdict)).toEqual(['match', 'match', 'match']);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('copies every line and downloads them as a .b3 file; no request carries a file', async () => {
    const { page, errors } = await open();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const requests = recordRequests(page.context());
    await page.evaluate(chooseBuilt, BUILT);
    await expect.poll(() => page.evaluate(readLines)).toEqual(expectedBuiltLines);
    await page.getByRole('button', { name: 'Copy all' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(expectedBuiltLines.map((l) => `${l}\n`).join(''));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .b3' }).click()]);
    expect(download.suggestedFilename()).toBe('files.b3');
    expect(readFileSync(await downloaded(download), 'utf8')).toBe(expectedBuiltLines.map((l) => `${l}\n`).join(''));
    expect(requestProblems(requests, new URL(page.url()).origin)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('without WebAssembly SIMD says stage 11 cannot run and hashes with stage 8 on one thread', async () => {
    const { page, errors } = await open('globalThis.__BLAKE3_LAB_CAPABILITIES__ = { wasmSimd: false };');
    expect(await page.getByTestId('file-threads').textContent()).toMatch(/One thread here:.*needs WebAssembly SIMD.*Stage 8/s);
    expect(await page.getByTestId('file-stage').inputValue()).toBe('8');
    await page.evaluate(chooseBuilt, BUILT);
    await expect.poll(() => page.evaluate(readLines)).toEqual(expectedBuiltLines);
    expect(await page.getByTestId('file-status').first().textContent()).toMatch(/stage 8/);
    expect(page.workers().length).toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('without workers says so and hashes on the page\'s own thread', async () => {
    const { page, errors } = await open('delete globalThis.Worker;');
    expect(await page.getByTestId('file-threads').textContent()).toMatch(/One thread here:.*needs Web Workers/s);
    await page.evaluate(chooseBuilt, BUILT);
    await expect.poll(() => page.evaluate(readLines)).toEqual(expectedBuiltLines);
    expect(await page.getByRole('status').filter({ hasText: 'cannot start Web Workers' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the file page in Firefox', () => {
  it('prints b3sum\'s lines on every core, in SpiderMonkey', async () => {
    const browser = await launchFirefox();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${baseURL()}/#/file`);
      await page.waitForSelector('[data-testid="file-input"]', { timeout: 30_000 });
      expect(await page.$eval('[data-testid="file-threads"]', (e) => e.textContent)).toMatch(/on \d+ workers, one per core this browser reports/);
      await page.evaluate(chooseBuilt, BUILT);
      await expect.poll(() => page.evaluate(readLines), { timeout: 60_000 }).toEqual(expectedBuiltLines);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('the file page in WPE WebKit', () => {
  it('prints b3sum\'s lines; without WebAssembly SIMD it says the pool cannot run and uses one thread', async () => {
    const webkit = await launchWebKit();
    try {
      const { driver } = webkit;
      await driver.get(`${baseURL()}/#/file`);
      await expect.poll(() => driver.executeScript<boolean>('return !!document.querySelector(\'[data-testid="file-input"]\')'), { timeout: 30_000, interval: 250 }).toBe(true);
      const simd = await driver.executeScript<boolean>('return WebAssembly.validate(new Uint8Array([0,97,115,109,1,0,0,0,1,5,1,96,0,1,123,3,2,1,0,10,8,1,6,0,65,0,253,17,11]))');
      const threads = await driver.executeScript<string>('return document.querySelector(\'[data-testid="file-threads"]\').textContent');
      expect(threads).toMatch(simd ? /on \d+ workers, one per core this browser reports/ : /One thread here:.*needs WebAssembly SIMD/s);
      await driver.executeScript(`(${chooseBuilt.toString()})(arguments[0])`, BUILT);
      await expect.poll(() => driver.executeScript<string[]>(`return (${readLines.toString()})()`), { timeout: 120_000, interval: 500 }).toEqual(expectedBuiltLines);
      const statuses = await driver.executeScript<string[]>('return [...document.querySelectorAll(\'[data-testid="file-status"]\')].map((e) => e.textContent)');
      for (const status of statuses) expect(status).toMatch(simd ? /stage 11/ : /stage 8/);
    } finally {
      await webkit.close();
    }
  });
});
