// The Go track's profiles (data/go/profiles/, scripts/go-profiles.ts): the conversion
// from pprof's text must give `go tool pprof -top`'s figures exactly; the stored profiles
// must back what the step pages say with them. A fresh run of every step staying within
// the stored one's bands is in tests/evidence/ (npm run test:evidence); npm test checks
// what they were made from (tests/evidence-inputs.test.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baseName, profileDrift } from '../src/core/profile/drift.ts';
import { parsePprofRaw, pprofToStageProfile } from '../src/core/profile/pprof.ts';
import { hottest, top, type StageProfile } from '../src/core/profile/profile.ts';
import { ALLOC_STEPS, type GoStepProfiles } from '../src/core/profile/go-profiles.ts';
import { ourTop, pprofTop } from './fixtures/pprof-top.ts';
import { goStageDirs } from '../scripts/go-evidence.ts';
import { formatProfiles, profilesDrift, profilesPath, releaseOf } from '../scripts/go-profiles.ts';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const stages = goStageDirs();
const stored = stages.map((stage) => JSON.parse(read(profilesPath(stage))) as GoStepProfiles);

const repoFile = (path: string) => (path.startsWith('blake2slab/') ? `go/${path.slice(11)}` : '');
const source = { tool: 'test', engine: 'go1.26.8', runtime: 'linux/amd64', cpu: 'test', intervalUs: 10_000 };

describe('pprof -raw into a StageProfile', () => {
  for (const [fixture, value] of [
    ['cpu-01-inline-g-1K', 'cpu'],
    ['alloc-04-memclr-8B', 'alloc_space'],
  ] as const) {
    it(`${fixture}: every function with pprof -top's flat, cum and inline label`, () => {
      const raw = parsePprofRaw(read(`tests/fixtures/pprof/${fixture}.raw.txt`));
      const profile = pprofToStageProfile(raw, { stage: fixture, source, value, inputBytes: 1024, repoFile });
      const expected = pprofTop(read(`tests/fixtures/pprof/${fixture}.top.txt`));
      expect(expected.size).toBeGreaterThan(8);
      expect(ourTop(profile)).toEqual(expected);
      expect(profile.tree.totalSamples).toBe(profile.samples);
    });
  }

  it('labels a function inlined only where every caller inlined it, as pprof does', () => {
    const cpu = pprofToStageProfile(parsePprofRaw(read('tests/fixtures/pprof/cpu-01-inline-g-1K.raw.txt')), {
      stage: '01-inline-g',
      source,
      value: 'cpu',
      inputBytes: 1024,
      repoFile,
    });
    expect(hottest(cpu)?.name).toBe('blake2slab/01-inline-g.g (inline)');
    expect(cpu.functions.find((f) => baseName(f.name) === 'blake2slab/01-inline-g.g')).toMatchObject({ file: 'go/01-inline-g/blake2s.go', kind: 'go' });
    const alloc = pprofToStageProfile(parsePprofRaw(read('tests/fixtures/pprof/alloc-04-memclr-8B.raw.txt')), {
      stage: '04-memclr',
      source,
      value: 'alloc_space',
      inputBytes: 8,
      repoFile,
    });
    // Reset is called by the benchmark and inlined into New: both kinds of caller.
    expect(hottest(alloc)?.name).toBe('blake2slab/04-memclr.(*Digest).Reset (partial-inline)');
    expect(alloc.unit).toBe('bytes');
    expect(top(alloc, 1)[0].flatMs).toBe(alloc.functions[0].selfSamples);
  });

  it('refuses text that is not pprof -raw output', () => {
    expect(() => parsePprofRaw(read('tests/fixtures/pprof/cpu-01-inline-g-1K.top.txt'))).toThrow(/pprof -raw/);
  });
});

describe('the drift bands', () => {
  const base = stored[1].cpu;
  const moved = (name: string, by: number): StageProfile => ({
    ...base,
    functions: base.functions.map((f) => (f.name === name ? { ...f, selfPercent: f.selfPercent + by } : f)),
  });
  const second = top(base, 2)[1].name;

  it('let a share move by up to 10 points', () => {
    expect(profileDrift(base, base)).toEqual([]);
    expect(profileDrift(base, moved(second, 9.9))).toEqual([]);
  });

  it('fail once a share moves by more, naming it', () => {
    expect(profileDrift(base, moved(second, 10.5))).toEqual([`${baseName(second)} flat: stored ${top(base, 2)[1].flatPercent}%, now ${top(base, 2)[1].flatPercent + 10.5}%`]);
  });

  it('fail when another function is the hottest, or the work differs', () => {
    const flipped = { ...base, functions: base.functions.map((f, i) => ({ ...f, selfSamples: i === 1 ? base.samples : f.selfSamples })) };
    expect(profileDrift(base, flipped)).toContain(`hottest function: stored ${baseName(hottest(base)!.name)}, now ${baseName(base.functions[1].name)}`);
    expect(profileDrift(base, { ...base, inputs: [{ bytes: 8, hashes: 1 }] })[0]).toMatch(/^inputs:/);
  });

  it('call another Go release a change of its own, not drift', () => {
    const other = { ...stored[1], cpu: { ...base, source: { ...base.source, engine: 'go1.99.1' } } };
    expect(profilesDrift(stored[1], other)).toEqual([`Go ${releaseOf(base.source.engine)} → go1.99`]);
  });
});

describe('the stored profiles', () => {
  it('exist for the six steps, marked generated, as the generator formats them', () => {
    expect(stages).toHaveLength(6);
    stored.forEach((p, i) => {
      expect(p.generated).toBe('Code generated by scripts/go-profiles.ts; DO NOT EDIT.');
      expect([p.stage, p.cpu.stage]).toEqual([stages[i], stages[i]]);
      expect(read(profilesPath(stages[i]))).toBe(formatProfiles(p));
      expect(p.alloc !== null).toBe(ALLOC_STEPS.includes(stages[i]));
      expect(p.cpu.samples, 'enough samples for 10-point bands').toBeGreaterThan(400);
      expect(p.commands.filter((c) => c.startsWith('GODEBUG=asyncpreemptoff=1 go test '))).toHaveLength(3);
    });
  });

  it('back the pages: g is the hottest function, a call of its own at stage 0 and inlined from stage 1 on', () => {
    expect(hottest(stored[0].cpu)?.name).toBe('blake2slab/00-baseline.g');
    for (const p of stored.slice(1)) expect(hottest(p.cpu)?.name).toBe(`blake2slab/${p.stage}.g (inline)`);
  });

  it('back the pages: Reset allocates nearly every byte at stages 3 and 4, and stage 5 allocates nothing per hash', () => {
    for (const p of stored.filter((s) => s.stage === '03-arrays' || s.stage === '04-memclr')) {
      expect(baseName(hottest(p.alloc!)!.name)).toBe(`blake2slab/${p.stage}.(*Digest).Reset`);
      expect(hottest(p.alloc!)!.selfPercent).toBeGreaterThan(95);
    }
    const last = stored.find((s) => s.stage === '05-reuse-buffers')!.alloc!;
    const hashes = last.inputs!.reduce((n, input) => n + input.hashes, 0);
    expect(last.samples / hashes, 'bytes per hash').toBeLessThan(1);
    expect(last.functions.map((f) => baseName(f.name))).not.toContain('blake2slab/05-reuse-buffers.(*Digest).Reset');
  });
});
