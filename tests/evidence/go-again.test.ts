// The Go track's stored evidence, made again with the Go toolchain: the compiler's
// decisions (go/<step>/evidence.json) exactly, and every step's profiles
// (data/go/profiles/) converted to exactly what `pprof -top` prints and within the
// stored bands. Run alone by `npm run test:evidence`. The compiler's decisions and the
// bands are compared only with the Go release that recorded them (releases inline
// differently), the bands only on the processor too (another processor spends its time
// elsewhere: on an Intel Xeon, step 1's hottest function is compress, not g as on the
// AMD EPYC that stored it); elsewhere either is told, not compared. Without Go it is
// skipped, with a note.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateGoEvidence, goMissing, goRelease, goStageDirs, storedGoEvidence } from '../../scripts/go-evidence.ts';
import { profilesDrift, profilesPath, profileStep, releaseOf, type FreshProfiles } from '../../scripts/go-profiles.ts';
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

  // Every step profiled once, for both checks below.
  let fresh: FreshProfiles[];
  beforeAll(() => {
    fresh = stages.map((stage) => profileStep(stage));
  }, 900_000);

  it('converts every fresh profile to exactly what pprof -top prints', () => {
    for (const [i, stage] of stages.entries()) {
      expect(ourTop(fresh[i].profiles.cpu), `${stage} cpu`).toEqual(pprofTop(fresh[i].top.cpu));
      if (fresh[i].profiles.alloc) expect(ourTop(fresh[i].profiles.alloc!), `${stage} alloc`).toEqual(pprofTop(fresh[i].top.alloc!));
    }
  });

  it('has profiles within the stored bands (npm run gen rewrites them)', ({ skip }) => {
    const { engine, cpu } = stored[0].cpu.source;
    if (goRelease() !== releaseOf(engine)) {
      skip(`the profiles were taken with ${releaseOf(engine)} and this machine has ${goRelease()}: releases inline differently`);
    }
    const here = fresh[0].profiles.cpu.source.cpu;
    if (cpu !== here) {
      skip(`the profiles were taken on ${cpu} and this is ${here}: another processor spends its time elsewhere, so they are compared only on the same one`);
    }
    const problems = stages.flatMap((stage, i) => profilesDrift(stored[i], fresh[i].profiles).map((p) => `${profilesPath(stage)}: ${p}`));
    expect(problems, 'run npm run gen if the code changed').toEqual([]);
  });
});
