// A file worker of the file page (#/file): its work is src/core/file/worker-api.ts.
// Started by the page (src/app/ui/run/file-worker.ts) for src/core/file/pool.ts, as many as
// the stage uses threads.
import { expose } from 'comlink';
import { fileWorkerApi } from '../src/core/file/worker-api.ts';

expose(fileWorkerApi());
