// The class over HTTPS, both ways the README gives: behind a real Caddy (Debian's, with the
// README's own Caddyfile block, `tls internal` on 127.0.0.1, started and stopped here) and
// with --cert/--key. Through Caddy the server reads each device's address from
// X-Forwarded-For (--trust-proxy) and from nowhere else, event streams come through
// unbuffered, and in Chromium (class.test mapped to 127.0.0.1, the certificate trusted by
// its key) the page is a secure, isolated context where stage 11 gets its workers.
import { mkdtempSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Results } from '../../src/core/bench/results.ts';
import { path } from '../../src/core/class/protocol.ts';
import { takeEvents } from '../../server/load/client.ts';
import { call, newDevice, postResults, startClass, startClassServer, studentResults, type ClassServer } from '../fixtures/class-server.ts';
import { freePort } from '../fixtures/ports.ts';
import { makeCertificate, startCaddy, tlsCall, trustFlag, type RunningCaddy } from '../fixtures/tls.ts';
import { unzip } from '../fixtures/unzip.ts';
import { launchBrowser, SERVICE_WORKERS } from './harness.ts';

const NAME = 'class.test';
const dataDir = () => joinPath(mkdtempSync(joinPath(tmpdir(), 'blake3-lab-class-')), 'data');

/** Opens `url` in Chromium as a student, joins, runs stage 11 at 1 MiB; what the page was, and the run's thread count from the export. */
async function studentRun(browser: Browser, url: string, code: string, exportZip: () => Promise<Buffer>) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: SERVICE_WORKERS });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`${url}/#/class/${code}`);
  await page.getByTestId('nickname').fill('Ana');
  await page.getByTestId('join').click();
  await page.getByTestId('run-class').click();
  await page.getByTestId('run-delivered').waitFor({ timeout: 120_000 });
  const context2 = await page.evaluate(() => ({ secure: isSecureContext, isolated: crossOriginIsolated, shared: typeof SharedArrayBuffer }));
  const note = await page.getByTestId('capability-note').count();
  await context.close();
  const files = unzip(await exportZip());
  const results = JSON.parse(files[1].data.toString('utf8')) as Results;
  return { page: context2, note, errors, threads: results.contestants.find((c) => c.id === '11-every-core')?.threads };
}

const STAGE_11_PLAN = { contestants: ['11-every-core'], sizes: [1048576], rounds: 1 };

describe('the class behind Caddy', () => {
  let server: ClassServer;
  let caddy: RunningCaddy;
  let browser: Browser;
  beforeAll(async () => {
    // The README's command, on a port Caddy's block then names.
    const backend = await freePort();
    const proxyPort = await freePort([backend]);
    server = await startClassServer({ data: dataDir(), dist: inject('distDir'), args: ['--port', String(backend), '--trust-proxy', '127.0.0.1', '--public-url', `https://${NAME}:${proxyPort}`] });
    caddy = await startCaddy(NAME, `127.0.0.1:${backend}`, proxyPort);
    browser = await launchBrowser([`--host-resolver-rules=MAP ${NAME} 127.0.0.1`, trustFlag(caddy.leaf)]);
  });
  afterAll(async () => {
    await browser?.close();
    await caddy?.stop();
    await server?.stop();
  });

  it('reads each device from X-Forwarded-For through the proxy only, and streams events through it unbuffered', async () => {
    const ca = caddy.root;
    const probe = await tlsCall(`${caddy.url}/api/class`, { ca });
    expect(probe.body.joinOrigin).toBe(server.url);
    // One device guesses codes through Caddy until it is slowed down; a device beside it is not.
    // All at once, as a script would: sent one by one on a busy machine, the limit refilled
    // (5 a second) as fast as the guesses came.
    const guesser = newDevice();
    const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => tlsCall(`${caddy.url}${path('info', { code: `QQQQ${'23456789'[i % 8]}${'ABCDE'[i % 5]}` })}`, { ca, from: guesser })));
    const statuses = guesses.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 429).length, statuses.join(' ')).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 429 && status !== 404), statuses.join(' ')).toEqual([]);
    // Another device, claiming to be the guesser: Caddy writes the header itself.
    const other = await tlsCall(`${caddy.url}${path('info', { code: 'QQQQQQ' })}`, { ca, from: newDevice(), headers: { 'X-Forwarded-For': guesser } });
    expect(other).toMatchObject({ status: 404, body: { error: 'There is no class with the code “QQQQQQ”: check it on the board' } });
    // Straight to the server, the header is not believed: the sender is who it is.
    const direct = await call(`${server.listening}${path('info', { code: 'QQQQQQ' })}`, { from: newDevice(), headers: { 'X-Forwarded-For': guesser } });
    expect(direct.status).toBe(404);

    const started = await startClass({ ...server, url: server.listening });
    const { code } = started.body;
    const student = (await call(`${server.listening}${path('join', { code })}`, { body: { nickname: 'Ana' }, from: newDevice() })).body;
    const events: { event: string; at: number }[] = [];
    const stream = await new Promise<{ close(): void }>((resolve, reject) => {
      const get = request({ host: '127.0.0.1', port: caddy.port, path: path('events', { code }), servername: NAME, headers: { Host: `${NAME}:${caddy.port}` }, ca, agent: false }, (response) => {
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const taken = takeEvents(buffer + chunk);
          buffer = taken.rest;
          for (const e of taken.events) events.push({ event: e.event, at: performance.now() });
        });
        resolve({ close: () => get.destroy() });
      });
      get.on('error', reject);
      get.end();
    });
    const sent = performance.now();
    expect((await postResults(`${server.listening}${path('info', { code })}`, student, studentResults(1))).status).toBe(200);
    await expect.poll(() => events.find((e) => e.event === 'entry')?.at ?? null).not.toBeNull();
    expect(events.find((e) => e.event === 'entry')!.at - sent).toBeLessThan(1000);
    stream.close();
  });

  it('gives a student’s page at https://… a secure, isolated context where stage 11 gets its workers', async () => {
    const started = await startClass({ ...server, url: server.listening }, { plan: STAGE_11_PLAN });
    const { code, teacherToken } = started.body;
    const run = await studentRun(browser, caddy.url, code, async () => (await tlsCall(`${caddy.url}${path('exportZip', { code })}`, { ca: caddy.root, token: teacherToken })).body);
    expect(run.page).toEqual({ secure: true, isolated: true, shared: 'function' });
    expect(run.note).toBe(0);
    expect(run.threads).toBeGreaterThanOrEqual(2);
    expect(run.errors).toEqual([]);
  });
});

describe('the class server with its own certificate', () => {
  it('serves HTTPS with --cert and --key, prints https links, and its pages get threads', async () => {
    const tls = makeCertificate(NAME);
    const server = await startClassServer({ data: dataDir(), dist: inject('distDir'), args: ['--cert', tls.cert, '--key', tls.key] });
    const browser = await launchBrowser([`--host-resolver-rules=MAP ${NAME} 127.0.0.1`, trustFlag(tls.pem)]);
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const url = server.url.replace('127.0.0.1', NAME);
      expect((await tlsCall(`${url}/api/class`, { ca: tls.pem })).body).toMatchObject({ app: 'blake3-lab-class', joinOrigin: server.url });
      const started = await tlsCall(`${url}${path('start')}`, { ca: tls.pem, body: { plan: STAGE_11_PLAN }, token: server.hostKey });
      const { code, teacherToken } = started.body;
      const run = await studentRun(browser, url, code, async () => (await tlsCall(`${url}${path('exportZip', { code })}`, { ca: tls.pem, token: teacherToken })).body);
      expect(run.page).toEqual({ secure: true, isolated: true, shared: 'function' });
      expect(run.threads).toBeGreaterThanOrEqual(2);
      expect(run.errors).toEqual([]);
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});
