// How the file workers read, in Chromium (src/core/file/readers.ts). The BYOB reader that
// reuses its buffers once stalled now and then: a Blob's stream whose only reference was
// its own pending read was collected as garbage, and the read never ended. Here the same
// file is read 100 times by two workers with two reads in flight each and a full garbage
// collection before every read (V8's --expose-gc), and no read may stall; without the
// readers held, the first pass stalled. Then the watchdog's path, forced: a BYOB reader
// that stops mid-piece is given up after a second, the piece read again by the next
// reader, and the page still prints b3sum's line and says what happened.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blake3 } from '@noble/hashes/blake3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { b3sumLine } from '../../src/core/file/b3sum.ts';
import { toHex } from '../../src/core/file/tree.ts';
import { baseURL, launchOwnBrowser, openApp } from './harness.ts';

const MiB = 1024 * 1024;

describe('reading a file in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let path: string;
  let bytes: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'blake3-lab-file-reads-'));
    bytes = randomBytes(24 * MiB + 5);
    path = join(dir, 'random-24MiB-and-5.bin');
    writeFileSync(path, bytes);
    browser = await launchOwnBrowser(['--js-flags=--expose-gc']); // files read by path; gc() in the workers
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the same file 100 times with the BYOB reader, a garbage collection before every read, and no read ever stalls', { timeout: 300_000 }, async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${baseURL()}/bench.html`);
      await page.waitForFunction(() => document.body.dataset.status === 'ready');
      await page.locator('#file-input').setInputFiles(path);
      const reading = { readers: ['byob' as const], collect: true };
      const expected = toHex(blake3(bytes));
      for (let pass = 1; pass <= 100; pass++) {
        // Every tenth pass hashes too (stage 11), as the page does between its reads.
        const timing = await page.evaluate(
          ({ reading, hash }) => (hash ? window.blake3LabFileBench.hash(11, { reading }) : window.blake3LabFileBench.read(11, { reading })),
          { reading, hash: pass % 10 === 0 },
        );
        expect(timing, `pass ${pass}`).toMatchObject({ readers: ['byob'], switches: [], workers: expect.any(Number) });
        if (pass % 10 === 0) expect(timing.hex, `pass ${pass}`).toBe(expected);
      }
      expect(await Promise.all(page.workers().map((w) => w.evaluate(() => typeof (globalThis as { gc?: unknown }).gc)))).toContain('function');
    } finally {
      await page.close();
    }
  });

  it('gives up a read that stalls and reads that piece again with the next reader: b3sum\'s line, and the page says so', { timeout: 120_000 }, async () => {
    const { page, errors } = await openApp(browser, '/#/file', { beforeLoad: "globalThis.__BLAKE3_LAB_FILE_READS__ = { stall: 'byob', stallMs: 1000 };" });
    await page.getByRole('heading', { name: 'Hash a file' }).waitFor();
    await page.getByTestId('file-input').setInputFiles(path);
    await expect.poll(() => page.getByTestId('file-result').textContent(), { timeout: 60_000 }).toBe(b3sumLine(toHex(blake3(bytes)), 'random-24MiB-and-5.bin'));
    const notice = (await page.getByTestId('file-stalled').textContent())?.replace(/\s+/g, ' ');
    expect(notice).toMatch(/A read with a BYOB stream reader into kept buffers made no progress \(no bytes came for 1 s\)/);
    expect(notice).toMatch(/read again from its first byte with Blob\.slice\(\)\.arrayBuffer\(\), which read the rest/);
    // A hash again starts with the BYOB reader, which stalls again: the same line, the same notice.
    await page.getByRole('button', { name: 'Hash again' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Hash again' }).isEnabled(), { timeout: 60_000 }).toBe(true);
    expect(await page.getByTestId('file-result').textContent()).toBe(b3sumLine(toHex(blake3(bytes)), 'random-24MiB-and-5.bin'));
    expect(await page.getByTestId('file-stalled').textContent()).toMatch(/made no progress/);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
