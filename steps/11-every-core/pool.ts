// The pool: worker threads started once, asynchronously, and kept for every hash after.
// Starting a thread costs milliseconds (a new JavaScript engine instance, our module
// loaded and compiled again), far more than hashing a few MiB takes, so no hash ever
// waits for one: start() does it, from the stage's async load(), and hash() only uses
// threads that said they are ready.
//
// The same worker file runs everywhere. In the browser it is a module Web Worker, written
// as `new Worker(new URL('./worker.ts', import.meta.url), ...)` so Vite finds and builds
// it, also when the pool lives inside another worker (the bench's, the self-test's). In
// Node it is a worker thread started from worker.node.mjs, which teaches the thread
// TypeScript first. A thread that fails to start, crashes or exits marks the pool broken
// with the reason; the stage then throws that reason instead of hashing.
//
// A worker counts as started once it has answered a ping sent after it said it was
// ready; the ping brings it the shared memory and its thread number (its area in the
// memory), so the answer also says it is set up on that memory. Chromium delivers nothing
// to a worker started from another worker until the starting thread has gone back to its
// event loop after the worker loaded: without the ping, the jobs a synchronous hash()
// posted right after start() waited, unseen, until that hash() was over, and the calling
// thread hashed every piece alone.

import type { Fault } from './faults.ts';
import type { Job } from './job.ts';
import type { WorkerMessage, WorkerReply } from './worker.ts';

interface Thread {
  post(message: WorkerMessage): void;
  terminate(): void;
}

interface ThreadEvents {
  reply(reply: WorkerReply): void;
  /** The thread failed to load, crashed or exited on its own. */
  died(reason: string): void;
}

const inNode = typeof globalThis.process?.versions?.node === 'string';

// A variable, not a literal: Vite must not take the Node entry for a browser asset.
const NODE_ENTRY = './worker.node.mjs';

async function spawnNodeThread(events: ThreadEvents): Promise<Thread> {
  const specifier = 'node:worker_threads'; // hidden from Vite, like NODE_ENTRY
  const { Worker } = (await import(/* @vite-ignore */ specifier)) as typeof import('node:worker_threads');
  const worker = new Worker(new URL(NODE_ENTRY, import.meta.url));
  worker.unref(); // an idle pool does not keep Node running
  let stopping = false;
  worker.on('message', (reply: WorkerReply) => events.reply(reply));
  worker.on('error', (error) => events.died(error.message));
  worker.on('exit', (code) => {
    if (!stopping) events.died(`it exited with code ${code}`);
  });
  return {
    post: (message) => worker.postMessage(message),
    terminate() {
      stopping = true;
      void worker.terminate();
    },
  };
}

function spawnWebWorker(events: ThreadEvents): Thread {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  worker.addEventListener('message', (event: MessageEvent<WorkerReply>) => events.reply(event.data));
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    events.died(event.message || 'it failed to load or crashed');
  });
  worker.addEventListener('messageerror', () => events.died('it sent a message that could not be read'));
  return { post: (message) => worker.postMessage(message), terminate: () => worker.terminate() };
}

export class Pool {
  /** Why the pool cannot be used any more; undefined while it can. */
  broken: string | undefined;
  private threads: Thread[] = [];

  private constructor(
    readonly size: number,
    /** The memory every thread hashes in; thread 0 is the calling thread, the workers 1 to size. */
    readonly memory: WebAssembly.Memory,
  ) {}

  /** Starts `size` workers on `memory` and resolves once every one is set up; rejects with the reason otherwise. */
  static async start(size: number, memory: WebAssembly.Memory, timeoutMs: number): Promise<Pool> {
    const pool = new Pool(size, memory);
    const ready: Promise<void>[] = [];
    for (let i = 0; i < size; i++) {
      ready.push(
        new Promise<void>((resolve, reject) => {
          const events: ThreadEvents = {
            reply: (reply) => {
              if (reply.type === 'ready') pool.threads[i]?.post({ type: 'ping', memory, thread: i + 1 });
              else if (reply.type === 'pong') resolve();
              else reject(new Error(reply.reason));
            },
            died: (reason) => {
              const text = `pool worker ${i + 1} of ${size} stopped: ${reason}`;
              pool.break(text);
              reject(new Error(text));
            },
          };
          if (inNode) spawnNodeThread(events).then((thread) => (pool.threads[i] = thread), reject);
          else pool.threads[i] = spawnWebWorker(events);
        }),
      );
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the pool workers were not ready within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([Promise.all(ready), late]);
    } catch (error) {
      pool.stop();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return pool;
  }

  /** A job for every worker. */
  post(job: Job): void {
    for (const thread of this.threads) thread.post(job);
  }

  /** Tells one worker to misbehave on its next piece (tests only). */
  injectFault(worker: number, fault: Fault): void {
    this.threads[worker].post({ type: 'fault', fault });
  }

  /** Marks the pool unusable with a reason (the first one stays) and stops its threads. */
  break(reason: string): void {
    this.broken ??= reason;
    this.stop();
  }

  stop(): void {
    for (const thread of this.threads) thread.terminate();
    this.threads = [];
  }
}
