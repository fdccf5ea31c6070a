// The bench page in real Chromium, as `npm run bench -- --browser` drives it: a small
// plan runs to completion in Web Workers on a cross-origin-isolated page, a missing
// capability is honoured, faults are stopped while the page stays responsive, and the
// command line measures in Chromium and Firefox, prints a table for each and writes one
// valid results file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { cliEnv, launchBrowser, openApp } from './harness.ts';
import type { BenchPlan } from '../../src/core/bench/plan.ts';
import type { Results } from '../../src/core/bench/results.ts';
import { validateResults } from '../../src/core/results/io/validate.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Short samples and warm-up: these tests check behaviour, not speed. */
const QUICK = { sampleTargetMs: 5 };

async function runPlan(page: Page, plan: BenchPlan, loadMs?: number): Promise<Results> {
  await page.waitForFunction(() => document.body.dataset.status === 'ready');
  return page.evaluate(
    ({ plan, loadMs }) => window.blake3LabBench.run(plan, { warmupMs: 20, ...(loadMs ? { timeouts: { loadMs } } : {}) }),
    { plan, loadMs },
  );
}

function status(results: Results, id: string): string | undefined {
  return results.runs.find((r) => r.contestant === id)?.status;
}

describe('bench page', () => {
  it('runs a small plan to completion in Web Workers on an isolated page', async () => {
    const { page, errors, foreignRequests } = await openApp(browser, '/bench.html');
    const results = await runPlan(page, { contestants: ['08-little-endian', '09-simd-wasm', 'blake3-wasm', 'sha256'], sizes: [1024, 4096], rounds: 2, ...QUICK });
    expect(validateResults(results)).toMatchObject({ ok: true });
    expect(results.runs.map((r) => r.status)).toEqual(Array(8).fill('ok'));
    expect(results.runs.every((r) => r.nsPerOp.length === 2)).toBe(true);
    expect(results.env).toMatchObject({ runtime: 'browser', crossOriginIsolated: true, wasmSimd: true, webCrypto: true });
    // An isolated page gets the fine timer (5 us in Chromium, against 100 us otherwise).
    expect(results.env.timerResolutionNs).toBeLessThan(100_000);
    expect(results.contestants.find((c) => c.id === 'sha256')!.version).toBe('WebCrypto');
    expect(results.contestants.find((c) => c.id === '08-little-endian')!.version).toMatch(/^blake3:[0-9a-f]{12}$/);
    await expect.poll(() => page.locator('tbody tr[data-status="ok"]').count()).toBe(8);
    expect(await page.locator('body').getAttribute('data-status')).toBe('done');
    expect(errors).toEqual([]);
    expect(foreignRequests).toEqual([]);
  });

  it('marks stage 9 unavailable when the page says there is no WebAssembly SIMD, and runs the rest', async () => {
    const { page, errors } = await openApp(browser, '/bench.html', {
      beforeLoad: 'globalThis.__BLAKE3_LAB_CAPABILITIES__ = { wasmSimd: false };',
    });
    const results = await runPlan(page, { contestants: ['09-simd-wasm', '08-little-endian'], sizes: [1024], rounds: 2, ...QUICK });
    expect(status(results, '09-simd-wasm')).toBe('unavailable');
    expect(results.runs.find((r) => r.contestant === '09-simd-wasm')!.reason).toMatch(/WebAssembly SIMD/);
    expect(status(results, '08-little-endian')).toBe('ok');
    expect(results.env.wasmSimd).toBe(false);
    expect(errors).toEqual([]);
  });

  it('stops contestants that hang, throw or exhaust memory, keeps the page responsive, finishes the rest', async () => {
    const { page, errors } = await openApp(browser, '/bench.html');
    await page.waitForFunction(() => document.body.dataset.status === 'ready');
    const plan = { contestants: ['fault-hangs', 'fault-oom', 'fault-throws', 'noble-hashes'], sizes: [1024], rounds: 2, ...QUICK };
    const pending = runPlan(page, plan, 4000);
    // The hang is in a worker: the page still answers while it spins.
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/fault-hangs/);
    expect(await page.evaluate(() => document.body.dataset.status)).toBe('running');
    const results = await pending;
    expect(results.runs.find((r) => r.contestant === 'fault-hangs')).toMatchObject({ status: 'failed', nsPerOp: [] });
    expect(results.runs.find((r) => r.contestant === 'fault-hangs')!.reason).toMatch(/it hangs/);
    expect(results.runs.find((r) => r.contestant === 'fault-oom')!.reason).toMatch(/RangeError/);
    expect(results.runs.find((r) => r.contestant === 'fault-throws')!.reason).toMatch(/deliberate failure/);
    expect(status(results, 'noble-hashes')).toBe('ok');
    expect(errors).toEqual([]);
  });
});

describe('npm run bench -- --browser chromium,firefox', () => {
  it('measures in both browsers, prints a table for each and writes one document a classmate could import', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blake3-lab-bench-cli-'));
    try {
      const json = join(dir, 'results.json');
      const benchfmt = join(dir, 'results.txt');
      const args = ['tsx', 'scripts/bench.ts', '--browser', 'chromium,firefox', '--stages', '8,9', '--baselines', 'blake3-wasm', '--sizes', '1KiB', '--rounds', '3', '--sample-ms', '5', '--json', json, '--benchfmt', benchfmt];
      const { stdout, stderr } = await promisify(execFile)('npx', args, { timeout: 170_000, env: cliEnv() });
      expect(stderr).toMatch(/Chromium [\d.]+ \(V8\): timer [\d.]+ ns, cross-origin isolated: yes/);
      expect(stderr).toMatch(/Firefox [\d.]+ \(SpiderMonkey\): timer [\d.]+ ns, cross-origin isolated: yes/);
      // One table per browser, Chromium first, each with every stage against the one before.
      const [, chromium, firefox] = stdout.split(/^## /m);
      expect(chromium).toMatch(/^Chromium [\d.]+ \(V8\)/);
      expect(firefox).toMatch(/^Firefox [\d.]+ \(SpiderMonkey\)/);
      for (const table of [chromium, firefox]) expect(table).toMatch(/09-simd-wasm .*\(p=[01]\.\d+ n=3 holm=/);
      const check = validateResults(JSON.parse(readFileSync(json, 'utf8')));
      if (!check.ok) throw new Error(check.error);
      const results = check.results;
      expect(results.runtimes!.map((r) => [r.id, r.jsEngine, r.wasmSimd])).toEqual([['chromium', 'V8', true], ['firefox', 'SpiderMonkey', true]]);
      // Every run in each browser, none skipped: SIMD WebAssembly runs in both.
      for (const runtime of ['chromium', 'firefox']) {
        expect(results.runs.filter((r) => r.runtime === runtime).map((r) => [r.contestant, r.status])).toEqual([
          ['08-little-endian', 'ok'],
          ['09-simd-wasm', 'ok'],
          ['blake3-wasm', 'ok'],
        ]);
      }
      expect(readFileSync(benchfmt, 'utf8')).toMatch(/^BenchmarkBLAKE3\/runtime=firefox\/stage=08-little-endian\/size=1KiB-\d+\t\d+\t[\d.e+]+ ns\/op/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
