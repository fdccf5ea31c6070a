import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

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

export default defineConfig({
  plugins: [svelte()],
  worker: { format: 'es' },
  server: { headers: securityHeaders },
  preview: { headers: securityHeaders },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    rollupOptions: {
      // selftest.html runs every stage against the vectors in a Web Worker and prints
      // the verdict: a page a user (or the browser tests) can open to prove the stages.
      // bench.html is the page `npm run bench -- --browser` drives in headless Chromium.
      input: { main: 'index.html', selftest: 'selftest.html', bench: 'bench.html' },
    },
  },
});
