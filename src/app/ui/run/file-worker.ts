// Starts one file worker (workers/file.worker.ts) for the file pool of src/core/file/pool.ts.
// The address is written here, beside the page that starts it, so Vite bundles the worker.
import type { FileWorkerApi } from '../../../core/file/pool.ts';
import type { StartedWorker } from '../../../core/worker.ts';
import { startWorker } from './start-worker.ts';

export const startFileWorker = (): StartedWorker<FileWorkerApi> =>
  startWorker<FileWorkerApi>(new Worker(new URL('../../../../workers/file.worker.ts', import.meta.url), { type: 'module' }), 'a file worker');
