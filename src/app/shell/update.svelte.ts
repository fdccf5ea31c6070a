// Offline after one visit, and updates that never surprise. Once the first page has
// loaded, the page registers the app's service worker (workers/sw.ts), which precaches
// the whole build in the background. A later build installs beside the running one and
// waits; this module notices it and says so, and the page reloads only when the learner
// presses the button (never by itself, so never in the middle of a run).
import { ACTIVATE_UPDATE, SERVICE_WORKER_URL } from '../../core/site/service-worker.ts';

/** How often an open page asks whether a new build was published (the browser also asks on every navigation). */
const UPDATE_CHECK_MS = 30 * 60 * 1000;

/** How long after the load event the service worker is registered. */
const REGISTER_AFTER_LOAD_MS = 3000;

export const APP_VERSION = __APP_VERSION__;

class Update {
  /** A new version is installed and waits for the learner to load it. */
  ready = $state(false);
  registration: ServiceWorkerRegistration | undefined;
}

export const update = new Update();

/** Registers the service worker once the page has loaded, so its downloads never slow the first page. */
export function startOffline(): void {
  if (!('serviceWorker' in navigator) || !globalThis.isSecureContext) return;
  const start = () => void register().catch(() => undefined);
  // A few seconds after the load, when the page is idle: the first page's own late
  // requests (a stage page's chunk, its figures) go first, and the precache after them.
  const whenIdle = () => ('requestIdleCallback' in globalThis ? requestIdleCallback(start, { timeout: 5000 }) : start());
  const later = () => setTimeout(whenIdle, REGISTER_AFTER_LOAD_MS);
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
}

async function register(): Promise<void> {
  const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL);
  update.registration = registration;
  // Only a worker that would replace a running one is an update; the first install is not.
  const noticeWaiting = () => {
    if (registration.waiting && navigator.serviceWorker.controller) update.ready = true;
  };
  noticeWaiting();
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => installing.state === 'installed' && noticeWaiting());
  });
  setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
}

/** The learner's choice: activate the waiting version and reload into it. */
export function loadNewVersion(): void {
  const waiting = update.registration?.waiting;
  if (!waiting) return;
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  waiting.postMessage(ACTIVATE_UPDATE);
}
