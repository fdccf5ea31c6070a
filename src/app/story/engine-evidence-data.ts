// The stored V8 evidence and CPU profiles of every stage (data/v8/ and data/profiles/,
// written by npm run gen), for the app.
import { STAGES } from '../../../steps/index.ts';
import type { V8Evidence } from '../../core/evidence/v8-evidence.ts';
import type { StageProfile, StoredProfiles } from '../../core/profile/profile.ts';

const EVIDENCE = import.meta.glob<V8Evidence>('/data/v8/*.ts', { import: 'default', eager: true });
const PROFILES = import.meta.glob<StoredProfiles>('/data/profiles/*.json', { import: 'default', eager: true });

/** What V8 reported about the stage at `index`. */
export function v8Evidence(index: number): V8Evidence {
  const id = STAGES[index].id;
  const evidence = EVIDENCE[`/data/v8/${id}.ts`];
  if (!evidence) throw new Error(`data/v8/${id}.ts is missing: run npm run gen`);
  return evidence;
}

/** The stored profile of the stage at `index` hashing `bytes` (1 KiB or 64 KiB), if there is one. */
export function storedProfile(index: number, bytes: number): StageProfile | undefined {
  return PROFILES[`/data/profiles/${STAGES[index].id}.json`]?.profiles.find((p) => p.inputBytes === bytes);
}
