// Which JavaScript engine a run was measured in. The lesson's findings are one engine's
// findings until they are measured in another, so every run names its engine: the
// browser (or Node) with its version and the JavaScript engine inside it. A document
// can hold runs from several engines (`npm run bench -- --browser chromium,firefox`);
// splitting it gives one single-engine document per engine, which every statistic in
// the app works on, so two engines are compared exactly as two machines are.

import { NATIVE_ENGINE_ID, RESULTS_VERSION, type EngineInfo, type Environment, type Results, type RunConfig } from './results.ts';

/** The browsers the command line can drive (src/node/browsers.ts), by engine id. */
export const BROWSER_IDS = ['chromium', 'firefox', 'webkit'] as const;
export type BrowserId = (typeof BROWSER_IDS)[number];

/** What names an engine; the rest of EngineInfo is what it offered when measured. */
export type EngineIdentity = Pick<EngineInfo, 'id' | 'name' | 'version' | 'jsEngine'>;

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
export function identityFromRuntime(runtimeVersion: string): EngineIdentity {
  const match = /^(.*\S)\s+(\d[\w.+-]*)$/.exec(runtimeVersion.trim());
  const name = match ? match[1] : runtimeVersion.trim() || 'unknown';
  const version = match ? match[2] : 'unknown';
  const id = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'unknown';
  return { id, name, version, jsEngine: jsEngineOf(name) };
}

/** The engine of a single-engine run, from its environment and (when a driver knows better) a given identity. */
export function engineFromEnv(env: Environment, identity: EngineIdentity = identityFromRuntime(env.runtimeVersion)): EngineInfo {
  return {
    ...identity,
    userAgent: env.userAgent,
    timerResolutionNs: env.timerResolutionNs,
    crossOriginIsolated: env.crossOriginIsolated,
    wasmSimd: env.wasmSimd,
    webCrypto: env.webCrypto,
  };
}

/** The engines of a document, in order; a version 1 document has one, described by its env. */
export function enginesOf(results: Results): EngineInfo[] {
  return results.engines && results.engines.length > 0 ? results.engines : [engineFromEnv(results.env)];
}

/** "Firefox 153.7.0 (SpiderMonkey)". */
export function describeEngine(engine: Pick<EngineInfo, 'name' | 'version' | 'jsEngine'>): string {
  return `${engine.name} ${engine.version} (${engine.jsEngine})`;
}

/**
 * The runs of one engine as a document of their own, its env describing that engine.
 * A document of one engine comes back as it is.
 */
export function engineResults(results: Results, engineId: string): Results {
  const engines = enginesOf(results);
  if (engines.length === 1 && engines[0].id === engineId) return results;
  const engine = engines.find((e) => e.id === engineId);
  if (!engine) throw new RangeError(`these results hold no runs of the engine "${engineId}"`);
  // Native rows stand beside every engine: each engine's part keeps them, and its own engine comes first.
  const native = engineId === NATIVE_ENGINE_ID ? undefined : engines.find((e) => e.id === NATIVE_ENGINE_ID);
  const env: Environment = {
    ...results.env,
    runtimeVersion: `${engine.name} ${engine.version}`,
    userAgent: engine.userAgent,
    timerResolutionNs: engine.timerResolutionNs,
    crossOriginIsolated: engine.crossOriginIsolated,
    wasmSimd: engine.wasmSimd,
    webCrypto: engine.webCrypto,
  };
  const runs = results.runs.filter((run) => run.engine === engineId || (native && run.engine === native.id));
  const measured = new Set(runs.map((run) => run.contestant));
  return {
    ...results,
    env,
    engines: native ? [engine, native] : [engine],
    contestants: results.contestants.filter((c) => measured.has(c.id)),
    runs,
  };
}

/** The engines a document is split into: every JavaScript engine (native rows ride along), or native alone when it is all there is. */
export function measuringEngines(results: Results): EngineInfo[] {
  const engines = enginesOf(results);
  const js = engines.filter((e) => e.id !== NATIVE_ENGINE_ID);
  return js.length > 0 ? js : engines;
}

/** One document per engine, in the document's order; native rows are in each (see engineResults). */
export function splitByEngine(results: Results): Results[] {
  return measuringEngines(results).map((engine) => engineResults(results, engine.id));
}

/**
 * Several single-engine runs of one plan on one machine as one document: the first run's
 * env (and date), every engine once, each run tagged with its engine. The sample target
 * may differ between engines (it is lengthened on a coarse timer), so the longest is kept.
 */
export function mergeEngineResults(parts: readonly Results[]): Results {
  if (parts.length === 0) throw new RangeError('there are no results to merge');
  if (parts.length === 1) return parts[0];
  const engines: EngineInfo[] = [];
  const runs: Results['runs'] = [];
  const contestants = new Map<string, Results['contestants'][number]>();
  for (const part of parts) {
    const [engine, ...more] = enginesOf(part);
    if (more.length > 0) throw new RangeError('only single-engine results can be merged');
    if (engines.some((e) => e.id === engine.id)) throw new RangeError(`the engine "${engine.id}" is in the results twice`);
    engines.push(engine);
    for (const c of part.contestants) if (!contestants.has(c.id)) contestants.set(c.id, c);
    for (const run of part.runs) runs.push({ ...run, engine: engine.id });
  }
  const [first] = parts;
  const config: RunConfig = {
    ...first.config,
    sizes: [...new Set(parts.flatMap((p) => p.config.sizes))].sort((a, b) => a - b),
    sampleTargetMs: Math.max(...parts.map((p) => p.config.sampleTargetMs)),
    timeBoxMs: Math.max(...parts.map((p) => p.config.timeBoxMs)),
  };
  return { ...first, version: RESULTS_VERSION, engines, config, contestants: [...contestants.values()], runs };
}
