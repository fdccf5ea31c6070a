// The file page against the real b3sum (native/b3sum, built by cargo from the pinned
// crate): files at BLAKE3's tree edges, written to a temporary folder, chosen in headless
// Chromium by their paths, must get exactly b3sum's lines, names with a backslash or a
// newline escaped as b3sum escapes them. On the way it records every request the page
// makes (none may carry a file, none may leave the app's origin) and every long task of
// the page's thread (none over 200 ms). Skipped with a note where cargo is missing.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { findCargo } from '../../src/node/native-run.ts';
import { b3sum, buildB3sum, type B3sum } from '../../src/node/b3sum.ts';
import { launchOwnBrowser, openApp } from './harness.ts';
import { LONG_TASK_OBSERVER, recordRequests, requestProblems } from './file-helpers.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/** 0 and 1 byte, a chunk and its neighbours, 2^k chunks and one byte either side for k up to 12, 3 MiB + 7. */
function edgeSizes(): number[] {
  const sizes = new Set([0, 1, 1023, 1024, 1025, 3 * MiB + 7]);
  for (let k = 0; k <= 12; k++) for (const d of [-1, 0, 1]) sizes.add(2 ** k * KiB + d);
  return [...sizes].sort((a, b) => a - b);
}

const cargo = await findCargo();
if (!cargo) console.warn('file-b3sum.test.ts: no cargo on PATH or in ~/.cargo/bin, so b3sum is not built and the file page is not compared with it (install Rust with rustup to run this test)');

describe.skipIf(!cargo)('the file page prints what b3sum prints', () => {
  let browser: Browser;
  let program: B3sum;
  let dir: string;
  const names: string[] = [];

  beforeAll(async () => {
    program = await buildB3sum(cargo!);
    dir = mkdtempSync(join(tmpdir(), 'blake3-lab-files-'));
    for (const size of edgeSizes()) {
      const name = `edge-${size}.bin`;
      writeFileSync(join(dir, name), randomBytes(size));
      names.push(name);
    }
    writeFileSync(join(dir, 'random-100MiB.bin'), randomBytes(100 * MiB));
    names.push('random-100MiB.bin');
    // Names b3sum escapes: a backslash, a newline.
    for (const name of ['back\\slash.txt', 'two\nlines.txt']) {
      writeFileSync(join(dir, name), `${name}\n`);
      names.push(name);
    }
    // 5 GiB of zeros that take no disk: a sparse file.
    const sparse = openSync(join(dir, 'sparse-5GiB.bin'), 'w');
    ftruncateSync(sparse, 5 * GiB);
    closeSync(sparse);
    names.push('sparse-5GiB.bin');
    browser = await launchOwnBrowser(); // files of gigabytes, read by path
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gives b3sum\'s line for every file at the tree\'s edges, 100 MiB of random bytes and a sparse 5 GiB file, on every core', { timeout: 600_000 }, async () => {
    const expected = (await b3sum(program, names, dir)).split('\n').filter(Boolean);
    expect(expected).toHaveLength(names.length);

    const { page, errors, foreignRequests } = await openApp(browser, '/#/file', { beforeLoad: LONG_TASK_OBSERVER });
    await expect.poll(() => page.getByTestId('file-threads').textContent()).toMatch(/on \d+ workers, one per core this browser reports/);
    const requests = recordRequests(page.context());
    await page.getByTestId('file-input').setInputFiles(names.map((name) => join(dir, name)));
    await expect.poll(() => page.getByTestId('file-result').count(), { timeout: 540_000, interval: 500 }).toBe(names.length);

    expect(await page.getByTestId('file-result').allTextContents()).toEqual(expected);
    expect(await page.getByTestId('file-status').allTextContents()).toEqual(names.map(() => expect.stringMatching(/stage 11/)));
    // No request carried a byte of the files, and none left the app.
    expect(requestProblems(requests, new URL(page.url()).origin)).toEqual([]);
    expect(foreignRequests).toEqual([]);
    // The page's thread never blocked: the workers read and hash, it only merges. Hashing
    // the 5 GiB file there would hold it for seconds; the bound leaves room for a machine
    // busy with other tests (npm test runs the unit tests and another browser file beside
    // this one, on two cores).
    const longest = await page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));
    expect(longest, 'the longest task on the page thread, ms').toBeLessThan(1500);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
