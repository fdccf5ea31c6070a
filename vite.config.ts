import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defineConfig, type Connect, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { HTML_PAGES } from './src/html-pages.ts';

// The Content Security Policy: everything comes from our own origin, nothing runs inline.
const contentSecurityPolicy = [
  "default-src 'self'",
  // 'wasm-unsafe-eval' lets the page compile WebAssembly from bytes and allows no other
  // eval: stage 9 generates its SIMD module at runtime, and the blake3-wasm and
  // hash-wasm baselines instantiate theirs from bytes too. Without it they cannot run.
  "script-src 'self' 'wasm-unsafe-eval'",
  // Bench workers and Monaco's workers are files of the build, never blob: URLs.
  "worker-src 'self'",
  // Monaco adds <style> elements while it runs and Svelte writes style attributes
  // (chart sizes, bar widths); a static build cannot give them nonces or hashes.
  "style-src 'self' 'unsafe-inline'",
  // Chart images exported as data: or blob: URLs, and Monaco's data: SVG icons.
  "img-src 'self' data: blob:",
  // Monaco's codicon font is bundled with the app.
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// One header set for `vite` (dev), `vite preview` and, copied verbatim, public/_headers
// for static hosts; tests/security-headers.test.ts checks that the two agree.
// Cross-origin isolation (COOP + COEP) gives the page a fine-grained timer and
// SharedArrayBuffer; the bench records whether it applied.
export const securityHeaders: Record<string, string> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

// The playground's sandbox page (src/playground/sandbox-page.html) runs code typed in the
// editor, so it gets the opposite of the app's trust: an opaque origin (the app embeds
// it with sandbox="allow-scripts"), and a policy of its own that allows only its one
// inline script (by hash), blob: modules and workers (the compiled drafts and the bench
// core, handed over as text) and WebAssembly, and no connection at all. Nothing else of
// the app is loosened: these headers go with that one file only.
const SANDBOX_SOURCE = readFileSync(new URL('./src/playground/sandbox-page.html', import.meta.url), 'utf8');
export const SANDBOX_PATH = '/sandbox.html';

function inlineScriptHash(html: string): string {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html);
  if (!script) throw new Error('src/playground/sandbox-page.html has no inline <script>');
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

export default defineConfig({
  plugins: [svelte(), sandboxPage()],
  worker: { format: 'es', plugins: () => [classicPlaygroundWorker()] },
  server: { headers: securityHeaders },
  preview: { headers: securityHeaders },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    rollupOptions: {
      input: { ...HTML_PAGES },
    },
  },
});
