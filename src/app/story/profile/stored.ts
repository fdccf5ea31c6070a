// The stored profiles, data/profiles/<stage id>.json (written by `npm run gen`), each a
// chunk of its own that downloads only when its stage's section opens. A stage without a
// file yet resolves to undefined, and the section says so.

import type { StageProfile, StoredProfiles } from '../../../core/profile/profile.ts';

const files = import.meta.glob<StoredProfiles>('/data/profiles/*.json', { import: 'default' });

export async function storedProfiles(stageId: string): Promise<StoredProfiles | undefined> {
  const load = files[`/data/profiles/${stageId}.json`];
  return load ? await load() : undefined;
}

/** The stored profile of one input size. */
export function atSize(stored: StoredProfiles | undefined, bytes: number): StageProfile | undefined {
  return stored?.profiles.find((profile) => profile.inputBytes === bytes);
}
