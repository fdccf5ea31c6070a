// `npm run bench -- --browser chromium`: the plan in a Web Worker of headless Chromium
// (V8), driven by playwright-core, on the bench page bench-server.ts serves.

import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from './chromium-path.ts';
import { runOnTab, type BrowserRunOptions } from './bench-tab.ts';
import type { BenchPlan } from '../core/bench/plan.ts';
import type { Results } from '../core/bench/results.ts';

export async function runInChromium(url: string, plan: BenchPlan, options: BrowserRunOptions = {}): Promise<Results> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => options.onPageError?.(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') options.onPageError?.(`console: ${message.text()}`);
    });
    const runtime = { id: 'chromium', name: 'Chromium', version: browser.version(), jsEngine: 'V8' };
    return await runOnTab(
      {
        exposeProgress: async (callback) => void (await page.exposeFunction('blake3LabBenchProgress', callback)),
        open: async (to) => void (await page.goto(to)),
        ready: async () => void (await page.waitForFunction(() => document.body.dataset.status === 'ready')),
        run: (plan, tuning) => page.evaluate(({ plan, tuning }) => window.blake3LabBench.run(plan, tuning), { plan, tuning }),
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
