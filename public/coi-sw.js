// Cross-origin isolation on hosts that send no headers (GitHub Pages, a school's plain
// web server). The page registers this worker only when it is not isolated already
// (src/app/ui/isolation.svelte.ts). It adds COOP, COEP and CORP to the app's own responses,
// the headers the host did not send, then the page reloads once so its document arrives
// with them. Responses that already carry COEP pass unchanged, so on a host that sends
// the headers itself this worker does nothing (and the page unregisters it).
// Cross-origin requests are never touched: the app makes none.

const ADDED = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Marks a response this worker changed, so the page can say where its isolation came from. */
const MARKER = 'X-Blake3-Lab-Isolation';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(withIsolationHeaders(request));
});

async function withIsolationHeaders(request) {
  const response = await fetch(request);
  // Redirects and errors stay as they are; so does anything the host already isolates.
  if (response.type !== 'basic' || response.headers.has('Cross-Origin-Embedder-Policy')) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ADDED)) headers.set(name, value);
  headers.set(MARKER, 'service-worker');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
