// One live profile of one stage on this machine: load the stage, choose an input that
// fits the slices, warm up, profile for about 2 s, convert. In a worker where the
// browser lets one profile, on the page where not. One per section; a new run or
// leaving the page cancels the one before.

import { proxy } from 'comlink';
import { STAGES } from '../../../../steps/index.ts';
import type { ProfileWorkerApi } from '../../../../workers/profile.worker.ts';
import { fromSelfProfiling } from '../../../core/profile/from-self-profiling.ts';
import type { StageProfile } from '../../../core/profile/profile.ts';
import { startWorker } from '../../ui/run/start-worker.ts';
import { Cancelled, chooseSize, profileInSlices, testInput, type SizeChoice, type SlicedProfile } from '../../../core/profile/self-profiler.ts';

/** The stored profiles' small size: the input when the one asked for would not fit a slice. */
const FALLBACK_BYTES = 1024;

type Taken = SlicedProfile & { choice: SizeChoice };

/** Whether this browser's workers can profile: asked once, of the first worker started. */
let workersProfile: boolean | undefined;

/** A profile taken in a worker, or undefined when workers here cannot profile. */
async function inWorker(index: number, wanted: number, signal: AbortSignal, onProgress: (done: number) => void): Promise<Taken | undefined> {
  if (workersProfile === false) return undefined;
  // Classic, not a module: see workers/profile.worker.ts.
  const worker = startWorker<ProfileWorkerApi>(new Worker(new URL('../../../../workers/profile.worker.ts', import.meta.url), { name: 'profile' }), 'the profiling worker');
  // Stopped at once on cancel, even in the middle of a profile.
  signal.addEventListener('abort', worker.stop);
  try {
    // A worker that cannot start counts as one that cannot profile: the page still can.
    workersProfile = await worker.call((api) => api.canProfile(), { signal }).catch((error) => {
      if (error instanceof Cancelled) throw error;
      return false;
    });
    if (!workersProfile) return undefined;
    return await worker.call((api) => api.profile(index, wanted, FALLBACK_BYTES, proxy(onProgress)), { signal });
  } finally {
    signal.removeEventListener('abort', worker.stop);
    worker.stop();
  }
}

async function onPage(index: number, wanted: number, signal: AbortSignal, onProgress: (done: number) => void): Promise<Taken> {
  const { hash } = await STAGES[index].load();
  const choice = await chooseSize(hash, wanted, FALLBACK_BYTES, signal);
  return { ...(await profileInSlices(hash, testInput(choice.bytes), { signal, onProgress })), choice };
}

export class LiveProfile {
  status = $state<'idle' | 'running' | 'done' | 'failed'>('idle');
  /** 0 to 1 while running. */
  progress = $state(0);
  profile = $state.raw<StageProfile | undefined>();
  /** Where the profile was taken. */
  where = $state<'worker' | 'page'>('page');
  /** The size asked for and how long one hash of it would have taken, when it did not fit a slice. */
  tooSlow = $state.raw<{ bytes: number; ms: number } | undefined>();
  error = $state('');
  #controller: AbortController | undefined;

  async run(index: number, wantedBytes: number): Promise<void> {
    this.cancel();
    const controller = new AbortController();
    this.#controller = controller;
    const { signal } = controller;
    this.status = 'running';
    this.progress = 0;
    this.error = '';
    const onProgress = (done: number) => (this.progress = done);
    try {
      // Which browser this is comes from the bench's module, which loads with the first profile, not with the section.
      const host = import('../../ui/run/browser.ts').then(({ browserHost }) => browserHost());
      const [worker, { runtimeVersion, cores, os }] = await Promise.all([inWorker(index, wantedBytes, signal, onProgress), host]);
      const taken = worker ?? (await onPage(index, wantedBytes, signal, onProgress));
      const stage = STAGES[index];
      this.where = worker ? 'worker' : 'page';
      this.profile = fromSelfProfiling(taken.trace, {
        stage: stage.id,
        inputBytes: taken.choice.bytes,
        windows: taken.windows,
        source: {
          tool: `JS Self-Profiling API, ${worker ? 'in a Web Worker' : 'on the page'}`,
          engine: 'V8',
          runtime: runtimeVersion,
          cpu: `${cores} logical cores, ${os}`,
          intervalUs: taken.intervalMs * 1000,
        },
      });
      this.tooSlow = taken.choice.tooSlowMs === undefined ? undefined : { bytes: wantedBytes, ms: taken.choice.tooSlowMs };
      this.status = 'done';
    } catch (error) {
      if (error instanceof Cancelled) return;
      this.error = error instanceof Error ? error.message : String(error);
      this.status = 'failed';
    } finally {
      if (this.#controller === controller) this.#controller = undefined;
    }
  }

  cancel(): void {
    this.#controller?.abort();
  }
}
