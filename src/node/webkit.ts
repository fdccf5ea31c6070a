// `npm run bench -- --browser webkit`: the plan in a Web Worker of WPE WebKit
// (JavaScriptCore), Debian's `cog` browser on its headless platform, driven through
// WPEWebDriver (WebDriver classic) by selenium-webdriver. WebDriver classic has no way
// for the page to call back into Node while a script runs, so there is no live progress
// line in WebKit: the results arrive when the run ends.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Builder, type WebDriver } from 'selenium-webdriver';
import { runOnTab, type BrowserRunOptions } from './bench-tab.ts';
import type { BenchPlan } from '../core/bench/plan.ts';
import type { Results } from '../core/bench/results.ts';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WPEWebDriver';
export const COG = process.env.COG_PATH ?? '/usr/bin/cog';

/** A whole benchmark is one script call. */
const SCRIPT_TIMEOUT_MS = 24 * 60 * 60 * 1000;
const DRIVER_START_MS = 15_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** WPEWebDriver on a free local port, and a session in a fresh headless cog. */
export async function launchWebKit(): Promise<{ driver: WebDriver; version: string; close(): Promise<void> }> {
  const port = await freePort();
  const server = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=local'], { stdio: 'ignore' });
  const stop = () => void server.kill();
  try {
    const url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    for (;;) {
      const ready = await fetch(`${url}/status`).then((r) => r.ok, () => false);
      if (ready) break;
      if (Date.now() - started > DRIVER_START_MS) throw new Error(`${WEBKIT_DRIVER} did not answer on port ${port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const driver = await new Builder()
      .usingServer(url)
      .withCapabilities({ browserName: 'cog', 'wpe:browserOptions': { binary: COG, args: ['--automation', '--platform=headless'] } })
      .build();
    const capabilities = await driver.getCapabilities();
    return {
      driver,
      version: String(capabilities.get('browserVersion') ?? 'unknown'),
      async close() {
        await driver.quit().catch(() => {});
        stop();
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}

export async function runInWebKit(url: string, plan: BenchPlan, options: BrowserRunOptions = {}): Promise<Results> {
  const webkit = await launchWebKit();
  const { driver } = webkit;
  try {
    await driver.manage().setTimeouts({ script: SCRIPT_TIMEOUT_MS });
    const runtime = { id: 'webkit', name: 'WPE WebKit', version: webkit.version, jsEngine: 'JavaScriptCore' };
    return await runOnTab(
      {
        exposeProgress: async () => {},
        open: (to) => driver.get(to),
        ready: async () => {
          await driver.wait(() => driver.executeScript<boolean>('return document.body.dataset.status === "ready"'), 30_000);
        },
        run: async (plan, tuning) => {
          const outcome = await driver.executeAsyncScript<{ results?: Results; error?: string }>(
            `const done = arguments[arguments.length - 1];
             window.blake3LabBench.run(arguments[0], arguments[1]).then((results) => done({ results }), (e) => done({ error: String(e && e.message || e) }));`,
            plan,
            tuning,
          );
          if (outcome.error !== undefined || !outcome.results) throw new Error(`the bench page failed in WebKit: ${outcome.error}`);
          return outcome.results;
        },
        cancel: async () => void (await driver.executeScript('window.blake3LabBench.cancel()')),
      },
      url,
      plan,
      runtime,
      options,
    );
  } finally {
    await webkit.close();
  }
}
