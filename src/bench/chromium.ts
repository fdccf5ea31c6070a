// `npm run bench -- --browser`: the same engine, measured where the app runs it. Builds
// bench.html with the project's Vite config into a private folder, serves it with
// `vite preview` (so the page gets the same COOP/COEP headers, and with them the fine
// timer of a cross-origin-isolated page), opens it in headless Chromium and runs the
// plan there in Web Workers. Node-only; never part of the app bundle.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview, type Plugin } from 'vite';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../tests/browser/harness.ts';
import type { BenchPlan } from './plan.ts';
import type { Progress } from './runner.ts';
import type { Results } from './results.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Builds only the bench page: the app and its editor are not needed and take far longer. */
function benchPageOnly(): Plugin {
  return {
    name: 'blake3-lab:bench-page-only',
    config(config) {
      const input = { bench: join(ROOT, 'bench.html') };
      config.build ??= {};
      config.build.rollupOptions = { ...config.build.rollupOptions, input };
      if (config.build.rolldownOptions) config.build.rolldownOptions = { ...config.build.rolldownOptions, input };
    },
  };
}

export interface ChromiumRunOptions {
  onProgress?: (progress: Progress) => void;
  /** Printed as they happen: anything the page logged as an error. */
  onPageError?: (message: string) => void;
  signal?: AbortSignal;
  label?: string;
}

export async function runInChromium(plan: BenchPlan, options: ChromiumRunOptions = {}): Promise<Results> {
  const outDir = mkdtempSync(join(tmpdir(), 'blake3-lab-bench-'));
  const cleanups: (() => Promise<unknown>)[] = [async () => rmSync(outDir, { recursive: true, force: true })];
  try {
    await build({ root: ROOT, logLevel: 'warn', plugins: [benchPageOnly()], build: { outDir, emptyOutDir: true } });
    const server = await preview({ root: ROOT, logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
    cleanups.unshift(() => server.close());
    const address = server.resolvedUrls?.local[0]?.replace(/\/$/, '');
    if (!address) throw new Error('vite preview did not report a local address');

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    cleanups.unshift(() => browser.close());
    const page = await browser.newPage();
    page.on('pageerror', (error) => options.onPageError?.(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') options.onPageError?.(`console: ${message.text()}`);
    });
    await page.exposeFunction('blake3LabBenchProgress', (progress: Progress) => options.onProgress?.(progress));
    await page.goto(`${address}/bench.html`);
    await page.waitForFunction(() => document.body.dataset.status === 'ready');

    const cancel = () => void page.evaluate(() => window.blake3LabBench.cancel()).catch(() => {});
    if (options.signal?.aborted) cancel();
    options.signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await page.evaluate(({ plan, label }) => window.blake3LabBench.run(plan, { label }), { plan, label: options.label });
    } finally {
      options.signal?.removeEventListener('abort', cancel);
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  }
}
