// The measuring thread of cores.html: a Web Worker, where waiting (Atomics.wait) is
// allowed, runs src/core/bench/cores.ts with a nested worker as the other core, or records
// stage 11's timeline (src/core/bench/timeline.ts).
import { expose } from 'comlink';
import { measureCores } from '../src/core/bench/cores.ts';
import { measureTimeline, type CoresWorkerApi } from '../src/core/bench/timeline.ts';

async function startOtherCore(size: number, control: Int32Array) {
  const worker = new Worker(new URL('./cores-other.worker.ts', import.meta.url), { type: 'module' });
  await new Promise<void>((resolve, reject) => {
    worker.addEventListener('message', () => resolve(), { once: true });
    worker.addEventListener('error', (event) => reject(new Error(event.message || 'the other core failed to start')), { once: true });
    worker.postMessage({ size, control });
  });
  return { stop: () => worker.terminate() };
}

const api: CoresWorkerApi = {
  measure: (request) =>
    request.kind === 'timeline' ? measureTimeline(request.options, navigator.userAgent) : measureCores(request.options, startOtherCore, navigator.userAgent),
};
expose(api);
