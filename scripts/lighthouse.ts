// npm run lighthouse: builds the app into a temporary folder, serves it with `vite preview`
// (the production headers), and runs Lighthouse three times on the intro (#/) and on
// stage 5 (#/stage/5) in Debian's Chromium, with Lighthouse's defaults: a mobile phone
// on a slow 4G network, simulated throttling. Prints the median run's four category
// scores, its metrics and the JavaScript that first visit downloaded, gzipped: before
// the first paint, and in all (the parts of a page drawn after it load then). A run that
// Lighthouse itself could not record (a runtime error such as NO_NAVSTART) is run again.
// CHROME_PATH (or CHROMIUM_PATH) names another Chromium.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import type { Result } from 'lighthouse';

type Audit = Result['audits'][string];
import { build, preview } from 'vite';
import { CHROMIUM, CHROMIUM_FLAGS } from '../src/node/chromium-path.ts';

const PAGES = ['/#/', '/#/stage/5'];
const RUNS = 3;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

const outDir = mkdtempSync(join(tmpdir(), 'blake3-lab-lighthouse-'));
const chromePath = process.env.CHROME_PATH ?? CHROMIUM;

/**
 * The page's own scripts in the run (not what the service worker precaches after load),
 * gzipped as a host would send them; `beforePaint`: only those asked for before the first
 * contentful paint.
 */
function firstVisitScriptBytes(result: Result, beforePaint = false): number {
  const requests = (result.audits['network-requests'].details as { items: { url: string; resourceType?: string; sessionTargetType?: string; networkRequestTime?: number }[] }).items;
  const firstPaint = (result.audits.metrics.details as { items: { observedFirstContentfulPaint?: number }[] }).items[0]?.observedFirstContentfulPaint ?? Infinity;
  const origin = new URL(result.finalDisplayedUrl).origin;
  const scripts = new Set(
    requests
      .filter((r) => r.resourceType === 'Script' && r.sessionTargetType === 'page' && r.url.startsWith(origin))
      .filter((r) => !beforePaint || (r.networkRequestTime ?? Infinity) < firstPaint)
      .map((r) => new URL(r.url).pathname),
  );
  let bytes = 0;
  for (const path of scripts) bytes += gzipSync(readFileSync(join(outDir, path))).length;
  return bytes;
}

try {
  console.log('Building...');
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const origin = server.resolvedUrls!.local[0].replace(/\/$/, '');
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROMIUM_FLAGS.map((flag) => (flag === '--headless' ? '--headless=new' : flag)) });
  try {
    for (const path of PAGES) {
      const runs: Result[] = [];
      for (let tries = 0; runs.length < RUNS; tries++) {
        if (tries === RUNS * 2) throw new Error(`Lighthouse could not record ${path}: ${RUNS} runs wanted, ${runs.length} recorded in ${tries} tries`);
        const answer = await lighthouse(origin + path, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
        if (!answer) throw new Error('Lighthouse returned no result');
        if (answer.lhr.runtimeError) console.log(`  (a run of ${path} not recorded: ${answer.lhr.runtimeError.code}; running it again)`);
        else runs.push(answer.lhr);
      }
      const median = computeMedianRun(runs);
      console.log(`\n${path}  (median of ${RUNS} runs, mobile, simulated throttling; Lighthouse ${median.lighthouseVersion})`);
      for (const id of CATEGORIES) {
        const category = median.categories[id];
        const failing = category.auditRefs
          .map((ref: { id: string }) => median.audits[ref.id])
          .filter((audit: Audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'notApplicable' && id !== 'performance')
          .map((audit: Audit) => audit.id);
        console.log(`  ${category.title.padEnd(16)} ${Math.round((category.score ?? 0) * 100)}${failing.length ? `   (short: ${failing.join(', ')})` : ''}`);
      }
      for (const id of METRICS) console.log(`  ${median.audits[id].title.padEnd(26)} ${median.audits[id].displayValue}`);
      const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
      console.log(`  ${'First-visit JS (gzipped)'.padEnd(26)} ${kib(firstVisitScriptBytes(median, true))} before the first paint, ${kib(firstVisitScriptBytes(median))} in all`);
      console.log(`  performance of each run: ${runs.map((run) => Math.round((run.categories.performance.score ?? 0) * 100)).join(', ')}`);
    }
  } finally {
    chrome.kill();
    await server.close();
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
