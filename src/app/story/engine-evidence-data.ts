// The stored V8 evidence and CPU profiles of every stage (data/v8/ and data/profiles/,
// written by npm run gen), for the app.
import { STAGES } from '../../../steps/index.ts';
import { readV8Evidence, type V8Evidence } from '../../core/evidence/v8-evidence.ts';
import type { StageProfile, StoredProfiles } from '../../core/profile/profile.ts';

const EVIDENCE = import.meta.glob<unknown>('/data/v8/*.json', { import: 'default', eager: true });
const PROFILES = import.meta.glob<StoredProfiles>('/data/profiles/*.json', { import: 'default', eager: true });

const checked = new Map<number, V8Evidence>();

/** What V8 reported about the stage at `index`, its file checked when first read. */
export function v8Evidence(index: number): V8Evidence {
  const path = `data/v8/${STAGES[index].id}.json`;
  if (!checked.has(index)) {
    const evidence = EVIDENCE[`/${path}`];
    if (!evidence) throw new Error(`${path} is missing: run npm run gen`);
    checked.set(index, readV8Evidence(evidence, path));
  }
  return checked.get(index)!;
}

/** The stored profile of the stage at `index` hashing `bytes` (1 KiB or 64 KiB), if there is one. */
export function storedProfile(index: number, bytes: number): StageProfile | undefined {
  return PROFILES[`/data/profiles/${STAGES[index].id}.json`]?.profiles.find((p) => p.inputBytes === bytes);
}
