// Node only: bench.html open in a headless browser with a file in its file input, chosen by
// its path (the browser reads the bytes from disk, as the file page does), for `npm run
// bench -- --file PATH --browser LIST`. Chromium through playwright-core, Firefox through
// puppeteer-core over WebDriver BiDi (input.setFiles), WPE WebKit through WPEWebDriver
// (WebDriver classic sends the path to the input as keys); each driver's calls are
// wrapped once here so the bench takes its turns the same way in all of them.

import { By } from 'selenium-webdriver';
import { chromium } from 'playwright-core';
import type { BrowserId, RuntimeIdentity } from '../core/bench/runtimes.ts';
import type { Environment } from '../core/bench/results.ts';
import type { FileHashTiming, FileTuning } from '../core/file/pool.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium-path.ts';
import { launchFirefox } from './firefox.ts';
import { launchWebKit } from './webkit.ts';

/** One pass over the file is one call: a large file read slowly takes minutes. */
const CALL_TIMEOUT_MS = 60 * 60 * 1000;

/** The bench page's file calls (src/app/bench/pages/file.ts), from Node. */
export interface FileTab {
  identity: RuntimeIdentity;
  environment(label?: string): Promise<Environment>;
  wasmSimd(): Promise<boolean>;
  hash(stage: number, tuning?: FileTuning): Promise<FileHashTiming>;
  read(stage: number, tuning?: FileTuning): Promise<FileHashTiming>;
  close(): Promise<void>;
}

type Call = { method: 'environment'; label?: string } | { method: 'wasmSimd' } | { method: 'hash'; stage: number; tuning?: FileTuning } | { method: 'read'; stage: number; tuning?: FileTuning };

// Runs in the page: the one function every driver evaluates.
function callInPage(call: Call): unknown {
  const bench = window.blake3LabFileBench;
  if (call.method === 'environment') return bench.environment(call.label);
  if (call.method === 'wasmSimd') return bench.wasmSimd();
  if (call.method === 'hash') return bench.hash(call.stage, call.tuning);
  return bench.read(call.stage, call.tuning);
}

function tabOf(identity: RuntimeIdentity, call: (c: Call) => Promise<unknown>, close: () => Promise<void>): FileTab {
  return {
    identity,
    environment: (label) => call({ method: 'environment', label }) as Promise<Environment>,
    wasmSimd: () => call({ method: 'wasmSimd' }) as Promise<boolean>,
    hash: (stage, tuning) => call({ method: 'hash', stage, tuning }) as Promise<FileHashTiming>,
    read: (stage, tuning) => call({ method: 'read', stage, tuning }) as Promise<FileHashTiming>,
    close,
  };
}

async function openChromium(url: string, path: string, log: (line: string) => void): Promise<FileTab> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(CALL_TIMEOUT_MS);
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.status === 'ready');
    await page.locator('#file-input').setInputFiles(path);
    const identity = { id: 'chromium', name: 'Chromium', version: browser.version(), jsEngine: 'V8' };
    return tabOf(identity, (c) => page.evaluate(callInPage, c), () => browser.close().catch(() => {}));
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
}

async function openFirefox(url: string, path: string, log: (line: string) => void): Promise<FileTab> {
  const browser = await launchFirefox();
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => log(`page error: ${error instanceof Error ? error.message : String(error)}`));
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.status === 'ready');
    const input = await page.$('input#file-input');
    if (!input) throw new Error('bench.html has no #file-input');
    await input.uploadFile(path);
    // "firefox/153.7.0": the exact version, where the user agent says only "153.0".
    const version = (await browser.version()).replace(/^[^/]*\//, '');
    const identity = { id: 'firefox', name: 'Firefox', version, jsEngine: 'SpiderMonkey' };
    return tabOf(identity, (c) => page.evaluate(callInPage, c), () => browser.close().catch(() => {}));
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
}

async function openWebKit(url: string, path: string): Promise<FileTab> {
  const webkit = await launchWebKit();
  try {
    const { driver } = webkit;
    await driver.manage().setTimeouts({ script: CALL_TIMEOUT_MS });
    await driver.get(url);
    await driver.wait(() => driver.executeScript<boolean>('return document.body.dataset.status === "ready"'), 30_000);
    await driver.findElement(By.id('file-input')).sendKeys(path);
    const identity = { id: 'webkit', name: 'WPE WebKit', version: webkit.version, jsEngine: 'JavaScriptCore' };
    // WebDriver classic waits for a script's callback; errors come back as data.
    const call = async (c: Call) => {
      const outcome = await driver.executeAsyncScript<{ value?: unknown; error?: string }>(
        `const done = arguments[arguments.length - 1];
         Promise.resolve().then(() => (${callInPage.toString()})(arguments[0])).then((value) => done({ value }), (e) => done({ error: String(e && e.message || e) }));`,
        c,
      );
      if (outcome.error !== undefined) throw new Error(`the bench page failed in WebKit: ${outcome.error}`);
      return outcome.value;
    };
    return tabOf(identity, call, () => webkit.close());
  } catch (error) {
    await webkit.close();
    throw error;
  }
}

/** bench.html at `url` in a fresh headless `id`, with the file at `path` in its file input. */
export function openFileTab(id: BrowserId, url: string, path: string, log: (line: string) => void): Promise<FileTab> {
  if (id === 'chromium') return openChromium(url, path, log);
  if (id === 'firefox') return openFirefox(url, path, log);
  return openWebKit(url, path);
}
