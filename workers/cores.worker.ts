// The measuring thread of cores.html: a Web Worker, where waiting (Atomics.wait) is
// allowed, runs src/core/bench/cores.ts with a nested worker as the other core.
import { measureCores, type CoresOptions } from '../src/core/bench/cores.ts';

async function startOtherCore(size: number, control: Int32Array) {
  const worker = new Worker(new URL('./cores-other.worker.ts', import.meta.url), { type: 'module' });
  await new Promise<void>((resolve, reject) => {
    worker.addEventListener('message', () => resolve(), { once: true });
    worker.addEventListener('error', (event) => reject(new Error(event.message || 'the other core failed to start')), { once: true });
    worker.postMessage({ size, control });
  });
  return { stop: () => worker.terminate() };
}

self.addEventListener(
  'message',
  async (event: MessageEvent<CoresOptions>) => {
    try {
      self.postMessage(await measureCores(event.data, startOtherCore, navigator.userAgent));
    } catch (error) {
      self.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  },
  { once: true },
);
