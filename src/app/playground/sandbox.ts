// The app's side of the playground's sandbox: one hidden <iframe sandbox="allow-scripts">
// (an opaque origin: no access to the app's storage, cookies or drafts) showing
// /sandbox.html, which starts a module worker per contestant on request. The app talks
// to each worker over its own MessagePort with comlink, exactly as the bench page
// talks to its workers, so the bench coordinator (src/core/bench/runner.ts) drives drafts
// unchanged: a worker that hangs is terminated, one that dies is reported.
//
// Messages from the frame are only trusted to say "ready" and "exited": results come
// back over the ports as data and are shown as text, never as markup.

import { wrap } from 'comlink';
import coreUrl from '../../../workers/playground.worker.ts?worker&url';
import { WorkerDied, startedWorker, type StartedWorker } from '../../core/worker.ts';
import type { BenchCore } from '../../core/bench/core-protocol.ts';
import type { PlaygroundCore } from '../../core/playground/serve.ts';
import type { Program } from '../../core/playground/link.ts';

export const SANDBOX_URL = '/sandbox.html';

/** How long the frame may take to load and say it is ready. */
const READY_TIMEOUT_MS = 15_000;

/** A worker in the sandbox: the bench core, and the playground's checks. */
export type SandboxWorker = StartedWorker<BenchCore & PlaygroundCore>;

type FrameMessage = { type: 'ready'; crossOriginIsolated: boolean } | { type: 'exited'; id: number; message: string };

async function fetchCore(): Promise<string> {
  const response = await fetch(coreUrl);
  if (!response.ok) throw new Error(`the playground's worker could not be loaded (HTTP ${response.status}); reload the page`);
  const source = await response.text();
  // A development server hands out modules that import others by URL; the sandbox
  // cannot fetch anything, so only the built app's single-file bundle can run there.
  if (/^\s*import\s*["'{*\w]/m.test(source)) {
    throw new Error("the playground's worker is not a single-file bundle: run the built app (npm start), not the development server");
  }
  return source;
}

export class Sandbox {
  /** Whether workers in the sandbox get the fine-grained timer of a cross-origin isolated page. */
  crossOriginIsolated = false;
  private readonly frame: HTMLIFrameElement;
  private readonly exits = new Map<number, (error: WorkerDied) => void>();
  private nextId = 1;
  private frameReady: () => void = () => {};
  private readonly ready: Promise<void>;
  private readonly onMessage = (event: MessageEvent) => this.receive(event);

  constructor(parent: HTMLElement = document.body) {
    this.frame = document.createElement('iframe');
    // allow-scripts and nothing else: no allow-same-origin, so the frame's origin is opaque.
    this.frame.setAttribute('sandbox', 'allow-scripts');
    // Lets the frame's workers keep the app's fine-grained timer (the page is cross-origin isolated).
    this.frame.setAttribute('allow', 'cross-origin-isolated');
    this.frame.title = 'Playground sandbox';
    this.frame.hidden = true;
    this.frame.dataset.playgroundSandbox = '';
    const frameReady = new Promise<void>((resolve, reject) => {
      this.frameReady = resolve;
      setTimeout(() => reject(new Error('the sandbox did not start; reload the page')), READY_TIMEOUT_MS);
    });
    addEventListener('message', this.onMessage);
    this.frame.src = SANDBOX_URL;
    parent.append(this.frame);
    this.ready = Promise.all([frameReady, fetchCore()]).then(([, source]) => this.post({ type: 'core', source }));
    this.ready.catch(() => {});
  }

  private post(message: unknown, transfer: Transferable[] = []): void {
    // An opaque origin has no name to target; the messages carry code and ports, no secrets.
    this.frame.contentWindow?.postMessage(message, '*', transfer);
  }

  private receive(event: MessageEvent): void {
    if (event.source !== this.frame.contentWindow || !event.data || typeof event.data !== 'object') return;
    const data = event.data as FrameMessage;
    if (data.type === 'ready') {
      this.crossOriginIsolated = data.crossOriginIsolated === true;
      this.frameReady();
    } else if (data.type === 'exited' && typeof data.id === 'number') {
      const message = typeof data.message === 'string' ? data.message.slice(0, 500) : 'the worker stopped';
      this.exits.get(data.id)?.(new WorkerDied(message));
      this.exits.delete(data.id);
    }
  }

  /** Resolves once the frame has loaded and holds the worker code. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** A new worker in the sandbox serving `programs`; usable at once (calls wait for the frame). */
  startWorker(programs: Program[]): SandboxWorker {
    const id = this.nextId++;
    const channel = new MessageChannel();
    const failed = new Promise<never>((_, reject) => this.exits.set(id, reject));
    this.ready.then(
      () => this.post({ type: 'spawn', id, programs }, [channel.port2]),
      (error) => this.exits.get(id)?.(new WorkerDied(error instanceof Error ? error.message : String(error))),
    );
    return startedWorker(wrap<BenchCore & PlaygroundCore>(channel.port1), failed, () => {
      this.exits.delete(id);
      channel.port1.close();
      this.post({ type: 'terminate', id });
    });
  }

  /** Removes the frame: every worker in it stops. */
  close(): void {
    removeEventListener('message', this.onMessage);
    for (const reject of this.exits.values()) reject(new WorkerDied('the sandbox was closed'));
    this.exits.clear();
    this.frame.remove();
  }
}
