// The stored CPU profiles (data/profiles/), measured again: a fresh run of every stage must
// keep the same hottest function and every share within the bands of
// src/core/profile/bands.ts. Run alone by `npm run test:evidence`, under the V8 and on the
// processor that stored them: another V8 inlines differently, another processor spends its
// time elsewhere, so either is told, not compared (`npm run gen` there takes them anew).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../../steps/index.ts';
import { generateProfiles, profilePath, STORED_SETTINGS } from '../../scripts/profiles.ts';
import type { StoredProfiles } from '../../src/core/profile/profile.ts';
import { cpuName } from '../../src/node/profile/node-profile.ts';

const stored = STAGES.map((stage) => JSON.parse(readFileSync(new URL(`../../${profilePath(stage.id)}`, import.meta.url), 'utf8')) as StoredProfiles);
const source = stored[0].profiles[0].source;

describe('stored CPU profiles, measured again', () => {
  it('agree with a fresh run of every stage within the bands (npm run gen rewrites them)', async ({ skip }) => {
    if (source.engine !== process.versions.v8) {
      skip(`the profiles were taken under V8 ${source.engine} and this Node runs V8 ${process.versions.v8}: V8 versions inline and optimize differently, so they are compared only under the same one`);
    }
    if (source.cpu !== cpuName()) {
      skip(`the profiles were taken on ${source.cpu} and this is ${cpuName()}: another processor spends its time elsewhere, so they are compared only on the same one`);
    }
    const started = performance.now();
    const problems: string[] = [];
    const again: string[] = [];
    // Alone on the machine, the stored runs' own length: 4000 samples, a share near 50% good to about ±1.6 points.
    for (const file of await generateProfiles(STORED_SETTINGS, (what) => what.includes(' again ') && again.push(what))) {
      if (file.changes.length > 0) problems.push(`${file.path} (run npm run gen):\n  ${file.changes.join('\n  ')}`);
    }
    console.log(`profiles: every stage profiled again in ${((performance.now() - started) / 1000).toFixed(0)} s${again.length ? `; a second time: ${again.join(', ')}` : ''}`);
    expect(problems).toEqual([]);
  }, 900_000);
});
