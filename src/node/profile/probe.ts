// The child Node process that profiles one stage at one input size (node-profile.ts starts it):
//
//   node --import tsx src/node/profile/probe.ts <stage index> <bytes> <seconds> <interval µs> <min samples> <result.json>
//
// It hashes the input for a moment first, so the profile shows the optimized code rather
// than its warm-up, then samples the main thread with V8's profiler through node:inspector.
// A loaded machine starves the sampling thread and takes fewer samples than asked: a run
// that took fewer than <min samples> is taken again, longer. tsx runs the stages as
// JavaScript it compiled, so the child looks every frame up in that code's source map
// (Node's own table, node:module's findSourceMap) and sends the original lines back.

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import { frameKey, type V8CallFrame, type V8Profile } from '../../core/profile/from-v8.ts';
import { moduleOfUrl, nameWasmModules, type WasmOrigin } from '../../core/profile/wasm-names.ts';
import { Hammer, loadForProfile, profileInput } from '../../core/profile/workload.ts';

const WARM_MS = 500;
const ATTEMPTS = 3;

/** What the probe writes for node-profile.ts. */
export interface ProbeOutput {
  profile: V8Profile;
  /** Original positions by frameKey(), for frames in transformed code and WebAssembly. */
  positions: [key: string, position: { url: string; lineNumber: number }][];
  note?: string;
  hashes: number;
  v8: string;
  node: string;
}

function original(frame: Pick<V8CallFrame, 'url' | 'lineNumber' | 'columnNumber'>): { url: string; lineNumber: number } | undefined {
  if (!frame.url.startsWith('file://') || frame.lineNumber < 0) return undefined;
  const entry = findSourceMap(frame.url)?.findEntry(frame.lineNumber, Math.max(0, frame.columnNumber));
  if (!entry || !('originalSource' in entry)) return undefined;
  return { url: entry.originalSource, lineNumber: entry.originalLine };
}

function positions(profile: V8Profile, modules: Map<string, WasmOrigin>): ProbeOutput['positions'] {
  const found = new Map<string, { url: string; lineNumber: number }>();
  for (const { callFrame } of profile.nodes) {
    const module = moduleOfUrl(callFrame.url);
    const origin = module === undefined ? callFrame : modules.get(module);
    const position = origin && (original(origin) ?? (module !== undefined ? { url: origin.url, lineNumber: origin.lineNumber } : undefined));
    if (position) found.set(frameKey(callFrame), position);
  }
  return [...found];
}

async function main(args: string[]): Promise<void> {
  const [index, bytes, seconds, intervalUs, minSamples] = args.slice(0, 5).map(Number);
  const resultPath = args[5];
  if (!resultPath || [index, bytes, seconds, intervalUs, minSamples].some((n) => !Number.isFinite(n))) {
    throw new Error('usage: probe.ts <stage index> <bytes> <seconds> <interval µs> <min samples> <result.json>');
  }
  const modules = nameWasmModules(WebAssembly);
  const stage = await loadForProfile(index);
  const hammer = new Hammer(stage.hasher, profileInput(bytes));
  hammer.warm(WARM_MS);

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  let profile: V8Profile | undefined;
  let ms = seconds * 1000;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    await session.post('Profiler.start');
    hammer.run(ms);
    profile = (await session.post('Profiler.stop')).profile as V8Profile;
    const taken = profile.samples?.length ?? 0;
    if (taken >= minSamples) break;
    ms *= Math.min(4, (1.2 * minSamples) / Math.max(1, taken));
  }
  session.disconnect();
  const note = stage.note(bytes);
  stage.stop();
  const output: ProbeOutput = {
    profile: profile!,
    positions: positions(profile!, modules),
    ...(note !== undefined && { note }),
    hashes: hammer.hashes,
    v8: process.versions.v8,
    node: process.version,
  };
  writeFileSync(resultPath, JSON.stringify(output));
  if (hammer.sink === -1) console.log(hammer.sink);
}

if (process.argv[1]?.endsWith('probe.ts')) await main(process.argv.slice(2));
