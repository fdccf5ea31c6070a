// Entry of a Node bench worker thread. Node 20 does not apply `--import tsx` from a
// worker's execArgv to the worker's own entry file, so the thread registers tsx itself
// and only then imports the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./bench.node-worker.ts');
