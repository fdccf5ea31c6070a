// The app's side of the playground's sandbox: one hidden iframe showing /sandbox.html,
// whose own header (`sandbox allow-scripts`, src/core/site/sandbox-headers.ts) makes it an
// opaque origin with no access to the app's storage, cookies or drafts, and which starts
// a worker per contestant on request. The app talks to each worker over its own
// MessagePort with comlink, exactly as the bench page talks to its workers, so the bench
// coordinator (src/core/bench/runner.ts) drives drafts unchanged: a worker that hangs is
// terminated, one that dies is reported.
//
// Messages from the frame are only trusted to say "ready" and "exited": results come
// back over the ports as data and are shown as text, never as markup. A frame that does
// not say "ready" from an opaque origin is given no code, and one that never says it is
// reported as a sandbox that did not load, apart from anything a draft does.

import { wrap } from 'comlink';
import coreUrl from '../../../workers/playground.worker.ts?worker&url';
import { WorkerDied, startedWorker, type StartedWorker } from '../../core/worker.ts';
import type { BenchCore } from '../../core/bench/core-protocol.ts';
import type { PlaygroundCore } from '../../core/playground/serve.ts';
import type { Program } from '../../core/playground/link.ts';

export const SANDBOX_URL = '/sandbox.html';

/** How long the frame may take to load and say it is ready. */
const READY_TIMEOUT_MS = 15_000;

/**
 * How long "ready" may trail the frame's load event: the page says it while it loads, but
 * the message and the event reach the app separately. A frame that loaded an error page
 * in place of the sandbox is told apart this soon, not after READY_TIMEOUT_MS.
 */
const READY_AFTER_LOAD_MS = 2_000;

/** A worker in the sandbox: the bench core, and the playground's checks. */
export type SandboxWorker = StartedWorker<BenchCore & PlaygroundCore>;

type FrameMessage = { type: 'ready'; crossOriginIsolated: boolean } | { type: 'exited'; id: number; message: string };

/** Every failure to start the sandbox says so first, so none reads as the draft's fault. */
const didNotLoad = (reason: string) => new Error(`the sandbox did not load: ${reason}`);

async function fetchCore(): Promise<string> {
  const response = await fetch(coreUrl).catch((error: unknown) => {
    throw didNotLoad(`the playground's worker could not be fetched (${error instanceof Error ? error.message : String(error)})`);
  });
  if (!response.ok) throw didNotLoad(`the playground's worker could not be fetched (HTTP ${response.status})`);
  const source = await response.text();
  // A development server hands out modules that import others by URL; the sandbox
  // cannot fetch anything, so only the built app's single-file bundle can run there.
  if (/^\s*import\s*["'{*\w]/m.test(source)) {
    throw didNotLoad("the playground's worker is not a single-file bundle: run the built app (npm start), not the development server");
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
  private frameFailed: (reason: string) => void = () => {};
  private readonly timers: ReturnType<typeof setTimeout>[] = [];
  private readonly ready: Promise<void>;
  private readonly onMessage = (event: MessageEvent) => this.receive(event);

  constructor(parent: HTMLElement = document.body) {
    this.frame = document.createElement('iframe');
    // No sandbox attribute: the page's own header sandboxes it, and Chromium hands no
    // navigation of a frame sandboxed by its attribute to the service worker, so such a
    // frame would not load offline.
    // Lets the frame's workers keep the app's fine-grained timer (the page is cross-origin
    // isolated). For any origin: the default, the origin of the frame's address, is not the
    // opaque origin its header gives the page, and Chromium then denies the page isolation.
    this.frame.setAttribute('allow', 'cross-origin-isolated *');
    this.frame.title = 'Playground sandbox';
    this.frame.hidden = true;
    this.frame.dataset.playgroundSandbox = '';
    const frameReady = new Promise<void>((resolve, reject) => {
      this.frameReady = resolve;
      this.frameFailed = (reason) => reject(didNotLoad(reason));
    });
    this.timers.push(setTimeout(() => this.frameFailed(`${SANDBOX_URL} did not start within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS));
    this.frame.addEventListener('load', () => {
      this.timers.push(setTimeout(() => this.frameFailed(`${SANDBOX_URL} could not be fetched, or is not the sandbox page`), READY_AFTER_LOAD_MS));
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
      // Served without its header, the page would share the app's origin and storage.
      if (event.origin !== 'null') return this.frameFailed(`${SANDBOX_URL} came without its sandbox policy, so no code is sent to it`);
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
    for (const timer of this.timers) clearTimeout(timer);
    removeEventListener('message', this.onMessage);
    for (const reject of this.exits.values()) reject(new WorkerDied('the sandbox was closed'));
    this.exits.clear();
    this.frame.remove();
  }
}
