// Shares of the stored profiles (data/profiles/, V8's sampling profiler in Node, written by
// npm run gen) that the stories' profile notes quote, and the heap figures of the stored
// V8 traces (data/v8/) they quote besides, by the `{name}` their Markdown writes.
// tests/story-claims.test.ts holds each note's claim against the same data.

import { STAGES } from '../../../steps/index.ts';
import { storedProfile, v8Evidence } from './engine-evidence-data.ts';
import { evidenceRows } from '../../core/evidence/v8-why.ts';

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

/** A row of the V8 table for a stage against the one before, as the page shows it. */
function v8Row(index: number, id: string): { then: string; now: string } {
  const row = evidenceRows(v8Evidence(index), v8Evidence(index - 1)).find((r) => r.id === id);
  if (!row?.then) throw new Error(`data/v8: no ${id} row for stage ${index}`);
  return { then: row.then, now: row.now };
}

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
    'v8-3-mib-before': v8Row(3, 'mib').then,
    'v8-3-mib-after': v8Row(3, 'mib').now,
  };
}
