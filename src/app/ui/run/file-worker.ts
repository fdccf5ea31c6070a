// Starts one file worker (workers/file.worker.ts) for the file pool of src/core/file/pool.ts.
// The address is written here, beside the page that starts it, so Vite bundles the worker.
export const spawnFileWorker = (): Worker => new Worker(new URL('../../../../workers/file.worker.ts', import.meta.url), { type: 'module' });
