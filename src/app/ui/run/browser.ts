// The benchmark API the app (and bench.html) calls. The page only coordinates: each
// contestant hashes in its own module Web Worker running src/core/bench/bench-core.ts over
// comlink, started when first needed and terminated on failure, time-out or cancel, so
// the page stays responsive whatever a contestant does.

import type { BenchCore } from '../../../core/bench/core-protocol.ts';
import { detectCapabilities } from '../../../core/bench/capabilities.ts';
import type { RuntimeIdentity } from '../../../core/bench/runtimes.ts';
import { runBenchmark, type HostInfo, type Progress, type RunOptions } from '../../../core/bench/runner.ts';
import type { StartedWorker } from '../../../core/worker.ts';
import type { BenchPlan } from '../../../core/bench/plan.ts';
import type { Results } from '../../../core/bench/results.ts';
import { startWorker } from './start-worker.ts';

export { DEFAULT_SIZES, DEFAULT_ROUNDS, parseSize, type BenchPlan } from '../../../core/bench/plan.ts';
export { DEFAULT_CONTESTANT_IDS, listContestants } from '../../../core/bench/contestants.ts';
export type { Progress } from '../../../core/bench/runner.ts';

export interface BenchCallbacks {
  onProgress?(progress: Progress): void;
  onResult?(partial: Results): void;
  /** See RunOptions.enough: true after a round ends the run there. */
  enough?(partial: Results, round: number): boolean;
}

export interface RunningBenchmark {
  /** Resolves with the full document, or the partial one after cancel(); never rejects for a failing contestant. */
  done: Promise<Results>;
  cancel(): void;
}

function startBenchWorker(): StartedWorker<BenchCore> {
  return startWorker<BenchCore>(new Worker(new URL('../../../../workers/bench.worker.ts', import.meta.url), { type: 'module' }), 'the bench worker');
}

interface UserAgentData {
  brands?: { brand: string; version: string }[];
  platform?: string;
  getHighEntropyValues?(hints: string[]): Promise<{ fullVersionList?: { brand: string; version: string }[]; architecture?: string; bitness?: string }>;
}

/** "Chromium 156.0.8078.79", "Firefox 140.0", "Safari 18.2", from the user agent. */
export function describeBrowser(userAgent: string, fullVersions: { brand: string; version: string }[] = []): string {
  // Brand lists hold a decoy ("Not_A Brand"), the engine ("Chromium") and maybe a product name.
  const real = fullVersions.filter((b) => !/not.?a.?brand/i.test(b.brand));
  const named = real.find((b) => !/^(Chromium|HeadlessChrome)$/.test(b.brand)) ?? real.find((b) => b.brand === 'Chromium');
  if (named) return `${named.brand} ${named.version}`;
  const patterns: [RegExp, string][] = [
    [/Edg\/([\d.]+)/, 'Edge'],
    [/OPR\/([\d.]+)/, 'Opera'],
    [/Firefox\/([\d.]+)/, 'Firefox'],
    [/(?:Headless)?Chrome\/([\d.]+)/, 'Chromium'],
    [/Version\/([\d.]+).*Safari\//, 'Safari'],
  ];
  for (const [pattern, name] of patterns) {
    const match = pattern.exec(userAgent);
    if (match) return `${name} ${match[1]}`;
  }
  return 'unknown browser';
}

/** "Linux x86_64", "Windows", "macOS", "Android", "iOS", "ChromeOS", from the user agent. */
export function describeOs(userAgent: string): string {
  if (/Android/.test(userAgent)) return 'Android';
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'iOS';
  if (/CrOS/.test(userAgent)) return 'ChromeOS';
  if (/Windows/.test(userAgent)) return 'Windows';
  if (/Mac OS X|Macintosh/.test(userAgent)) return 'macOS';
  const linux = /Linux ?([\w-]+)?/.exec(userAgent);
  if (linux) return linux[1] ? `Linux ${linux[1]}` : 'Linux';
  return 'unknown OS';
}

export async function browserHost(label?: string): Promise<HostInfo> {
  const userAgent = navigator.userAgent;
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  let fullVersions: { brand: string; version: string }[] = [];
  try {
    fullVersions = (await data?.getHighEntropyValues?.(['fullVersionList']))?.fullVersionList ?? [];
  } catch {
    // Only a nicety: the user agent string has the major version.
  }
  return {
    runtime: 'browser',
    runtimeVersion: describeBrowser(userAgent, fullVersions),
    userAgent: userAgent.slice(0, 512),
    os: describeOs(userAgent),
    cores: Math.max(1, navigator.hardwareConcurrency || 1),
    ...(label ? { label } : {}),
  };
}

/**
 * Starts a run. Progress and partial results arrive through the callbacks; `done`
 * resolves with the results (partial after cancel). A bad plan (unknown id, no sizes)
 * rejects `done` with a message saying what is wrong.
 */
export function startBenchmark(
  plan: BenchPlan,
  callbacks: BenchCallbacks = {},
  tuning: Pick<RunOptions, 'timeouts' | 'warmupMs'> & { label?: string; runtime?: RuntimeIdentity } = {},
): RunningBenchmark {
  const controller = new AbortController();
  const { runtime } = tuning;
  const done = browserHost(tuning.label).then((host) =>
    runBenchmark({
      plan,
      // A driver knows the exact version; the user agent of some browsers has only the major one.
      host: runtime ? { ...host, runtimeVersion: `${runtime.name} ${runtime.version}` } : host,
      runtime,
      capabilities: detectCapabilities(),
      startWorker: startBenchWorker,
      signal: controller.signal,
      onProgress: callbacks.onProgress && ((p) => callbacks.onProgress!(p)),
      onResult: callbacks.onResult && ((r) => callbacks.onResult!(r)),
      enough: callbacks.enough && ((r, round) => callbacks.enough!(r, round)),
      timeouts: tuning.timeouts,
      warmupMs: tuning.warmupMs,
    }),
  );
  return { done, cancel: () => controller.abort() };
}
