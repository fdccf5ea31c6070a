// The bench page for the command line: bench.html built with the project's Vite config
// into a private folder and served by `vite preview`, so a browser gets the same COOP/COEP
// headers as the app (a cross-origin-isolated page, with its fine timer). Built once per
// command and shared by every browser it drives. Node-only; never part of the app bundle.
//
// BLAKE3_LAB_DIST=FOLDER serves an app already built there (`npm run build` writes dist/)
// instead of building the bench pages again: the browser tests hand their one build to
// the command lines they run.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview, type Plugin } from 'vite';
import { BENCH_PAGES } from '../core/site/html-pages.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Builds only the bench pages (bench.html, cores.html): the app and its editor are not needed and take far longer. */
function benchPageOnly(): Plugin {
  return {
    name: 'blake3-lab:bench-page-only',
    config(config) {
      const input = Object.fromEntries(Object.entries(BENCH_PAGES).map(([name, page]) => [name, join(ROOT, page)]));
      config.build ??= {};
      config.build.rollupOptions = { ...config.build.rollupOptions, input };
      if (config.build.rolldownOptions) config.build.rolldownOptions = { ...config.build.rolldownOptions, input };
    },
  };
}

export interface BenchServer {
  /** "http://127.0.0.1:PORT/bench.html" */
  url: string;
  /** "http://127.0.0.1:PORT/cores.html", the page `npm run bench:cores -- --browser` drives */
  coresUrl: string;
  close(): Promise<void>;
}

export async function serveBenchPage(built = process.env.BLAKE3_LAB_DIST): Promise<BenchServer> {
  if (built !== undefined && !Object.values(BENCH_PAGES).every((page) => existsSync(join(built, page)))) {
    throw new Error(`BLAKE3_LAB_DIST=${built} holds no built ${Object.values(BENCH_PAGES).join(' and ')}: run npm run build, or leave it unset`);
  }
  const outDir = built ?? mkdtempSync(join(tmpdir(), 'blake3-lab-bench-'));
  const removeOutDir = () => built === undefined && rmSync(outDir, { recursive: true, force: true });
  try {
    if (built === undefined) await build({ root: ROOT, logLevel: 'warn', plugins: [benchPageOnly()], build: { outDir, emptyOutDir: true } });
    const server = await preview({ root: ROOT, logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
    const address = server.resolvedUrls?.local[0]?.replace(/\/$/, '');
    if (!address) {
      await server.close();
      throw new Error('vite preview did not report a local address');
    }
    return {
      url: `${address}/${BENCH_PAGES.bench}`,
      coresUrl: `${address}/${BENCH_PAGES.cores}`,
      async close() {
        await server.close().catch(() => {});
        removeOutDir();
      },
    };
  } catch (error) {
    removeOutDir();
    throw error;
  }
}
