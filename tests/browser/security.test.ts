// The served app under its Content Security Policy: every response carries the security
// headers, the page is cross-origin isolated, and stepping through the lesson, opening a
// diff in Monaco and benchmarking stage 9 (WebAssembly compiled at runtime, in a worker)
// cause no CSP violation at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { securityHeaders } from '../../vite.config.ts';
import { choosePlan, runNotes, runToEnd, throughputRow } from './bench-helpers.ts';
import { baseURL, launchBrowser, openApp } from './harness.ts';

/**
 * Records every CSP violation the page sees. Violations in the document fire
 * `securitypolicyviolation`; Chromium also logs each as a console error, which the
 * harness records, and which is how a violation inside a worker shows up.
 */
const RECORD_VIOLATIONS = `
  globalThis.__cspViolations = [];
  addEventListener('securitypolicyviolation', (event) => {
    globalThis.__cspViolations.push(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' at ' + event.sourceFile + ':' + event.lineNumber);
  }, true);
`;

async function headersOf(path: string): Promise<Record<string, string | null>> {
  const response = await fetch(baseURL() + path);
  expect(response.status, path).toBe(200);
  return Object.fromEntries(Object.keys(securityHeaders).map((name) => [name, response.headers.get(name)]));
}

describe('security headers and the Content Security Policy', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sends the same security headers with the page and its scripts', async () => {
    expect(await headersOf('/')).toEqual(securityHeaders);
    const html = await (await fetch(baseURL() + '/')).text();
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(script, 'the entry script in index.html').toBeDefined();
    expect(await headersOf(script!)).toEqual(securityHeaders);
    // The static-host copy of the headers ships with the build.
    expect((await fetch(baseURL() + '/_headers')).status).toBe(200);
  });

  it('runs the whole lesson, a diff and a stage 9 benchmark without a single violation', async () => {
    const opened = await openApp(browser, '/#/', { beforeLoad: RECORD_VIOLATIONS, serviceWorkers: 'allow' });
    const { page } = opened;
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    const violations = () => page.evaluate(() => (globalThis as { __cspViolations?: string[] }).__cspViolations ?? null);
    expect(await violations()).toEqual([]);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    // One service worker, the app's own, registered once the page has loaded (it keeps the
    // app offline); the host sends the headers, so it adds none of its own.
    const workerScripts = () =>
      page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((r) => new URL((r.active ?? r.waiting ?? r.installing)!.scriptURL).pathname));
    await expect.poll(workerScripts, { timeout: 30_000 }).toEqual(['/sw.js']);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 60_000 }).toBe(true);
    const throughWorker = await page.evaluate(async () => Object.fromEntries((await fetch('/', { method: 'HEAD' })).headers));
    expect(throughWorker['x-blake3-lab-isolation']).toBeUndefined();
    expect(throughWorker['content-security-policy']).toBe(securityHeaders['Content-Security-Policy']);

    for (const stage of STAGES) {
      await page.evaluate((hash) => (location.hash = hash), `#/stage/${stage.index}`);
      await expect.poll(() => page.locator('main h1').textContent()).toBe(stage.title);
    }

    // Monaco: lazily loaded code, its injected styles, its font and its diff worker.
    await page.evaluate(() => (location.hash = '#/stage/9/code'));
    await page.locator('.monaco-diff-editor').waitFor();
    await expect.poll(() => page.locator('.code-view .stats').textContent(), { timeout: 30_000 }).toMatch(/\+\d+ −\d+ lines/);

    // Stage 9 compiles its SIMD module at runtime; blake3-wasm instantiates its module from bytes.
    await page.evaluate(() => (location.hash = '#/bench'));
    await choosePlan(page, { contestants: ['08-little-endian', '09-simd-wasm', 'blake3-wasm'], sizes: [1024], rounds: 2 });
    await runToEnd(page);
    expect(await runNotes(page)).toEqual([]);
    for (const title of ['8. Little-endian fast path', '9. SIMD WebAssembly', 'Rust → WASM (blake3-wasm)']) {
      const row = await throughputRow(page, title);
      expect(row, title).not.toBeNull();
      expect(row![1], title).toMatch(/\d/);
    }

    expect(await violations()).toEqual([]);
    expect(opened.errors).toEqual([]);
    expect(opened.foreignRequests).toEqual([]);

    // Workers get their policy from their own response: it must carry the same headers.
    const workerPaths = [...new Set(workers.map((url) => new URL(url).pathname))];
    expect(workerPaths.some((path) => path.includes('editor.worker'))).toBe(true);
    expect(workerPaths.some((path) => path.includes('bench'))).toBe(true);
    for (const path of workerPaths) expect(await headersOf(path), path).toEqual(securityHeaders);
  });
});
