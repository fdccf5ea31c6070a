// How much can a second thread gain on this machine, and how much of it does stage 11 get?
//
//   npm run bench:cores                          16 MiB, 15 rounds, Node worker threads
//   npm run bench:cores -- --size 4MiB --rounds 25
//   npm run bench:cores -- --browser             the same in headless Chromium's Web Workers
//   npm run bench:cores -- --input shared        the input in a SharedArrayBuffer: stage 11 copies nothing
//
// What is measured, and how, is in src/core/bench/cores.ts.

import { Worker } from 'node:worker_threads';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../src/node/chromium-path.ts';
import { serveBenchPage } from '../src/node/bench-server.ts';
import { checkCoresOptions, describeCores, measureCores, type CoresOptions, type CoresResult } from '../src/core/bench/cores.ts';
import { parseSize } from '../src/core/bench/plan.ts';

interface Options extends CoresOptions {
  browser: boolean;
}

function parseArgs(args: string[]): Options {
  const options: Options = { size: 16 * 1024 * 1024, rounds: 15, browser: false };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--browser') {
      options.browser = true;
      continue;
    }
    const value = args[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--size') options.size = parseSize(value);
    else if (flag === '--rounds') options.rounds = Number(value);
    else if (flag === '--input') {
      if (value !== 'shared' && value !== 'ordinary') throw new Error(`--input is "ordinary" or "shared", got "${value}"`);
      options.sharedInput = value === 'shared';
    } else throw new Error(`unknown flag ${flag}; the flags are --size, --rounds, --input and --browser`);
  }
  checkCoresOptions(options);
  return options;
}

function inNode(options: CoresOptions): Promise<CoresResult> {
  const startOtherCore = async (size: number, control: Int32Array) => {
    const worker = new Worker(new URL('./bench-cores.worker.mjs', import.meta.url), { workerData: { size, control } });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    return { stop: () => worker.terminate() };
  };
  return measureCores(options, startOtherCore, `Node ${process.versions.node}`);
}

// cores.html, built and served like the bench page, in headless Chromium.
async function inChromium(options: CoresOptions): Promise<CoresResult> {
  const server = await serveBenchPage();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    const query = new URLSearchParams({ size: String(options.size), rounds: String(options.rounds), ...(options.sharedInput && { input: 'shared' }) });
    await page.goto(`${server.coresUrl}?${query}`);
    await page.waitForFunction(() => document.body.dataset.status === 'done' || document.body.dataset.status === 'failed', null, { timeout: 600_000, polling: 500 });
    const outcome = await page.evaluate(() => window.blake3LabCores);
    if (!outcome || 'error' in outcome) throw new Error(outcome?.error ?? 'the page gave no result');
    return { ...outcome, runtime: `Chromium ${browser.version()} (V8), Web Workers` };
  } finally {
    await browser.close().catch(() => {});
    await server.close();
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const result = await (options.browser ? inChromium(options) : inNode(options));
  const [what, ...lines] = describeCores(result);
  console.error(`bench:cores: ${what}`);
  for (const line of lines) console.log(line);
}

main().catch((error: unknown) => {
  console.error(`bench:cores: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
