// Runtimes in results: naming them (and the JavaScript engine inside) from what a browser
// reports, a run in several runtimes kept as one document, and split back into one
// document per runtime for the statistics; older documents that called them engines.
import { describe, expect, it } from 'vitest';
import { runtimeFromEnv, runtimeResults, runtimesOf, identityFromRuntime, mergeRuntimeResults, splitByRuntime } from '../src/core/bench/runtimes.ts';
import { RESULTS_VERSION } from '../src/core/bench/results.ts';
import { validateResults } from '../src/core/results/io/validate.ts';
import { validResults } from './fixtures/bad-inputs.ts';
import { chromiumEnvironment } from './fixtures/environment.ts';

const firefoxEnv = chromiumEnvironment({
  runtimeVersion: 'Firefox 153.7.0',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0',
  timerResolutionNs: 20000,
});

function firefoxResults() {
  const doc = validResults();
  const runtime = runtimeFromEnv(firefoxEnv);
  return { ...doc, env: firefoxEnv, runtimes: [runtime], runs: doc.runs.map((run) => ({ ...run, runtime: runtime.id, nsPerOp: run.nsPerOp.map((ns) => ns * 2) })) };
}

describe('runtime names', () => {
  it('come from the browser name and version, with the JavaScript engine inside', () => {
    expect(identityFromRuntime('Chromium 156.0.8078.79')).toEqual({ id: 'chromium', name: 'Chromium', version: '156.0.8078.79', jsEngine: 'V8' });
    expect(identityFromRuntime('Firefox 153.0')).toEqual({ id: 'firefox', name: 'Firefox', version: '153.0', jsEngine: 'SpiderMonkey' });
    expect(identityFromRuntime('Safari 18.2')).toEqual({ id: 'safari', name: 'Safari', version: '18.2', jsEngine: 'JavaScriptCore' });
    expect(identityFromRuntime('Node 20.20.2')).toMatchObject({ id: 'node', jsEngine: 'V8' });
    expect(identityFromRuntime('unknown browser')).toEqual({ id: 'unknown-browser', name: 'unknown browser', version: 'unknown', jsEngine: 'unknown engine' });
  });
});

describe('a document of several runtimes', () => {
  it('is merged from one run per runtime, each run naming its runtime, and passes validation', () => {
    const both = mergeRuntimeResults([validResults(), firefoxResults()]);
    expect(both.version).toBe(RESULTS_VERSION);
    expect(runtimesOf(both).map((r) => [r.id, r.jsEngine, r.timerResolutionNs])).toEqual([['chromium', 'V8', 5000], ['firefox', 'SpiderMonkey', 20000]]);
    expect(both.runs.map((r) => r.runtime)).toEqual([...Array(6).fill('chromium'), ...Array(6).fill('firefox')]);
    expect(validateResults(both)).toEqual({ ok: true, results: both });
  });

  it('splits back into the documents it was made of, each env describing its runtime', () => {
    const [chromium, firefox] = splitByRuntime(mergeRuntimeResults([validResults(), firefoxResults()]));
    expect(chromium.runs).toEqual(validResults().runs);
    expect(firefox.runs).toEqual(firefoxResults().runs);
    expect(firefox.env).toMatchObject({ runtimeVersion: 'Firefox 153.7.0', timerResolutionNs: 20000, label: "Ana's laptop" });
    expect(() => runtimeResults(firefox, 'webkit')).toThrow(/no runs of the runtime "webkit"/);
  });

  it('refuses to merge two runs of the same runtime', () => {
    expect(() => mergeRuntimeResults([validResults(), validResults()])).toThrow(/"chromium" is in the results twice/);
  });
});

describe('a version 1 document', () => {
  it('imports as version 3 with the one runtime its env describes', () => {
    const { runtimes, ...old } = validResults();
    const v1 = { ...old, version: 1, runs: old.runs.map(({ runtime, ...run }) => run) };
    const check = validateResults(v1);
    expect(check).toEqual({ ok: true, results: validResults() });
    expect(runtimes).toEqual([expect.objectContaining({ id: 'chromium', name: 'Chromium', version: '156.0.8078.73', jsEngine: 'V8' })]);
  });
});

/** A version 3 document as version 2 wrote it: `engines`, and each run's `engine`. */
function asVersion2(doc: ReturnType<typeof validResults>) {
  const { runtimes, runs, ...rest } = doc;
  return { ...rest, version: 2, engines: runtimes, runs: runs.map(({ contestant, runtime, ...run }) => ({ contestant, engine: runtime, ...run })) };
}

describe('a version 2 document', () => {
  it('imports as version 3: its engines are the runtimes, each run names its runtime', () => {
    const both = mergeRuntimeResults([validResults(), firefoxResults()]);
    const old = asVersion2(both);
    expect(Object.keys(old)).toContain('engines');
    expect(validateResults(old)).toEqual({ ok: true, results: both });
  });

  it('is refused by the names it has: a version 2 field is checked as the file spells it', () => {
    const old = asVersion2(validResults());
    expect(validateResults({ ...old, runs: [{ ...old.runs[0], engine: 'webkit' }] })).toEqual({ ok: false, error: 'runs[0].engine "webkit" is not one of the engines listed in the results' });
    expect(validateResults({ ...old, engines: [] })).toEqual({ ok: false, error: 'engines is empty: results need at least one engine' });
    // The new names are not version 2's: a document that mixes them is refused whole.
    expect(validateResults({ ...old, runtimes: old.engines })).toEqual({ ok: false, error: 'runtimes is not a field of version 2 results; files with extra fields are refused, not partly read' });
    expect(validateResults({ ...validResults(), engines: old.engines })).toEqual({ ok: false, error: 'engines is not a field of version 3 results; files with extra fields are refused, not partly read' });
  });
});

describe('the run the engines page quotes', () => {
  it('is a valid document with every stage measured in Chromium and Firefox on one machine', async () => {
    const { readFileSync } = await import('node:fs');
    const { STAGES } = await import('../steps/index.ts');
    const stored = JSON.parse(readFileSync(new URL('../data/engines/chromium-firefox-2026-11-27.json', import.meta.url), 'utf8'));
    // Committed as version 2 wrote it, and read as version 3.
    expect([stored.version, Object.hasOwn(stored, 'engines'), Object.hasOwn(stored.runs[0], 'engine')]).toEqual([2, true, true]);
    const check = validateResults(stored);
    if (!check.ok) throw new Error(check.error);
    expect(check.results.version).toBe(RESULTS_VERSION);
    const runtimes = runtimesOf(check.results);
    expect(runtimes.map((r) => [r.id, r.jsEngine])).toEqual([['chromium', 'V8'], ['firefox', 'SpiderMonkey']]);
    for (const runtime of runtimes) {
      const measured = new Set(check.results.runs.filter((r) => r.runtime === runtime.id && r.nsPerOp.length > 0).map((r) => r.contestant));
      // Stages added after this run are not in it; every stage up to the last one it holds is.
      const inRun = STAGES.filter((stage) => check.results.contestants.some((c) => c.id === stage.id));
      expect(inRun.length).toBeGreaterThanOrEqual(10);
      for (const stage of inRun) expect(measured, `${stage.id} in ${runtime.name}`).toContain(stage.id);
    }
  });
});

describe('what the engines page reads from the run', () => {
  it('judges steps where every stage ran in both engines, and names a step clear in both', async () => {
    const { readFileSync } = await import('node:fs');
    const { runtimeModels } = await import('../src/core/results/analysis/runtime-ladder.ts');
    const { fullLadderSize, stepFindings } = await import('../src/app/story/engine-findings.ts');
    const check = validateResults(JSON.parse(readFileSync(new URL('../data/engines/chromium-firefox-2026-11-27.json', import.meta.url), 'utf8')));
    if (!check.ok) throw new Error(check.error);
    const models = runtimeModels(check.results);
    // Stage 0 is time-boxed at 256 KiB (a few samples) and 1 MiB (none) in both engines.
    expect(fullLadderSize(models)).toBe(64 * 1024);
    const findings = stepFindings(models, 64 * 1024);
    expect(findings[0].contestant).toBe('01-read-words-full');
    // The quadratic reader's removal pays in both engines, by a large factor in each.
    expect(findings[0].verdict).toBe('every');
    for (const e of findings[0].perRuntime) expect(e.speedup).toBeGreaterThan(2);
    for (const f of findings) for (const e of f.perRuntime) expect(e.pays).toBe(e.significant && e.speedup! >= 1.2);
  });
});
