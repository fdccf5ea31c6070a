// A class served as plain HTTP on a network address, as `npm run classroom` does on a
// school's LAN: Chromium maps the test name class.test to 127.0.0.1 (--host-resolver-rules),
// so the pages are at http://class.test:PORT, which browsers do not treat as secure. The
// teacher's page says before class what students will lack and how to give it to them; a
// student's page says in one line what cannot run there and why; the board marks the
// machine as not isolated. Pictures with BLAKE3_LAB_SHOTS=folder.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { call, startClassServer, type ClassServer } from '../fixtures/class-server.ts';
import { freePort } from '../fixtures/ports.ts';
import { path } from '../../src/core/class/protocol.ts';
import { launchBrowser, SERVICE_WORKERS, picture } from './harness.ts';


let browser: Browser;
let server: ClassServer;
let origin: string;
beforeAll(async () => {
  const port = await freePort();
  origin = `http://class.test:${port}`;
  [browser, server] = await Promise.all([
    launchBrowser(['--host-resolver-rules=MAP class.test 127.0.0.1']),
    startClassServer({ data: joinPath(mkdtempSync(joinPath(tmpdir(), 'blake3-lab-class-')), 'data'), dist: inject('distDir'), args: ['--port', String(port), '--public-url', origin] }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(url: string, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, colorScheme: 'light', serviceWorkers: SERVICE_WORKERS });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // Chromium's own word that it ignored the isolation headers on an untrustworthy origin: what the page explains.
    if (message.type() === 'error' && !/Cross-Origin-Opener-Policy header has been ignored/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  return { context, page, errors };
}

describe('a class on plain HTTP at a network address', () => {
  it('tells the teacher before class, and each student in one line, what the pages cannot run and why', async () => {
    expect(server.url).toBe(origin);
    const teacher = await open(`${origin}/?host=${server.hostKey}#/class`, { width: 1280, height: 800 });
    const note = teacher.page.getByTestId('insecure-note');
    await note.waitFor();
    expect(await note.textContent()).toMatch(
      new RegExp(`Students will open ${origin}, plain HTTP on a network address, which browsers do not treat as\\s+secure\\. On every student's machine, stage 11 \\(Every core\\) runs on one thread and the timer is coarse\\.`),
    );
    expect(await note.textContent()).toMatch(/--cert FILE --key FILE.*Caddy or nginx/s);
    await picture(teacher.page, 'teacher-insecure-1280');
    await teacher.page.getByTestId('start-class').click();
    await teacher.page.getByTestId('join-code-big').waitFor();
    const code = (await teacher.page.getByTestId('join-code-big').textContent())!.replace(/\s/g, '');
    await teacher.page.getByTestId('insecure-note').waitFor();

    // A short plan with the two rows such a page loses: stage 11's threads and WebCrypto's SHA-256.
    const token = await teacher.page.evaluate((key) => localStorage.getItem(key), `blake3-lab:class:${code}:teacher`);
    const plan = { contestants: ['11-every-core', 'sha256'], sizes: [1024], rounds: 1 };
    expect((await call(`${server.listening}${path('plan', { code })}`, { method: 'PUT', body: { plan }, token: token! })).status).toBe(200);

    const student = await open(`${origin}/#/class/${code}`, { width: 390, height: 844 });
    const page = await student.page.evaluate(() => ({ secure: isSecureContext, isolated: crossOriginIsolated, shared: typeof SharedArrayBuffer, subtle: typeof crypto.subtle }));
    expect(page).toEqual({ secure: false, isolated: false, shared: 'undefined', subtle: 'undefined' });
    await student.page.getByTestId('nickname').fill('Ana');
    await student.page.getByTestId('join').click();
    const line = student.page.getByTestId('capability-note');
    await line.waitFor();
    expect(await line.textContent()).toBe(
      'On this page, stage 11 (Every core) runs on one thread, SHA-256 (native) cannot run and the timer is coarse: this page came over plain HTTP from a network address, and browsers keep threads, the fine timer and WebCrypto for secure (https) pages.',
    );
    await student.page.getByTestId('run-class').click();
    await expect.poll(() => student.page.getByTestId('run-delivered').count(), { timeout: 120_000, interval: 500 }).toBe(1);
    await picture(student.page, 'student-insecure-390', { fullPage: true });

    // The board marks the machine: its page was not isolated.
    await teacher.page.getByTestId('open-board').click();
    const row = teacher.page.locator('[data-testid="board-row"]', { hasText: 'Ana' });
    await expect.poll(() => row.getByTestId('not-isolated').count()).toBe(1);
    expect(await row.getByTestId('not-isolated').getAttribute('title')).toMatch(/^Not cross-origin isolated .*stage 11 ran on one thread; timer step \d+ µs$/);
    await picture(teacher.page, 'board-not-isolated-1280');

    for (const opened of [teacher, student]) {
      expect(opened.errors).toEqual([]);
      await opened.context.close();
    }
  });
});
