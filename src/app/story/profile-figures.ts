// Shares of the stored profiles (data/profiles/, V8's sampling profiler in Node, written by
// npm run gen) that the stories' profile notes quote, by the `{name}` their Markdown
// writes. tests/story-claims.test.ts holds each note's claim against the same shares.

import { STAGES } from '../../../steps/index.ts';
import { storedProfile } from './engine-evidence-data.ts';

/** The size the notes read the profiles at. */
export const NOTE_BYTES = 64 * 1024;

/** Percent of a stage's samples in the named functions' own code (0 for a name the profile lacks). */
export function selfShare(index: number, names: string[], bytes = NOTE_BYTES): number {
  const profile = storedProfile(index, bytes);
  if (!profile) throw new Error(`data/profiles/${STAGES[index].id}.json has no profile at ${bytes} bytes: run npm run gen`);
  const total = profile.functions.filter((f) => names.includes(f.name)).reduce((sum, f) => sum + f.selfSamples, 0);
  return (100 * total) / profile.samples;
}

const share = (index: number, ...names: string[]) => `${selfShare(index, names).toFixed(1)}%`;

export function profileFigures(): Record<string, string> {
  return {
    'profile-2-round-compress': share(2, 'round', 'compress'),
    'profile-3-compress': share(3, 'compress'),
    'profile-2-g': share(2, 'g'),
    'profile-3-g': share(3, 'g'),
    'profile-4-ccv': share(4, 'chunkChainingValue'),
    'profile-7-ccv': share(7, 'chunkChainingValue'),
    'profile-7-hash': share(7, 'hash'),
    'profile-8-hash': share(8, 'hash'),
    'profile-8-hashinput': share(8, 'hashInput'),
  };
}
