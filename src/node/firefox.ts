// `npm run bench -- --browser firefox`: the plan in a Web Worker of headless Firefox
// (SpiderMonkey), driven by puppeteer-core over WebDriver BiDi, with a fresh profile,
// on the bench page bench-server.ts serves.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { runOnTab, type BrowserRunOptions } from './bench-tab.ts';
import type { BenchPlan } from '../core/bench/plan.ts';
import type { Results } from '../core/bench/results.ts';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** A whole benchmark is one page call: far longer than puppeteer's 3-minute default for a call. */
const CALL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** Headless Firefox with a fresh profile in a private folder, removed once Firefox has quit. */
export async function launchFirefox() {
  const profile = mkdtempSync(join(tmpdir(), 'blake3-lab-firefox-'));
  try {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      protocol: 'webDriverBiDi',
      headless: true,
      userDataDir: profile,
      protocolTimeout: CALL_TIMEOUT_MS,
    });
    // Firefox writes its session into the profile as it quits, after the connection closes:
    // the folder goes once the process has exited (browser.close() waits for that).
    const removeProfile = () => rmSync(profile, { recursive: true, force: true });
    const firefox = browser.process();
    if (firefox && firefox.exitCode === null && firefox.signalCode === null) firefox.once('exit', removeProfile);
    else browser.once('disconnected', removeProfile);
    return browser;
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

export async function runInFirefox(url: string, plan: BenchPlan, options: BrowserRunOptions = {}): Promise<Results> {
  const browser = await launchFirefox();
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => options.onPageError?.(`page error: ${error instanceof Error ? error.message : String(error)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') options.onPageError?.(`console: ${message.text()}`);
    });
    // "firefox/153.7.0": the exact version, where the user agent says only "153.0".
    const version = (await browser.version()).replace(/^[^/]*\//, '');
    const runtime = { id: 'firefox', name: 'Firefox', version, jsEngine: 'SpiderMonkey' };
    return await runOnTab(
      {
        exposeProgress: (callback) => page.exposeFunction('blake3LabBenchProgress', callback),
        open: async (to) => void (await page.goto(to)),
        ready: async () => void (await page.waitForFunction(() => document.body.dataset.status === 'ready')),
        run: (plan, tuning) => page.evaluate((plan, tuning) => window.blake3LabBench.run(plan, tuning), plan, tuning),
        cancel: () => page.evaluate(() => window.blake3LabBench.cancel()),
      },
      url,
      plan,
      runtime,
      options,
    );
  } finally {
    await browser.close().catch(() => {});
  }
}
