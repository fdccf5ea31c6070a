// Cross-origin isolation (COOP + COEP) gives the benchmark a fine timer and shared
// memory. Vite's servers and hosts that read public/_headers send the headers; on a host
// that sends none, the app's service worker (workers/sw.ts, the one that also keeps the
// app offline) adds them to the app's responses and the page reloads once. This module
// decides which case applies and keeps the reason, which the environment line shows
// beside the run's numbers.
import { ISOLATION_MARKER, SERVICE_WORKER_URL } from '../../../core/site/service-worker.ts';

/** Session flag: the page already reloaded once for the service worker. Never loops. */
const RELOADED_KEY = 'blake3-lab:isolation-reload';

class Isolation {
  /** Why the page is or is not cross-origin isolated, as a phrase for the environment line. */
  reason = $state(globalThis.crossOriginIsolated ? 'cross-origin isolated' : 'not isolated (coarse timer)');
}

export const isolation = new Isolation();

/**
 * Call once at start-up. Resolves when the reason is known; when the service worker has
 * just been installed it reloads the page instead.
 */
export async function startIsolation(): Promise<void> {
  const workers = 'serviceWorker' in navigator ? navigator.serviceWorker : undefined;
  if (globalThis.crossOriginIsolated) {
    session(() => sessionStorage.removeItem(RELOADED_KEY));
    if (workers?.controller && (await addedByOurWorker())) {
      isolation.reason = 'cross-origin isolated by the app’s service worker (this host sends no isolation headers)';
    } else {
      // The worker (if any) keeps the app offline here; the headers are the host's own.
      isolation.reason = 'cross-origin isolated by the server’s headers';
    }
    return;
  }
  const notIsolated = (why: string) => (isolation.reason = `not isolated (coarse timer): ${why}`);
  if (!globalThis.isSecureContext) return void notIsolated('the page is not served over HTTPS or from localhost');
  if (!workers) return void notIsolated('this host sends no isolation headers and this browser offers no service worker to add them');
  if (workers.controller || session(() => sessionStorage.getItem(RELOADED_KEY))) {
    return void notIsolated('this host sends no isolation headers, and the app’s service worker could not add them');
  }
  try {
    await workers.register(SERVICE_WORKER_URL);
    await workers.ready;
  } catch (error) {
    return void notIsolated(`the app’s service worker could not start (${error instanceof Error ? error.message : String(error)})`);
  }
  // Without session storage there is no guard against a second reload: stay unisolated.
  if (session(() => (sessionStorage.setItem(RELOADED_KEY, '1'), true)) !== true) {
    return void notIsolated('the page cannot remember that it reloaded once (storage is disabled)');
  }
  location.reload();
}

/** Session storage throws where the user disabled storage; treat that as empty. */
function session<T>(use: () => T): T | undefined {
  try {
    return use();
  } catch {
    return undefined;
  }
}

/** Whether this page's own document came through the service worker with added headers. */
async function addedByOurWorker(): Promise<boolean> {
  try {
    const response = await fetch(location.pathname, { method: 'HEAD', cache: 'no-store' });
    return response.headers.has(ISOLATION_MARKER);
  } catch {
    return false;
  }
}
