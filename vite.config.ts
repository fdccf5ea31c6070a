import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, runnerImport, type Connect, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { securityHeaders } from './src/core/site/security-headers.ts';
import { HTML_PAGES } from './src/core/site/html-pages.ts';
import { SANDBOX_PATH, sandboxHeaders as sandboxHeadersFor } from './src/core/site/sandbox-headers.ts';
import { markdownContent } from './src/node/content-plugin.ts';

// The app's headers live in their own file, which the class server imports too.
export { securityHeaders };

// The playground's sandbox page, served with a policy of its own (src/core/site/sandbox-headers.ts).
const SANDBOX_SOURCE = readFileSync(new URL('./src/app/playground/sandbox-page.html', import.meta.url), 'utf8');
export { SANDBOX_PATH };
export const sandboxHeaders = await sandboxHeadersFor(SANDBOX_SOURCE);

/** Serves (dev, preview) and emits (build) the sandbox page with its own headers. */
function sandboxPage(): Plugin {
  const serve: Connect.NextHandleFunction = (req, res, next) => {
    if (req.url?.split('?')[0] !== SANDBOX_PATH) return next();
    for (const [name, value] of Object.entries(sandboxHeaders)) res.setHeader(name, value);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(SANDBOX_SOURCE);
  };
  return {
    name: 'blake3-lab-sandbox-page',
    configureServer: (server) => void server.middlewares.use(serve),
    configurePreviewServer: (server) => void server.middlewares.use(serve),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: SANDBOX_PATH.slice(1), source: SANDBOX_SOURCE });
    },
  };
}

/**
 * The playground's worker runs as a classic script (Chromium starts no module worker from
 * an opaque origin's blob: URL), where `import.meta` is a syntax error even if never
 * reached. Its one use, in blake3-wasm's glue, is a default for the .wasm location that
 * the worker never needs: it always passes the module's bytes.
 */
function classicPlaygroundWorker(): Plugin {
  return {
    name: 'blake3-lab-classic-playground-worker',
    renderChunk(code, chunk) {
      if (!chunk.name.startsWith('playground.worker')) return null;
      return code.replaceAll('import.meta.url', 'self.location.href');
    },
  };
}

/**
 * The version the footer shows and an update names: package.json's, the commit and the
 * minute of the build, so two builds of one commit are told apart too.
 */
function buildVersion(): string {
  const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
  let commit = '';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    commit = 'no-git';
  }
  return `${version} (${commit}, built ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`;
}

/**
 * Installable and offline after one visit: the web app manifest, and one service worker
 * (workers/sw.ts) that precaches the whole build and adds the headers a header-less host
 * leaves out. The page registers it itself (src/app/ui/run/isolation.svelte.ts).
 */
const offlineApp = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'workers',
  filename: 'sw.ts',
  injectRegister: false,
  manifest: {
    name: 'BLAKE3 Lab',
    short_name: 'BLAKE3 Lab',
    description: 'An interactive lesson on making code fast: a JavaScript BLAKE3 made fast stage by stage, benchmarked live.',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    // --accent and --bg of the light theme (src/app/shell/app.css).
    theme_color: '#1f5fcc',
    background_color: '#f6f7f9',
    // Made from public/logo.svg by `npm run icons` (pwa-assets.config.ts).
    icons: [
      { src: 'pwa-64x64.png', sizes: '64x64', type: 'image/png' },
      { src: 'pwa-192x192.png', sizes: '192x192', type: 'image/png' },
      { src: 'pwa-512x512.png', sizes: '512x512', type: 'image/png' },
      { src: 'maskable-icon-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  injectManifest: {
    rollupFormat: 'iife',
    globPatterns: ['**/*.{html,js,css,svg,png,ico,ttf,wasm,json,webmanifest,txt}'],
    // Monaco's TypeScript worker (the playground's editor) is about 8 MB.
    maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
  },
});

/**
 * Modules whose exports are data worked out from the lesson's files: every stage's story,
 * its figures filled in from the committed runs, profiles and V8 evidence in data/
 * (src/app/story/narrative.ts), and the front page's words (intro-prose.ts). Working
 * them out reads the Markdown, whole runs through the results validator and the
 * statistics; the build does it once, in Node through Vite's module runner, and ships the
 * data in their place. A first visit downloads the words, not the runs and the code that
 * reads them, and spends no time on them. The dev server and the tests run the modules
 * themselves, from the same files.
 */
const PRERENDERED = ['src/app/story/narrative.ts', 'src/app/story/intro-prose.ts'].map((path) => fileURLToPath(new URL(`./${path}`, import.meta.url)));

function prerenderedData(): Plugin {
  return {
    name: 'blake3-lab-prerendered-data',
    apply: 'build',
    async load(id) {
      const file = id.split('?')[0];
      if (!PRERENDERED.includes(file)) return null;
      const root = fileURLToPath(new URL('.', import.meta.url));
      const { module, dependencies } = await runnerImport<Record<string, unknown>>(file, { root, logLevel: 'error', plugins: [markdownContent()] });
      for (const dependency of dependencies) this.addWatchFile(dependency);
      // Its data only: a page that imports one of its functions fails the build, which names
      // it. As JSON text, which V8 reads faster than the same data written as code.
      return Object.entries(module)
        .filter(([, value]) => typeof value !== 'function')
        .map(([name, value]) => `export const ${name} = JSON.parse(${JSON.stringify(JSON.stringify(value))});\n`)
        .join('');
    },
  };
}

const KEEP_FUNCTION_NAMES = { function: true, class: false };

/**
 * The components a page draws after its first paint, `afterFirstPaint(() => import('./X.svelte'))`
 * (src/app/story/after-paint.ts), read from the app's source. Their imports preload only their
 * CSS: the browser fetches their modules when the import runs. Preloaded, their modules'
 * links (20 on stage 5: 29 modulepreload links in all, 9 without them) were all added in
 * one task right after the first paint, the time Lighthouse counts as blocking on a phone.
 */
function afterPaintParts(): Set<string> {
  const names = new Set<string>();
  const root = join(dirname(fileURLToPath(import.meta.url)), 'src/app/');
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.svelte') && !file.endsWith('.ts')) continue;
    for (const [, name] of readFileSync(root + file, 'utf8').matchAll(/afterFirstPaint\(\(\) => import\('[^']*\/(\w+)\.svelte'\)\)/g)) names.add(name);
  }
  return names;
}
const AFTER_PAINT = afterPaintParts();
/** Whether a built file is one of those parts' modules: `assets/StageMeasured-<hash>.js`. */
const drawnAfterPaint = (file: string) => AFTER_PAINT.has(/([^/]+?)-[\w-]+\.js$/.exec(file)?.[1] ?? '');

export default defineConfig({
  plugins: [svelte(), sandboxPage(), markdownContent(), prerenderedData(), offlineApp],
  define: { __APP_VERSION__: JSON.stringify(buildVersion()) },
  worker: {
    format: 'es',
    plugins: () => [classicPlaygroundWorker()],
    // Named functions in workers too: a live profile may be taken in one (workers/profile.worker.ts).
    rolldownOptions: { output: { minify: { compress: { keepNames: KEEP_FUNCTION_NAMES }, mangle: { keepNames: KEEP_FUNCTION_NAMES } } } },
  },
  server: { headers: securityHeaders },
  preview: { headers: securityHeaders },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    modulePreload: { resolveDependencies: (file, deps) => (drawnAfterPaint(file) ? deps.filter((dep) => dep.endsWith('.css')) : deps) },
    rollupOptions: {
      input: { ...HTML_PAGES },
      // Minified, but functions keep their names: the live profile on a stage page names
      // what V8 sampled (`compress`, not `e`), as the stored profiles do.
      output: { minify: { compress: { keepNames: KEEP_FUNCTION_NAMES }, mangle: { keepNames: KEEP_FUNCTION_NAMES } } },
    },
  },
});
