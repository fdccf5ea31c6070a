// The one way the app starts a worker. The caller writes `new Worker(new URL('…',
// import.meta.url), …)` itself, the form Vite follows to bundle the worker's script, and
// hands the worker here with a name for messages ("the bench worker"). This wraps its API
// with comlink, typed, and turns the worker's `error` event (its script did not load, or it
// threw outside any call: calls report their own errors as data) and a message it cannot
// read into one rejection, `failed`, which every `call` races against (src/core/worker.ts).
import { wrap } from 'comlink';
import { WorkerDied, startedWorker, type StartedWorker } from '../../../core/worker.ts';

export function startWorker<Api>(worker: Worker, name: string): StartedWorker<Api> {
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      // No message usually means the script did not load: most often the app was updated
      // on its server after this page was opened, and the page still asks for the old file.
      reject(new WorkerDied(event.message ? `${name} stopped: ${event.message}` : `${name} failed to start or crashed (if the app was updated since this page was opened, reload the page)`));
    });
    worker.addEventListener('messageerror', () => reject(new WorkerDied(`${name} sent a message that could not be read`)));
  });
  return startedWorker(wrap<Api>(worker), failed, () => worker.terminate());
}
