// The app's one service worker, built by vite-plugin-pwa (injectManifest): it precaches
// every file of the build once the first page has loaded, so the lesson, the benchmarks,
// the editor and the file page work with the network off, and it adds the headers a
// host without them did not send (src/core/site/service-worker.ts), so such a host
// still gets a cross-origin isolated page (src/app/ui/run/isolation.svelte.ts).
//
// A new build installs beside the running one and waits: the page says a new version is
// ready and activates it only when the learner asks (src/app/shell/update.svelte.ts), so a
// benchmark is never cut short by a reload. Workbox drops the old build's files when the
// new one activates.
/// <reference lib="webworker" />
import { cleanupOutdatedCaches, matchPrecache, precache } from 'workbox-precaching';
import type { PrecacheEntry } from 'workbox-precaching';
import { ACTIVATE_UPDATE, withIsolationHeaders } from '../src/core/site/service-worker.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

precache(self.__WB_MANIFEST);
cleanupOutdatedCaches();

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  if (event.data === ACTIVATE_UPDATE) void self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  // The app makes no cross-origin requests; anything else goes by untouched. So does the
  // class server's API (server/): its answers are never cached, and its event streams
  // and results posts go straight to the network, so a page sees a lost connection at once.
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  event.respondWith(respond(event.request, url));
});

async function respond(request: Request, url: URL): Promise<Response> {
  const cached = await fromPrecache(request, url);
  const response = await withIsolationHeaders(cached ?? (await fetch(request)), url.pathname);
  // The page asks HEAD of its own document to learn where its isolation came from.
  if (cached && request.method === 'HEAD') return new Response(null, response);
  return response;
}

/** The build's copy of a file: a folder's address means its index.html, and a query string is ignored. */
async function fromPrecache(request: Request, url: URL): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const file = new URL(url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname, url);
  return matchPrecache(file.href);
}
