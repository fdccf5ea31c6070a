// One live profile of one stage on this machine: load the stage, choose an input that
// fits the page's slices, warm up, profile for about 2 s, convert. One per section; a
// new run or leaving the page cancels the one before.

import { STAGES } from '../../../steps/index.ts';
import { browserHost } from '../../bench/browser.ts';
import { fromSelfProfiling } from '../../core/profile/from-self-profiling.ts';
import type { StageProfile } from '../../core/profile/profile.ts';
import { Cancelled, chooseSize, profileOnPage, testInput } from './self-profiler.ts';

/** The stored profiles' small size: the input when the one asked for would not fit a slice. */
const FALLBACK_BYTES = 1024;

export class LiveProfile {
  status = $state<'idle' | 'running' | 'done' | 'failed'>('idle');
  /** 0 to 1 while running. */
  progress = $state(0);
  profile = $state.raw<StageProfile | undefined>();
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
    try {
      const stage = STAGES[index];
      const { hash } = await stage.load();
      const choice = await chooseSize(hash, wantedBytes, FALLBACK_BYTES, signal);
      const [page, host] = await Promise.all([
        profileOnPage(hash, testInput(choice.bytes), { signal, onProgress: (done) => (this.progress = done) }),
        browserHost(),
      ]);
      this.profile = fromSelfProfiling(page.trace, {
        stage: stage.id,
        inputBytes: choice.bytes,
        windows: page.windows,
        source: {
          tool: 'JS Self-Profiling API',
          engine: 'V8',
          runtime: host.runtimeVersion,
          cpu: `${host.cores} logical cores, ${host.os}`,
          intervalUs: page.intervalMs * 1000,
        },
      });
      this.tooSlow = choice.tooSlowMs === undefined ? undefined : { bytes: wantedBytes, ms: choice.tooSlowMs };
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
