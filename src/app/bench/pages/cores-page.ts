// cores.html: `npm run bench:cores -- --browser` in a page. Reads the size, rounds and
// input kind from the address, measures in a Web Worker (src/core/bench/cores.ts) and prints
// the report; tools read window.blake3LabCores once body[data-status] is "done" or "failed".
// With `timeline=N` in the address it records N hashes of stage 11 instead
// (src/core/bench/timeline.ts) and draws the median one.

import { checkCoresOptions, describeCores, type CoresResult } from '../../../core/bench/cores.ts';
import { parseSize } from '../../../core/bench/plan.ts';
import { describeTimeline, timelineSvg, type CoresRequest, type CoresWorkerApi, type TimelineResult } from '../../../core/bench/timeline.ts';
import { startWorker } from '../../ui/run/start-worker.ts';

declare global {
  interface Window {
    blake3LabCores?: CoresResult | TimelineResult | { error: string };
  }
}


const out = document.getElementById('out') as HTMLPreElement;
const status = document.getElementById('status') as HTMLParagraphElement;

function finish(outcome: CoresResult | TimelineResult | { error: string }): void {
  window.blake3LabCores = outcome;
  if ('error' in outcome) {
    status.textContent = `The measurement could not run: ${outcome.error}`;
    document.body.dataset.status = 'failed';
  } else {
    status.textContent = 'Done.';
    if ('recorded' in outcome) {
      out.textContent = describeTimeline(outcome).join('\n');
      const picture = document.createElement('img');
      picture.alt = 'The median hash: what each thread did when';
      picture.src = `data:image/svg+xml,${encodeURIComponent(timelineSvg(outcome))}`;
      out.after(picture);
    } else {
      out.textContent = describeCores(outcome).join('\n');
    }
    document.body.dataset.status = 'done';
  }
}

function requestFromAddress(): CoresRequest {
  const query = new URLSearchParams(location.search);
  const options = {
    size: parseSize(query.get('size') ?? '16MiB'),
    rounds: Number(query.get('rounds') ?? 15),
    sharedInput: query.get('input') === 'shared',
  };
  checkCoresOptions(options);
  const hashes = query.get('timeline');
  if (hashes === null) return { kind: 'rounds', options };
  if (!(Number(hashes) >= 1)) throw new RangeError(`timeline= takes how many hashes to record, got "${hashes}"`);
  return { kind: 'timeline', options: { size: options.size, hashes: Number(hashes), sharedInput: options.sharedInput } };
}

async function measure(): Promise<void> {
  const request = requestFromAddress();
  status.textContent = 'Measuring…';
  const worker = startWorker<CoresWorkerApi>(new Worker(new URL('../../../../workers/cores.worker.ts', import.meta.url), { type: 'module' }), 'the measuring worker');
  try {
    // No time limit: a measurement takes as long as its rounds; a worker that dies ends it.
    finish(await worker.call((api) => api.measure(request)));
  } finally {
    worker.stop();
  }
}

measure().catch((error: unknown) => finish({ error: error instanceof Error ? error.message : String(error) }));
