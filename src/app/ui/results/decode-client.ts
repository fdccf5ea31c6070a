// The page's side of workers/results.worker.ts: every share link and imported file is
// decoded and validated in a worker of its own, terminated when it answers or when the
// time limit passes. The page only waits, so a hostile link costs it nothing: no frame is
// held up however long the worker takes or however much memory it fills before the
// limit (the worker's memory goes with it).
import type { Remote } from 'comlink';
import type { ResultsWorkerApi } from '../../../../workers/results.worker.ts';
import type { ResultsCheck } from '../../../core/results/io/validate.ts';
import { CallTimeout, WorkerDied } from '../../../core/worker.ts';
import { startWorker } from '../run/start-worker.ts';

/**
 * How long reading one document may take. A real run's link decodes in tens of
 * milliseconds and the largest document the limits allow in about a second on a slow
 * phone; past this, the input is refused rather than waited for.
 */
export const DECODE_TIME_LIMIT_MS = 10_000;

async function inWorker(work: (api: Remote<ResultsWorkerApi>) => Promise<ResultsCheck>, what: string): Promise<ResultsCheck> {
  const worker = startWorker<ResultsWorkerApi>(new Worker(new URL('../../../../workers/results.worker.ts', import.meta.url), { type: 'module' }), 'the reader');
  try {
    return await worker.call(work, { timeoutMs: DECODE_TIME_LIMIT_MS });
  } catch (error) {
    // Refusals come back as data, as the worker's own verdicts do.
    if (error instanceof CallTimeout) {
      return { ok: false, error: `Reading ${what} took more than ${DECODE_TIME_LIMIT_MS / 1000} s, far longer than any real results need; it was stopped and nothing was opened.` };
    }
    if (error instanceof WorkerDied) return { ok: false, error: `${what[0].toUpperCase()}${what.slice(1)} could not be read: ${error.message}.` };
    throw error;
  } finally {
    worker.stop();
  }
}

/** decodeSharePayload (share.ts), run in a worker with a time limit. */
export function decodeShareLink(payload: string): Promise<ResultsCheck> {
  return inWorker((api) => api.decodeSharePayload(payload), 'this link');
}

/** readResultsFile (io.ts), run in a worker with a time limit. */
export function readResultsFileOffThread(file: Blob): Promise<ResultsCheck> {
  return inWorker((api) => api.readResultsFile(file), 'this file');
}
