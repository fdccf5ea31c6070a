// Results from outside the page (a share link, a file someone picked) are decoded and
// validated here, off the page's thread: whatever a link holds, the page keeps drawing
// and answering while this worker inflates, parses and checks it. The page gives it a
// time limit and terminates it past that (src/app/ui/results/decode-client.ts).
import { expose } from 'comlink';
import { readResultsFile } from '../src/core/results/io/io.ts';
import { decodeSharePayload } from '../src/core/results/io/share.ts';

const api = {
  decodeSharePayload,
  readResultsFile,
};

export type ResultsWorkerApi = typeof api;

expose(api);
