// The browsers `npm run bench -- --browser LIST` can measure in, what installs each on
// Debian, and running one plan in several of them, one after the other, on one served
// bench page. Each browser's results stay a document of their own until the caller
// merges them (runtimes.ts). Node-only.

import { existsSync } from 'node:fs';
import type { BrowserRunOptions } from './bench-tab.ts';
import { serveBenchPage } from './bench-server.ts';
import type { BrowserId } from '../core/bench/runtimes.ts';
import type { BenchPlan } from '../core/bench/plan.ts';
import type { Results } from '../core/bench/results.ts';

interface BrowserEntry {
  name: string;
  jsEngine: string;
  executable(): string;
  /** The variable that points at another executable. */
  pathVariable: string;
  /** What installs it on Debian. */
  install: string;
  run(url: string, plan: BenchPlan, options: BrowserRunOptions): Promise<Results>;
}

export const BROWSERS: Record<BrowserId, BrowserEntry> = {
  chromium: {
    name: 'Chromium',
    jsEngine: 'V8',
    executable: () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    pathVariable: 'CHROMIUM_PATH',
    install: 'apt-get install -y chromium',
    run: async (url, plan, options) => (await import('./chromium.ts')).runInChromium(url, plan, options),
  },
  firefox: {
    name: 'Firefox',
    jsEngine: 'SpiderMonkey',
    executable: () => process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    pathVariable: 'FIREFOX_PATH',
    install: 'apt-get install -y firefox-esr',
    run: async (url, plan, options) => (await import('./firefox.ts')).runInFirefox(url, plan, options),
  },
  webkit: {
    name: 'WPE WebKit',
    jsEngine: 'JavaScriptCore',
    // The driver starts cog; both must be there (missingBrowser checks the driver, then cog).
    executable: () => process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WPEWebDriver',
    pathVariable: 'WEBKIT_DRIVER_PATH',
    install: 'apt-get install -y wpewebkit-driver cog',
    run: async (url, plan, options) => (await import('./webkit.ts')).runInWebKit(url, plan, options),
  },
};

/** Why a browser cannot be started here, naming the package that installs it; undefined when it can. */
export function missingBrowser(id: BrowserId): string | undefined {
  const browser = BROWSERS[id];
  const path = browser.executable();
  const cog = process.env.COG_PATH ?? '/usr/bin/cog';
  if (existsSync(path) && (id !== 'webkit' || existsSync(cog))) return undefined;
  if (id === 'webkit' && existsSync(path)) return `WPE WebKit's browser is not installed at ${cog}: \`apt-get install -y cog\` installs it (or set COG_PATH)`;
  return `${browser.name} is not installed at ${path}: \`${browser.install}\` installs it (or set ${browser.pathVariable} to another ${browser.name})`;
}

export interface MultiBrowserOptions extends BrowserRunOptions {
  /** Called before each browser starts, e.g. to print which one. */
  onBrowser?: (id: BrowserId) => void;
}

/**
 * Runs the plan in each browser in turn, never two at once (they would share the cores
 * and slow each other down). Stops early when cancelled; the browsers done so far keep
 * their results.
 */
export async function runInBrowsers(ids: readonly BrowserId[], plan: BenchPlan, options: MultiBrowserOptions = {}): Promise<Results[]> {
  const missing = ids.map(missingBrowser).filter((m): m is string => m !== undefined);
  if (missing.length > 0) throw new Error(missing.join('\n'));
  const server = await serveBenchPage();
  try {
    const results: Results[] = [];
    for (const id of ids) {
      if (options.signal?.aborted) break;
      options.onBrowser?.(id);
      results.push(await BROWSERS[id].run(server.url, plan, options));
    }
    return results;
  } finally {
    await server.close();
  }
}
