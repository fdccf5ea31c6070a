// The headers every page of the app is served with: by `vite` (dev) and `vite preview`
// (vite.config.ts), by the class server (server/app.ts), and, copied verbatim, by static
// hosts through public/_headers (tests/security-headers.test.ts checks that they agree).
// A file of its own, so the class server does not load Vite's config to read them.

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

