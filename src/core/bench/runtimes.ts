// Which runtime a run was measured in, and the JavaScript engine inside it. The lesson's
// findings are one engine's findings until they are measured in another, so every run
// names its runtime: the browser (or Node) with its version and its JavaScript engine.
// A document can hold runs from several runtimes (`npm run bench -- --browser chromium,firefox`);
// splitting it gives one single-runtime document per runtime, which every statistic in
// the app works on, so two runtimes are compared exactly as two machines are.

import { NATIVE_RUNTIME_ID, RESULTS_VERSION, type RuntimeInfo, type Environment, type Results, type RunConfig } from './results.ts';

/** The browsers the command line can drive (src/node/browsers.ts), by runtime id. */
export const BROWSER_IDS = ['chromium', 'firefox', 'webkit'] as const;
export type BrowserId = (typeof BROWSER_IDS)[number];

/** What names a runtime; the rest of RuntimeInfo is what it offered when measured. */
export type RuntimeIdentity = Pick<RuntimeInfo, 'id' | 'name' | 'version' | 'jsEngine'>;

/**
 * The one vocabulary for engines, everywhere the lab names one (results, tables, charts,
 * the class board): the JavaScript engine, since that is what compiles the stages.
 */
export const JS_ENGINES = ['V8', 'SpiderMonkey', 'JavaScriptCore'] as const;
export type JsEngine = (typeof JS_ENGINES)[number] | 'unknown engine';

/** Browser and runtime names, as describeBrowser gives them, to the JavaScript engine inside. */
const BY_NAME: [RegExp, JsEngine][] = [
  [/^(Chromium|Chrome|Google Chrome|HeadlessChrome|Edge|Opera|Node)$/i, 'V8'],
  [/^Firefox$/i, 'SpiderMonkey'],
  [/^(Safari|WebKit|WPE WebKit|Epiphany)$/i, 'JavaScriptCore'],
];

export function jsEngineOf(name: string): JsEngine {
  return BY_NAME.find(([pattern]) => pattern.test(name))?.[1] ?? 'unknown engine';
}

/** The JavaScript engine behind a user agent, for pages that know no more than that. */
export function jsEngineOfAgent(runtime: Environment['runtime'], userAgent: string): JsEngine {
  if (runtime === 'node') return 'V8';
  // Every browser on iOS is WebKit underneath, whatever its name.
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'JavaScriptCore';
  if (/Firefox\//.test(userAgent) && /Gecko\//.test(userAgent)) return 'SpiderMonkey';
  if (/Chrom(e|ium)\/|Edg\/|OPR\//.test(userAgent)) return 'V8';
  if (/AppleWebKit\//.test(userAgent) && /Safari\//.test(userAgent)) return 'JavaScriptCore';
  return 'unknown engine';
}

/** "Chromium 156.0.8078.79" -> Chromium, 156.0.8078.79, V8; "unknown browser" keeps its words. */
export function identityFromRuntime(runtimeVersion: string): RuntimeIdentity {
  const match = /^(.*\S)\s+(\d[\w.+-]*)$/.exec(runtimeVersion.trim());
  const name = match ? match[1] : runtimeVersion.trim() || 'unknown';
  const version = match ? match[2] : 'unknown';
  const id = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'unknown';
  return { id, name, version, jsEngine: jsEngineOf(name) };
}

/** The runtime of a single-runtime run, from its environment and (when a driver knows better) a given identity. */
export function runtimeFromEnv(env: Environment, identity: RuntimeIdentity = identityFromRuntime(env.runtimeVersion)): RuntimeInfo {
  return {
    ...identity,
    userAgent: env.userAgent,
    timerResolutionNs: env.timerResolutionNs,
    crossOriginIsolated: env.crossOriginIsolated,
    wasmSimd: env.wasmSimd,
    webCrypto: env.webCrypto,
  };
}

/** The runtimes of a document, in order; a version 1 document has one, described by its env. */
export function runtimesOf(results: Results): RuntimeInfo[] {
  return results.runtimes && results.runtimes.length > 0 ? results.runtimes : [runtimeFromEnv(results.env)];
}

/** "Firefox 153.7.0 (SpiderMonkey)". */
export function describeRuntime(runtime: Pick<RuntimeInfo, 'name' | 'version' | 'jsEngine'>): string {
  return `${runtime.name} ${runtime.version} (${runtime.jsEngine})`;
}

/**
 * The runs of one runtime as a document of their own, its env describing that runtime.
 * A document of one runtime comes back as it is.
 */
export function runtimeResults(results: Results, runtimeId: string): Results {
  const runtimes = runtimesOf(results);
  if (runtimes.length === 1 && runtimes[0].id === runtimeId) return results;
  const runtime = runtimes.find((r) => r.id === runtimeId);
  if (!runtime) throw new RangeError(`these results hold no runs of the runtime "${runtimeId}"`);
  // Native rows stand beside every runtime: each runtime's part keeps them, and its own runtime comes first.
  const native = runtimeId === NATIVE_RUNTIME_ID ? undefined : runtimes.find((r) => r.id === NATIVE_RUNTIME_ID);
  const env: Environment = {
    ...results.env,
    runtimeVersion: `${runtime.name} ${runtime.version}`,
    userAgent: runtime.userAgent,
    timerResolutionNs: runtime.timerResolutionNs,
    crossOriginIsolated: runtime.crossOriginIsolated,
    wasmSimd: runtime.wasmSimd,
    webCrypto: runtime.webCrypto,
  };
  const runs = results.runs.filter((run) => run.runtime === runtimeId || (native && run.runtime === native.id));
  const measured = new Set(runs.map((run) => run.contestant));
  return {
    ...results,
    env,
    runtimes: native ? [runtime, native] : [runtime],
    contestants: results.contestants.filter((c) => measured.has(c.id)),
    runs,
  };
}

/** The runtimes a document is split into: every JavaScript runtime (native rows ride along), or native alone when it is all there is. */
export function measuringRuntimes(results: Results): RuntimeInfo[] {
  const runtimes = runtimesOf(results);
  const js = runtimes.filter((r) => r.id !== NATIVE_RUNTIME_ID);
  return js.length > 0 ? js : runtimes;
}

/** One document per runtime, in the document's order; native rows are in each (see runtimeResults). */
export function splitByRuntime(results: Results): Results[] {
  return measuringRuntimes(results).map((runtime) => runtimeResults(results, runtime.id));
}

/**
 * Several single-runtime runs of one plan on one machine as one document: the first run's
 * env (and date), every runtime once, each run tagged with its runtime. The sample target
 * may differ between runtimes (it is lengthened on a coarse timer), so the longest is kept.
 */
export function mergeRuntimeResults(parts: readonly Results[]): Results {
  if (parts.length === 0) throw new RangeError('there are no results to merge');
  if (parts.length === 1) return parts[0];
  const runtimes: RuntimeInfo[] = [];
  const runs: Results['runs'] = [];
  const contestants = new Map<string, Results['contestants'][number]>();
  for (const part of parts) {
    const [runtime, ...more] = runtimesOf(part);
    if (more.length > 0) throw new RangeError('only single-runtime results can be merged');
    if (runtimes.some((r) => r.id === runtime.id)) throw new RangeError(`the runtime "${runtime.id}" is in the results twice`);
    runtimes.push(runtime);
    for (const c of part.contestants) if (!contestants.has(c.id)) contestants.set(c.id, c);
    for (const run of part.runs) runs.push({ ...run, runtime: runtime.id });
  }
  const [first] = parts;
  const config: RunConfig = {
    ...first.config,
    sizes: [...new Set(parts.flatMap((p) => p.config.sizes))].sort((a, b) => a - b),
    sampleTargetMs: Math.max(...parts.map((p) => p.config.sampleTargetMs)),
    timeBoxMs: Math.max(...parts.map((p) => p.config.timeBoxMs)),
  };
  return { ...first, version: RESULTS_VERSION, runtimes, config, contestants: [...contestants.values()], runs };
}
