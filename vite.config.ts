import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// Cross-origin isolation gives the page a fine-grained timer (and SharedArrayBuffer);
// the bench records whether it applied. The full security header set lives in one place.
export const securityHeaders: Record<string, string> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
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
