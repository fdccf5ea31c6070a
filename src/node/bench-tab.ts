// Driving bench.html in a browser tab, whatever drives the browser: Chromium through
// playwright-core, Firefox through puppeteer-core over WebDriver BiDi. Each driver
// wraps its page in a BenchTab; the steps (open, wait until ready, run the plan with
// progress coming back, cancel on Ctrl-C) are written once here. Node-only.

import type { RuntimeIdentity } from '../core/bench/runtimes.ts';
import type { BenchPlan } from '../core/bench/plan.ts';
import type { Progress } from '../core/bench/runner.ts';
import type { Results } from '../core/bench/results.ts';

export interface BrowserRunOptions {
  onProgress?: (progress: Progress) => void;
  /** Printed as they happen: anything the page logged as an error. */
  onPageError?: (message: string) => void;
  signal?: AbortSignal;
  label?: string;
}

/** The few things the bench needs from a driver's page. */
export interface BenchTab {
  /** Makes `window.blake3LabBenchProgress` call back into Node. */
  exposeProgress(callback: (progress: Progress) => void): Promise<void>;
  open(url: string): Promise<void>;
  /** Resolves once bench.html has set `data-status="ready"`. */
  ready(): Promise<void>;
  run(plan: BenchPlan, tuning: { label?: string; runtime: RuntimeIdentity }): Promise<Results>;
  cancel(): Promise<void>;
}

export async function runOnTab(tab: BenchTab, url: string, plan: BenchPlan, runtime: RuntimeIdentity, options: BrowserRunOptions): Promise<Results> {
  await tab.exposeProgress((progress) => options.onProgress?.(progress));
  await tab.open(url);
  await tab.ready();
  const cancel = () => void tab.cancel().catch(() => {});
  if (options.signal?.aborted) cancel();
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await tab.run(plan, { label: options.label, runtime });
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
}
