// What the app's service worker (workers/sw.ts) adds on a host that sends no headers
// (GitHub Pages, a school's plain web server): cross-origin isolation (COOP, COEP, CORP),
// the Content Security Policy with what only a header can carry (frame-ancestors), and
// the Document-Policy that lets the page start the JS Self-Profiling API; the playground's
// sandbox page gets its own headers, the ones every host gives it. A response that
// already carries COEP came from a host that sends the headers itself and passes unchanged.
import { SANDBOX_PATH, sandboxHeaders } from './sandbox-headers.ts';
import { securityHeaders } from './security-headers.ts';

/** Relative to the page, so the app also works from a folder of its host. */
export const SERVICE_WORKER_URL = './sw.js';

/** The message the page sends the waiting worker when the learner chooses to load the new version. */
export const ACTIVATE_UPDATE = 'activate-update';

/** Marks a response the worker changed, so the page can say where its isolation came from. */
export const ISOLATION_MARKER = 'X-Blake3-Lab-Isolation';

export async function withIsolationHeaders(response: Response, path: string): Promise<Response> {
  // Redirects, errors and other origins stay as they are; so does anything the host already isolates.
  if (response.type !== 'basic' || response.headers.has('Cross-Origin-Embedder-Policy')) return response;
  const headers = new Headers(response.headers);
  // The sandbox's policy allows its page's inline script by hash, so it is worked out from
  // the page served; an error page in its place gets the app's headers.
  const added = path.endsWith(SANDBOX_PATH) && response.ok ? await sandboxHeaders(await response.clone().text()) : securityHeaders;
  for (const [name, value] of Object.entries(added)) headers.set(name, value);
  headers.set(ISOLATION_MARKER, 'service-worker');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
