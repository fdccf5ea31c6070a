// cores.html: `npm run bench:cores -- --browser` in a page. Reads the size, rounds and
// input kind from the address, measures in a Web Worker (src/core/bench/cores.ts) and prints
// the report; tools read window.blake3LabCores once body[data-status] is "done" or "failed".

import { checkCoresOptions, describeCores, type CoresOptions, type CoresResult } from '../../../core/bench/cores.ts';
import { parseSize } from '../../../core/bench/plan.ts';

declare global {
  interface Window {
    blake3LabCores?: CoresResult | { error: string };
  }
}

const out = document.getElementById('out') as HTMLPreElement;
const status = document.getElementById('status') as HTMLParagraphElement;

function finish(outcome: CoresResult | { error: string }): void {
  window.blake3LabCores = outcome;
  if ('error' in outcome) {
    status.textContent = `The measurement could not run: ${outcome.error}`;
    document.body.dataset.status = 'failed';
  } else {
    status.textContent = 'Done.';
    out.textContent = describeCores(outcome).join('\n');
    document.body.dataset.status = 'done';
  }
}

function optionsFromAddress(): CoresOptions {
  const query = new URLSearchParams(location.search);
  const options = {
    size: parseSize(query.get('size') ?? '16MiB'),
    rounds: Number(query.get('rounds') ?? 15),
    sharedInput: query.get('input') === 'shared',
  };
  checkCoresOptions(options);
  return options;
}

try {
  const options = optionsFromAddress();
  status.textContent = 'Measuring…';
  const worker = new Worker(new URL('../../../../workers/cores.worker.ts', import.meta.url), { type: 'module' });
  worker.addEventListener('message', (event: MessageEvent<CoresResult | { error: string }>) => finish(event.data));
  worker.addEventListener('error', (event) => finish({ error: event.message || 'the worker failed' }));
  worker.postMessage(options);
} catch (error) {
  finish({ error: error instanceof Error ? error.message : String(error) });
}
