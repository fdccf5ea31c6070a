import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defineConfig, type Connect, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { securityHeaders } from './src/core/site/security-headers.ts';
import { HTML_PAGES } from './src/core/site/html-pages.ts';
import { markdownContent } from './src/node/content-plugin.ts';

// The app's headers live in their own file, which the class server imports too.
export { securityHeaders };

// The playground's sandbox page (src/app/playground/sandbox-page.html) runs code typed in the
// editor, so it gets the opposite of the app's trust: an opaque origin (the app embeds
// it with sandbox="allow-scripts"), and a policy of its own that allows only its one
// inline script (by hash), blob: modules and workers (the compiled drafts and the bench
// core, handed over as text) and WebAssembly, and no connection at all. Nothing else of
// the app is loosened: these headers go with that one file only.
const SANDBOX_SOURCE = readFileSync(new URL('./src/app/playground/sandbox-page.html', import.meta.url), 'utf8');
export const SANDBOX_PATH = '/sandbox.html';

function inlineScriptHash(html: string): string {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html);
  if (!script) throw new Error('src/app/playground/sandbox-page.html has no inline <script>');
  return `'sha256-${createHash('sha256').update(script[1]).digest('base64')}'`;
}

const sandboxPolicy = [
  "default-src 'none'",
  `script-src ${inlineScriptHash(SANDBOX_SOURCE)} blob: 'wasm-unsafe-eval'`,
  'worker-src blob:',
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

export const sandboxHeaders: Record<string, string> = {
  ...securityHeaders,
  'Content-Security-Policy': sandboxPolicy,
};

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

const KEEP_FUNCTION_NAMES = { function: true, class: false };

export default defineConfig({
  plugins: [svelte(), sandboxPage(), markdownContent()],
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
    rollupOptions: {
      input: { ...HTML_PAGES },
      // Minified, but functions keep their names: the live profile on a stage page names
      // what V8 sampled (`compress`, not `e`), as the stored profiles do.
      output: { minify: { compress: { keepNames: KEEP_FUNCTION_NAMES }, mangle: { keepNames: KEEP_FUNCTION_NAMES } } },
    },
  },
});
