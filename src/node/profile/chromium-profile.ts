// `npm run profile -- --browser`: a stage profiled on a page of headless Debian Chromium
// by V8's sampling profiler, over the DevTools protocol's Profiler domain (playwright-core).
//
// The page is served by Vite's dev server, not from a build: a build minifies the code
// and renames functions (two stages' `hash` in one chunk become `hash` and `hash$1`),
// while the dev server sends each file on its own under its repo path, compiled from
// TypeScript with its names, and hands us the source map of what it sent. The stage runs
// on the page's main thread, the thread DevTools samples; stage 11's pool cannot run
// there (a page may not block on Atomics.wait), and the profile's note says so.

import { mkdtempSync, rmSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { STAGES } from '../../../steps/index.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from '../chromium-path.ts';
import { securityHeaders } from '../../core/site/security-headers.ts';
import { fromV8, type V8CallFrame, type V8Profile } from '../../core/profile/from-v8.ts';
import type { ProfileSource, StageProfile } from '../../core/profile/profile.ts';
import { moduleOfUrl, type WasmOrigin } from '../../core/profile/wasm-names.ts';
import { isStageCode } from '../../core/profile/workload.ts';
import { cpuName, ROOT, type ProfileSettings } from './node-profile.ts';

export const CHROMIUM_TOOL = 'V8 sampling profiler (Chromium DevTools Protocol)';
const PAGE = '/profile-page.html';
const WARM_MS = 500;

/** An empty page to run the stage on, with the app's headers (cross-origin isolated, as the bench's pages are): nothing else of the app runs beside it. */
function emptyPage(): Plugin {
  return {
    name: 'blake3-lab:profile-page',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== PAGE) return next();
        for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end('<!doctype html><html lang="en"><meta charset="utf-8"><title>BLAKE3 Lab profile</title></html>');
      });
    },
  };
}

/** Where a frame served by the dev server is in our sources, through the map of what it sent. */
async function originals(server: ViteDevServer, origin: string, frames: V8CallFrame[]): Promise<Map<string, { url: string; lineNumber: number }>> {
  const maps = new Map<string, SourceMap | null>();
  const found = new Map<string, { url: string; lineNumber: number }>();
  for (const frame of frames) {
    if (!frame.url.startsWith(`${origin}/`) || frame.lineNumber < 0) continue;
    const path = frame.url.slice(origin.length);
    if (!maps.has(path)) {
      const map = (await server.transformRequest(path))?.map as SourceMapPayload | null | undefined;
      maps.set(path, map && 'mappings' in map && map.mappings ? new SourceMap(map) : null);
    }
    const entry = maps.get(path)?.findEntry(frame.lineNumber, Math.max(0, frame.columnNumber));
    if (!entry || !('originalSource' in entry)) continue;
    const source = entry.originalSource;
    const url = isAbsolute(source) ? pathToFileURL(source).href : new URL(source, pathToFileURL(join(ROOT, path.split('?')[0]))).href;
    found.set(`${frame.url}:${frame.lineNumber}:${frame.columnNumber}`, { url, lineNumber: entry.originalLine });
  }
  return found;
}

interface PageRun {
  note?: string;
  origins: [string, WasmOrigin][];
}

/** Profiles a stage in headless Chromium: V8's own profile (for a .cpuprofile file) and the StageProfile. */
export async function profileInChromium(index: number, bytes: number, settings: ProfileSettings): Promise<{ v8: V8Profile; profile: StageProfile }> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'blake3-lab-profile-vite-'));
  const server = await devServer(cacheDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS }).catch(async (error) => {
    await server.close();
    rmSync(cacheDir, { recursive: true, force: true });
    throw error;
  });
  try {
    await server.listen();
    const origin = server.resolvedUrls?.local[0]?.replace(/\/$/, '');
    if (!origin) throw new Error('the Vite dev server did not report a local address');
    const page = await browser.newPage();
    await page.goto(`${origin}${PAGE}`);
    await loadStage(page, index, bytes);
    const cdp = await page.context().newCDPSession(page);
    const version = await cdp.send('Browser.getVersion');
    const v8 = await sampleStage(cdp, page, settings);
    const run: PageRun = await page.evaluate((bytes) => {
      const { stage, origins } = (globalThis as unknown as { blake3LabProfile: { stage: { note(bytes: number): string | undefined }; origins: Map<string, WasmOrigin> } }).blake3LabProfile;
      return { note: stage.note(bytes), origins: [...origins] };
    }, bytes);
    const source = { tool: CHROMIUM_TOOL, engine: version.jsVersion, runtime: version.product, cpu: cpuName(), intervalUs: settings.intervalUs };
    return { v8, profile: await stageProfile(v8, run, { server, origin, index, bytes, source }) };
  } finally {
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** Vite's dev server on a free port of 127.0.0.1, serving the repo and the empty page, with no watching and no reloading. */
function devServer(cacheDir: string): Promise<ViteDevServer> {
  return createServer({
    root: ROOT,
    cacheDir,
    logLevel: 'warn',
    appType: 'custom',
    plugins: [emptyPage()],
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
  });
}

/** Loads the stage on the page and warms it up; the page imports our modules from the dev server by path (typed from the same files here). */
async function loadStage(page: Page, index: number, bytes: number): Promise<void> {
  await page.evaluate(
    async ({ index, bytes, warmMs }) => {
      const paths = ['/src/core/profile/wasm-names.ts', '/src/core/profile/workload.ts'];
      const names = (await import(paths[0])) as typeof import('../../core/profile/wasm-names.ts');
      const origins = names.nameWasmModules(WebAssembly);
      const workload = (await import(paths[1])) as typeof import('../../core/profile/workload.ts');
      const stage = await workload.loadForProfile(index);
      const hammer = new workload.Hammer(stage.hasher, workload.profileInput(bytes));
      hammer.warm(warmMs);
      Object.assign(globalThis, { blake3LabProfile: { stage, hammer, origins } });
    },
    { index, bytes, warmMs: WARM_MS },
  );
}

/** V8's profile of the stage hashing for the settings' seconds; up to three tries, each longer, until it holds the least samples asked for. */
async function sampleStage(cdp: CDPSession, page: Page, settings: ProfileSettings): Promise<V8Profile> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: settings.intervalUs });
  let v8: V8Profile | undefined;
  let ms = settings.seconds * 1000;
  for (let attempt = 1; attempt <= 3; attempt++) {
    await cdp.send('Profiler.start');
    await page.evaluate((ms) => (globalThis as unknown as { blake3LabProfile: { hammer: { run(ms: number): void } } }).blake3LabProfile.hammer.run(ms), ms);
    v8 = (await cdp.send('Profiler.stop')).profile as V8Profile;
    const taken = v8.samples?.length ?? 0;
    if (taken >= settings.minSamples) break;
    ms *= Math.min(4, (1.2 * settings.minSamples) / Math.max(1, taken));
  }
  return v8!;
}

/** V8's profile as a StageProfile, each frame placed in our sources. */
async function stageProfile(
  v8: V8Profile,
  run: PageRun,
  { server, origin, index, bytes, source }: { server: ViteDevServer; origin: string; index: number; bytes: number; source: ProfileSource },
): Promise<StageProfile> {
  const modules = new Map(run.origins);
  const frames = v8.nodes.map((node) => node.callFrame);
  // A WebAssembly frame is placed where our code built its module.
  const asBuilt = (frame: V8CallFrame): V8CallFrame => {
    const module = moduleOfUrl(frame.url);
    const built = module === undefined ? undefined : modules.get(module);
    return built ? { ...frame, ...built } : frame;
  };
  const positions = await originals(server, origin, frames.map(asBuilt));
  return fromV8(v8, {
    stage: STAGES[index].id,
    source,
    inputBytes: bytes,
    roots: [pathToFileURL(ROOT).href.replace(/\/?$/, '/'), `${origin}/`],
    original: (frame) => {
      const built = asBuilt(frame);
      return positions.get(`${built.url}:${built.lineNumber}:${built.columnNumber}`) ?? (built === frame ? undefined : built);
    },
    startAt: isStageCode,
    note: ["Sampled on a page's main thread.", run.note].filter(Boolean).join(' '),
  });
}
