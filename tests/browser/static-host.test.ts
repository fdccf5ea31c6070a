// The built app on a host that sends no headers at all (GitHub Pages, a school's plain
// web server): the policy still applies from the pages' meta tags, the app's service
// worker adds cross-origin isolation (and the profiling policy) and reloads once, and the
// benchmark runs.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { choosePlan, runToEnd, throughputRow } from './bench-helpers.ts';
import { launchBrowser } from './harness.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.ttf': 'font/ttf',
};

/** Files of `root` with a content type and nothing else: no CSP, no COOP, no COEP. */
function plainStaticServer(root: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
    const file = join(root, normalize(path.endsWith('/') ? `${path}index.html` : path));
    let found = false;
    try {
      found = file.startsWith(root) && statSync(file).isFile();
    } catch {
      found = false;
    }
    if (!found) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('the built app on a plain static server', () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = await plainStaticServer(inject('distDir'));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('sends no security headers itself', async () => {
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(200);
    for (const name of ['content-security-policy', 'cross-origin-opener-policy', 'cross-origin-embedder-policy']) {
      expect(response.headers.get(name), name).toBeNull();
    }
  });

  it('applies the policy, becomes cross-origin isolated after one reload and runs the benchmark', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    let documents = 0;
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents++;
    });
    await page.goto(`${origin}/#/bench`);
    await expect.poll(() => page.evaluate(() => crossOriginIsolated).catch(() => false), { timeout: 30_000 }).toBe(true);
    expect(documents, 'one load and one reload').toBe(2);
    // The service worker also added the profiling policy: the page may start the JS Self-Profiling API.
    const profiler = await page.evaluate(async () => {
      const Profiler = (globalThis as { Profiler?: new (o: object) => { stop(): Promise<unknown> } }).Profiler;
      try {
        await new Profiler!({ sampleInterval: 10, maxBufferSize: 10 }).stop();
        return 'started';
      } catch (error) {
        return String(error);
      }
    });
    expect(profiler).toBe('started');

    // The meta policy blocks inline script, which is what it is for.
    const inline = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.head.append(script);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(inline).toBe(false);

    await choosePlan(page, { contestants: ['02-precomputed-permutations', 'blake3-wasm'], sizes: [1024], rounds: 3 });
    await runToEnd(page);
    expect(await throughputRow(page, '2. Precomputed permutations')).not.toBeNull();
    await expect.poll(() => page.getByTestId('env').textContent()).toContain('cross-origin isolated by the app’s service worker');
    expect(errors).toEqual([]);
    await context.close();
  });
});
