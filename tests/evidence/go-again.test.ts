// The Go track's stored evidence, made again with the Go toolchain: the compiler's
// decisions (go/<step>/evidence.json) exactly, and every step's profiles
// (data/go/profiles/) within the stored bands, converted to exactly what `pprof -top`
// prints. Run alone by `npm run test:evidence`, with the Go release that recorded them:
// releases inline differently. Without Go it is skipped, with a note.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateGoEvidence, goMissing, goRelease, goStageDirs, storedGoEvidence } from '../../scripts/go-evidence.ts';
import { profilesDrift, profilesPath, profileStep, releaseOf } from '../../scripts/go-profiles.ts';
import type { GoStepProfiles } from '../../src/core/profile/go-profiles.ts';
import { ourTop, pprofTop } from '../fixtures/pprof-top.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const stages = goStageDirs();
const stored = stages.map((stage) => JSON.parse(read(profilesPath(stage))) as GoStepProfiles);
const missing = goMissing();
if (missing !== null) console.warn(`go-again: ${missing}: the Go track's evidence is not made again here`);

describe.skipIf(missing !== null)('the Go track, made again', () => {
  it('has compiler evidence that matches the code (npm run gen rewrites it)', ({ skip }) => {
    const recordedRelease = /^(go\d+\.\d+) /.exec(storedGoEvidence(stages[0]).toolchain)?.[1];
    if (recordedRelease !== goRelease()) {
      skip(`the evidence was recorded with ${recordedRelease} and this machine has ${goRelease()}: inlining costs differ between Go releases`);
    }
    for (const file of generateGoEvidence()) expect(read(file.path) === file.text, `${file.path} is stale: run npm run gen`).toBe(true);
  }, 120_000);

  it('has profiles within the stored bands, converted to exactly what pprof -top prints', ({ skip }) => {
    const storedRelease = releaseOf(stored[0].cpu.source.engine);
    if (goRelease() !== storedRelease) {
      skip(`the profiles were taken with ${storedRelease} and this machine has ${goRelease()}: releases inline differently`);
    }
    const problems: string[] = [];
    for (const [i, stage] of stages.entries()) {
      const fresh = profileStep(stage);
      problems.push(...profilesDrift(stored[i], fresh.profiles).map((p) => `${profilesPath(stage)}: ${p}`));
      expect(ourTop(fresh.profiles.cpu), `${stage} cpu`).toEqual(pprofTop(fresh.top.cpu));
      if (fresh.profiles.alloc) expect(ourTop(fresh.profiles.alloc), `${stage} alloc`).toEqual(pprofTop(fresh.top.alloc!));
    }
    expect(problems, 'run npm run gen if the code changed').toEqual([]);
  }, 900_000);
});
