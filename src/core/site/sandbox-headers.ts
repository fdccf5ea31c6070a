// The playground's sandbox page (src/app/playground/sandbox-page.html) runs code typed in
// the editor, so it gets the opposite of the app's trust: an opaque origin with scripts
// and nothing else (its policy's `sandbox allow-scripts`), and a policy of its own that
// allows only its one inline script (by hash), blob: modules and workers (the compiled
// drafts and the bench core, handed over as text) and WebAssembly, and no connection at
// all. Nothing else of the app is loosened: these headers go with that one file only,
// from Vite's servers (vite.config.ts), the class server (server/app.ts), public/_headers
// and the app's service worker (workers/sw.ts) alike.
//
// The sandbox is the page's own header rather than the iframe's sandbox attribute: Chromium
// hands no navigation of a frame sandboxed by its attribute to the service worker, so such a
// frame cannot load offline. The app sends no code to a frame whose origin is not opaque
// (src/app/playground/sandbox.ts).
import { securityHeaders } from './security-headers.ts';

/** Where the app and every host serve the sandbox page. */
export const SANDBOX_PATH = '/sandbox.html';

/** The sandbox page's one inline script, whose hash its policy allows. */
function sandboxScript(html: string): string {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html);
  if (!script) throw new Error('the sandbox page has no inline <script>');
  return script[1];
}

/**
 * The headers of the sandbox page `html`: its policy allows its one inline script by that
 * script's SHA-256 (WebCrypto's, which Node has too: the class server loads no hash library).
 */
export async function sandboxHeaders(html: string): Promise<Record<string, string>> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(sandboxScript(html)));
  const scriptSha256 = btoa(String.fromCharCode(...new Uint8Array(digest)));
  const policy = [
    "default-src 'none'",
    `script-src 'sha256-${scriptSha256}' blob: 'wasm-unsafe-eval'`,
    'worker-src blob:',
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
    // An opaque origin that may run scripts, and may not submit forms, open pop-ups or navigate the app.
    'sandbox allow-scripts',
  ].join('; ');
  return { ...securityHeaders, 'Content-Security-Policy': policy };
}
