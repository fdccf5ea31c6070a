// A class whose network drops, in Chromium against the real class server: a student
// whose connection goes keeps their results (through a reload too), the page says so in
// one line, and when the connection returns they reach the board once, even when the
// first answer is lost on the way back. The projector says it is reconnecting while the
// server is down and catches up when it is back. The class server serves the app's web
// app manifest and service worker as the static build does.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { POST_ID_HEADER } from '../../src/core/class/protocol.ts';
import { call, classWithStudents, follow, startClassServer, type ClassServer } from '../fixtures/class-server.ts';
import { axeFindings } from './axe.ts';
import { baseURL, launchOwnBrowser, screenshots, SERVICE_WORKERS } from './harness.ts';

/** What a page logs while its server is out of reach: failed requests, and nothing else. */
const NETWORK_ERRORS = /Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|FAILED|INCOMPLETE_CHUNKED_ENCODING)|EventSource/;

let browser: Browser;
let server: ClassServer;
const data = joinPath(mkdtempSync(joinPath(tmpdir(), 'blake3-lab-class-')), 'data');
const dist = inject('distDir');
// Chromium itself, not the run's headless shell: there, Chromium's offline emulation let a
// results post made as the page reloaded reach the server (1 full run in 3, under load).
beforeAll(async () => {
  [browser, server] = await Promise.all([launchOwnBrowser([], { browser: 'chromium' }), startClassServer({ data, dist })]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(url: string, options: { viewport?: { width: number; height: number }; serviceWorkers?: 'allow' | 'block'; remember?: Record<string, string> } = {}) {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 }, colorScheme: 'light', serviceWorkers: options.serviceWorkers ?? SERVICE_WORKERS });
  await context.addInitScript((entries) => {
    for (const [key, value] of entries) localStorage.setItem(key, value);
  }, Object.entries(options.remember ?? {}));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !NETWORK_ERRORS.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  return { context, page, errors };
}

const line = (page: Page) => page.getByTestId('post-waiting').textContent();
const runOver = (page: Page) => expect.poll(() => page.getByTestId('run-class').isEnabled(), { timeout: 60_000 }).toBe(true);

describe('a class whose network drops', () => {
  it('the class server serves the app’s manifest and service worker, with the app’s headers', async () => {
    const manifest = await fetch(`${server.url}/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(await manifest.json()).toMatchObject({ display: 'standalone', start_url: '/', scope: '/' });
    const worker = await fetch(`${server.url}/sw.js`);
    expect(worker.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(worker.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(await worker.text()).toContain('precache');
  });

  it('serves the playground’s sandbox page with its own policy, the one Vite’s server gives it, not the app’s', async () => {
    const [ours, vites] = await Promise.all([fetch(`${server.url}/sandbox.html`), fetch(`${baseURL()}/sandbox.html`)]);
    expect(ours.status).toBe(200);
    const policy = ours.headers.get('content-security-policy');
    expect(policy).toBe(vites.headers.get('content-security-policy'));
    expect(policy).toMatch(/script-src 'sha256-[^']+' blob: 'wasm-unsafe-eval'/);
    expect(ours.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(await ours.text()).toBe(await vites.text());
  });

  it('keeps a student’s results while offline and posts them once when the connection returns; the projector reconnects and catches up', async () => {
    const { code, base, teacherToken, ticket } = await classWithStudents(server, 0);
    const plan = { contestants: ['06-message-locals', '07-reuse-buffers'], sizes: [1024], rounds: 2 };
    expect((await call(`${base}/plan`, { method: 'PUT', body: { plan }, token: teacherToken })).status).toBe(200);
    const projector = await open(`${server.url}/#/class/${code}/board`, {
      remember: { [`blake3-lab:class:${code}:teacher`]: teacherToken, [`blake3-lab:class:${code}:teacher-ticket`]: ticket },
    });
    const status = projector.page.getByTestId('live-status');
    await expect.poll(() => status.getAttribute('data-status')).toBe('live');

    // The student's page is the app installed: its service worker keeps the app's files, so the run and a reload work offline.
    const student = await open(`${server.url}/#/class/${code}`, { serviceWorkers: 'allow' });
    const { page, context } = student;
    await page.getByTestId('nickname').fill('Ana');
    await page.getByTestId('join').click();
    await page.getByTestId('run-class').waitFor();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 60_000 }).toBe(true);
    const events = follow(`${base}/events`);
    await events.opened;

    // Offline: the run measures, its results wait on the device, and one line says so.
    // Chromium's offline emulation missed a results post about once in ten runs (a post made
    // as the page reloads), so the posts are also refused on the way, as a dead network would.
    const noNetwork = (route: Route) => route.abort('internetdisconnected');
    await context.route('**/students/*/results?*', noNetwork);
    await context.setOffline(true);
    await page.getByTestId('run-class').click();
    await runOver(page);
    await expect.poll(() => line(page)).toBe('Offline: your results are kept here and sent when the connection returns.');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('run-delivered').count()).toBe(0);
    expect(await axeFindings(page, 'class page offline', ['[data-testid="post-waiting"]', '[data-testid="live-status"]'])).toEqual([]);
    await screenshots(page, 'class-offline');
    const key = `blake3-lab:class:${code}:waiting-results`;
    const kept = JSON.parse((await page.evaluate((k) => localStorage.getItem(k), key))!);
    expect(kept).toMatchObject({ done: true, results: { contestants: plan.contestants.map((id) => ({ id })) } });

    // A reload while offline (the page from the service worker) keeps them, and says so again.
    await page.reload();
    await expect.poll(() => line(page), { timeout: 30_000 }).toMatch(/^Offline: your results are kept here/);
    expect(await page.locator('h1').textContent()).toBe('Hello, Ana');
    await screenshots(page, 'class-offline-reload');
    expect((await call(`${base}/board`)).body.entries).toMatchObject([{ nickname: 'Ana', silent: true }]);

    // Back online. The first post reaches the server but its answer is lost on the way back:
    // the page sends it again, under the same id, and the server counts it once.
    await context.unroute('**/students/*/results?*', noNetwork);
    const posts: Request[] = [];
    let lost = 0;
    await context.route('**/students/*/results?*', async (route) => {
      posts.push(route.request());
      if (lost > 0) return route.continue();
      lost++;
      await route.fetch();
      await route.abort('internetdisconnected');
    });
    await context.setOffline(false);
    await expect.poll(() => line(page), { timeout: 30_000 }).toMatch(/^Back online: your results reached the board at \d{1,2}:\d{2}/);
    await page.getByTestId('run-delivered').waitFor();
    expect(posts.map((post) => post.headers()[POST_ID_HEADER.toLowerCase()])).toEqual([kept.id, kept.id]);
    const board = (await call(`${base}/board`)).body;
    expect(board.entries).toMatchObject([{ nickname: 'Ana', done: true, silent: false }]);
    // One entry on every board, one board row, one machine counted.
    expect(events.events.filter((e) => e.event === 'entry')).toHaveLength(1);
    await expect.poll(() => projector.page.getByTestId('board-count').textContent()).toMatch(/^1 machine has reported \(1 finished, 1 joined\)/);
    expect(await projector.page.locator('[data-testid="board-row"]').count()).toBe(1);
    expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
    await screenshots(page, 'class-offline-sent');
    events.stop();
    await context.unroute('**/students/*/results?*');

    // The server goes. The projector says it is reconnecting; the student guesses and runs
    // again, and both wait on the device.
    await server.stop();
    await expect.poll(() => status.getAttribute('data-status')).toBe('offline');
    expect(await status.textContent()).toMatch(/Not live: the connection to the class server was lost, so this board may be out of date\.\s*Reconnecting/);
    await screenshots(projector.page, 'class-offline-projector');
    await page.getByTestId('class-guesses').getByText('1.5x', { exact: true }).click();
    await page.getByTestId('run-class').click();
    await runOver(page);
    await expect.poll(() => line(page)).toBe('Offline: your results and guesses are kept here and sent when the connection returns.');
    // The page's own board says only that it is not live: the line above says the rest.
    expect((await page.getByTestId('live-status').textContent())?.trim()).toMatch(/^Not live\.\s*Reconnecting/);
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshots(page, 'class-offline-server-down');

    // Back on the same port and data: the student's results and guess go, and the projector, live again, shows them.
    const restartedAt = Date.now();
    server = await startClassServer({ data, dist, args: ['--port', new URL(server.url).port] });
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 30_000 }).toBe('live');
    await expect.poll(() => line(page), { timeout: 30_000 }).toMatch(/^Back online: your results reached the board at/);
    const after = (await call(`${base}/board`)).body.entries;
    expect(after).toMatchObject([{ nickname: 'Ana', done: true, guesses: { 7: 1.5 } }]);
    expect(after[0].updatedAt).toBeGreaterThanOrEqual(restartedAt);
    await expect.poll(() => projector.page.getByTestId('guess-summary').textContent()).toMatch(/^1 guess; most said 1\.5x\./);
    await expect.poll(() => projector.page.getByTestId('board-count').textContent()).toMatch(/^1 machine has reported \(1 finished, 1 joined\)/);

    expect(student.errors).toEqual([]);
    expect(projector.errors).toEqual([]);
    await Promise.all([student.context.close(), projector.context.close()]);
  });
});
