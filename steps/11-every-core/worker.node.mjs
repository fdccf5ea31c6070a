// Entry of a pool worker thread in Node. Node 20 does not apply `--import tsx` to a
// worker's entry file, so the thread registers tsx itself and only then imports the
// TypeScript worker (the bench's own worker threads start the same way).
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
