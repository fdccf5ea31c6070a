// A pool worker: a Web Worker in the browser, a worker thread in Node (started through
// worker.node.mjs). It sets up its own instance of the SIMD module, says it is ready,
// answers the pool's ping, and then, for each job, takes pieces from the front until none is left, waiting for
// each to be copied, and writes each piece's chaining value where the calling thread
// will merge it.

import { misbehaviour, type BeforePiece, type Fault } from './faults.ts';
import { claimFront, COPIED, CVS, DONE, fail, FAILED, markFinished, type Job } from './job.ts';
import { partChainingValue, subtreeSupported } from './subtree.ts';

/** The messages a worker answers to; 'fault' only in tests (faults.ts). */
export type WorkerMessage = { type: 'ping' } | Job | { type: 'fault'; fault: Fault };
/** What a worker says: ready (or why not) once it is set up, and pong to the pool's ping. */
export type WorkerReply = { type: 'ready' } | { type: 'unsupported'; reason: string } | { type: 'pong' };

interface Port {
  post(reply: WorkerReply): void;
  listen(handler: (message: WorkerMessage) => void): void;
  exit(): void;
}

// Undefined unless a test told this worker to misbehave.
let beforePiece: BeforePiece | undefined;

function runJob(job: Job, port: Port): void {
  const control = new Int32Array(job.control);
  const cvs = new Uint32Array(job.control, CVS * 4);
  const pieceChunks = job.pieceBytes / 1024;
  for (;;) {
    const piece = claimFront(control);
    if (piece < 0) return;
    if (beforePiece && !beforePiece(control)) return;
    // The calling thread copies pieces in order; wait until this one is there.
    for (let copied = Atomics.load(control, COPIED); copied <= piece; copied = Atomics.load(control, COPIED)) {
      if (Atomics.load(control, FAILED) !== 0) return;
      if (Atomics.wait(control, COPIED, copied, job.waitMs) === 'timed-out') {
        return fail(control, `a worker waited ${job.waitMs} ms for piece ${piece} to be copied`);
      }
    }
    if (Atomics.load(control, FAILED) !== 0) return;
    try {
      const bytes = new Uint8Array(job.input, job.inputOffset + piece * job.pieceBytes, job.pieceBytes);
      partChainingValue(bytes, piece * pieceChunks, cvs, piece * 8);
    } catch (error) {
      return fail(control, `a worker failed on piece ${piece}: ${String(error)}`);
    }
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
  if (message.type === 'ping') port.post({ type: 'pong' });
  else if (message.type === 'fault') beforePiece = misbehaviour(message.fault, FAILED, port.exit);
  else runJob(message, port);
});
if (subtreeSupported()) {
  partChainingValue(new Uint8Array(1), 0, new Uint32Array(8), 0); // sets up the module now, not on the first piece
  port.post({ type: 'ready' });
} else {
  port.post({ type: 'unsupported', reason: 'a pool worker has no WebAssembly SIMD' });
}
