// A pool worker: a Web Worker in the browser, a worker thread in Node (started through
// worker.node.mjs). It says it is ready once loaded; the pool's ping brings the shared
// memory and the worker's thread number, and the worker sets up its own instance of the
// module on that memory before it answers. Then, for each job, it takes pieces from the
// front until none is left: it waits for each to be copied into the memory (or copies it
// into its own staging from an input already in shared memory), copies it into its own
// staging, hashes it there, and writes its chaining value where the calling thread will merge it.

import { misbehaviour, type BeforePiece, type Fault } from './faults.ts';
import { BY, claimFront, clock, COPIED, CVS, DONE, fail, FAILED, FINISHED, markFinished, READY, RECORD_FIELDS, records, STAGED, TAKEN, type Job } from './job.ts';
import { subtreeSupported, ThreadHasher } from './subtree.ts';

/** The messages a worker answers to; 'fault' only in tests (faults.ts). */
export type WorkerMessage = { type: 'ping'; memory: WebAssembly.Memory; thread: number } | Job | { type: 'fault'; fault: Fault };
/** What a worker says: ready (or why not) once loaded, pong once set up on the memory, or why it could not be. */
export type WorkerReply = { type: 'ready' } | { type: 'unsupported'; reason: string } | { type: 'pong' };

interface Port {
  post(reply: WorkerReply): void;
  listen(handler: (message: WorkerMessage) => void): void;
  exit(): void;
}

// Undefined unless a test told this worker to misbehave.
let beforePiece: BeforePiece | undefined;
let hasher: ThreadHasher | undefined;
let thread = 0;

function runJob(job: Job): void {
  const control = new Int32Array(job.control);
  const cvs = new Uint32Array(job.control, CVS * 4);
  const times = records(control);
  const pieceChunks = job.pieceBytes / 1024;
  for (;;) {
    const piece = claimFront(control);
    if (piece < 0) return;
    const taken = clock();
    if (beforePiece && !beforePiece(control)) return;
    let address = job.address + piece * job.pieceBytes;
    if (!job.source) {
      // The calling thread copies pieces in order; wait until this one is there.
      for (let copied = Atomics.load(control, COPIED); copied <= piece; copied = Atomics.load(control, COPIED)) {
        if (Atomics.load(control, FAILED) !== 0) return;
        if (Atomics.wait(control, COPIED, copied, job.waitMs) === 'timed-out') {
          return fail(control, `a worker waited ${job.waitMs} ms for piece ${piece} to be copied`);
        }
      }
    }
    if (Atomics.load(control, FAILED) !== 0) return;
    const ready = clock();
    // Into this worker's own staging, which no other thread writes and which stays in its
    // cache: from a shared input, or from where the calling thread just wrote the piece
    // from its own core, read once in one stream. In Chromium on the 2-core AMD EPYC a
    // worker was faster this way, the copy included, than hashing the piece where it lay
    // (`npm run bench:cores -- --browser --timeline` prints both; those runs are not kept).
    if (job.source) address = hasher!.stage(new Uint8Array(job.source, job.sourceOffset + piece * job.pieceBytes, job.pieceBytes));
    else address = hasher!.stageFrom(address, job.pieceBytes);
    const staged = clock();
    try {
      hasher!.subtree(address, pieceChunks, job.counter + piece * pieceChunks, cvs, piece * 8);
    } catch (error) {
      return fail(control, `a worker failed on piece ${piece}: ${String(error)}`);
    }
    const record = piece * RECORD_FIELDS;
    times[record + BY] = thread;
    times[record + TAKEN] = taken;
    times[record + READY] = ready;
    times[record + STAGED] = staged;
    times[record + FINISHED] = clock();
    markFinished(control, piece);
    Atomics.add(control, DONE, 1);
    Atomics.notify(control, DONE);
  }
}

async function connect(): Promise<Port> {
  if (typeof globalThis.process?.versions?.node === 'string') {
    // Hidden from Vite, which must not bundle a Node module into the browser build.
    const specifier = 'node:worker_threads';
    const { parentPort } = (await import(/* @vite-ignore */ specifier)) as typeof import('node:worker_threads');
    if (!parentPort) throw new Error('worker.ts runs as a worker thread');
    return {
      post: (reply) => parentPort.postMessage(reply),
      listen: (handler) => parentPort.on('message', handler),
      exit: () => process.exit(1),
    };
  }
  const scope = globalThis as unknown as DedicatedWorkerGlobalScope;
  return {
    post: (reply) => scope.postMessage(reply),
    listen: (handler) => scope.addEventListener('message', (event) => handler(event.data as WorkerMessage)),
    exit: () => scope.close(),
  };
}

const port = await connect();
port.listen((message) => {
  if (message.type === 'ping') {
    try {
      thread = message.thread;
      hasher = new ThreadHasher(message.memory, thread);
      port.post({ type: 'pong' });
    } catch (error) {
      port.post({ type: 'unsupported', reason: `a pool worker could not use the shared memory: ${String(error)}` });
    }
  } else if (message.type === 'fault') beforePiece = misbehaviour(message.fault, FAILED, port.exit);
  else runJob(message);
});
if (subtreeSupported()) port.post({ type: 'ready' });
else port.post({ type: 'unsupported', reason: 'a pool worker has no WebAssembly SIMD' });
