// A stage's live profile taken off the page, for a browser that offers the JS
// Self-Profiling API in dedicated workers (Chromium does only behind two of its
// features, see src/core/profile/self-profiler.ts). The page starts it as a classic
// worker: Chromium reads the policy header of a classic worker's script, not yet of a
// module worker's. It runs the same slices as the page, so both profiles are alike.
import { expose } from 'comlink';
import { STAGES } from '../steps/index.ts';
import { canProfile, chooseSize, profileInSlices, testInput, type SizeChoice, type SlicedProfile } from '../src/core/profile/self-profiler.ts';

const api = {
  canProfile,
  async profile(index: number, wantedBytes: number, fallbackBytes: number, onProgress: (done: number) => void): Promise<SlicedProfile & { choice: SizeChoice }> {
    const { hash } = await STAGES[index].load();
    const choice = await chooseSize(hash, wantedBytes, fallbackBytes);
    return { ...(await profileInSlices(hash, testInput(choice.bytes), { onProgress })), choice };
  },
};

export type ProfileWorkerApi = typeof api;

expose(api);
