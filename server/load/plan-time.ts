// `npx tsx server/load/plan-time.ts --dist DIR [--rate 4] [--rounds N] [--runs 1]`: how long
// one student's page takes to run a class plan (the default, or with N rounds) on a slow
// laptop: Chromium with its processor slowed `rate` times through the DevTools protocol
// (Emulation.setCPUThrottlingRate), from pressing Run to the board holding the finished
// document. Prints one line per run and the slowest; the default plan's comment cites it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { address } from './addresses.ts';
import { spawnClassServer } from './server-process.ts';

/** A reader's Chromium, as src/node/chromium-path.ts finds it (the server may not load src/node). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];

const { values } = parseArgs({ options: { dist: { type: 'string' }, rate: { type: 'string', default: '4' }, rounds: { type: 'string' }, runs: { type: 'string', default: '1' } } });
if (!values.dist) throw new Error('--dist DIR: the built app (npm run build, then dist)');
const rate = Number(values.rate);
const plan = { ...DEFAULT_CLASS_PLAN, rounds: values.rounds ? Number(values.rounds) : DEFAULT_CLASS_PLAN.rounds };

const server = await spawnClassServer({ data: join(mkdtempSync(join(tmpdir(), 'plan-time-')), 'data'), dist: values.dist });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
const times: number[] = [];
try {
  for (let run = 0; run < Number(values.runs); run++) {
    const start = address(server.url, 'start');
    const started = await fetch(start.url, {
      method: start.method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.hostKey}` },
      body: JSON.stringify({ plan }),
    });
    if (started.status !== 201) throw new Error(`starting a class: ${started.status} ${await started.text()}`);
    const { code } = (await started.json()) as { code: string };
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.goto(`${server.url}/#/class/${code}`);
    await page.getByTestId('nickname').fill('Timer');
    await page.getByTestId('join').click();
    await page.getByTestId('run-class').waitFor();
    const t0 = Date.now();
    await page.getByTestId('run-class').click();
    await page.getByTestId('run-delivered').waitFor({ timeout: 20 * 60_000 });
    const seconds = (Date.now() - t0) / 1000;
    times.push(seconds);
    console.log(`run ${run + 1}: ${seconds.toFixed(1)} s (${plan.contestants.length} contestants at ${plan.sizes.join(' and ')} bytes, ${plan.rounds} rounds, CPU slowed ${rate}x)`);
    await context.close();
  }
  console.log(`slowest: ${Math.max(...times).toFixed(1)} s`);
} finally {
  await browser.close();
  server.process.kill('SIGTERM');
  await server.exited;
}
