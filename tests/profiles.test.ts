// The stored CPU profiles (data/profiles/, scripts/profiles.ts): there for every stage at
// both sizes, marked generated, consistent in their counts, pointing where the lesson
// says, and in agreement with a fresh run within the bands (src/core/profile/bands.ts):
// the same hottest function, every share within 10 points, in tests/evidence/ (npm run
// test:evidence); npm test checks what they were made from (tests/evidence-inputs.test.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { GENERATED, PROFILE_SIZES, profilePath, STORED_SETTINGS } from '../scripts/profiles.ts';
import { profileDisagreements, SHARE_BAND_POINTS } from '../src/core/profile/bands.ts';
import { FOLD_BELOW_PERCENT } from '../src/core/profile/from-v8.ts';
import { hottest, percent, type CallNode, type StageProfile, type StoredProfiles } from '../src/core/profile/profile.ts';
import { NODE_TOOL, PROFILE_INTERVAL_US } from '../src/node/profile/node-profile.ts';

const stored = STAGES.map((stage) => JSON.parse(readFileSync(new URL(`../${profilePath(stage.id)}`, import.meta.url), 'utf8')) as StoredProfiles);
const at = (index: number, bytes: number) => stored[index].profiles.find((p) => p.inputBytes === bytes)!;
const KiB = 1024;

function treeProblems(node: CallNode, minimum: number, path = 'root'): string[] {
  const childTotal = node.children.reduce((n, child) => n + child.totalSamples, 0);
  const problems = node.selfSamples + childTotal === node.totalSamples ? [] : [`${path}: self + children != total`];
  for (const child of node.children) {
    if (child.totalSamples < minimum) problems.push(`${path}/${child.fn}: under ${FOLD_BELOW_PERCENT}% and not folded`);
    problems.push(...treeProblems(child, minimum, `${path}/${child.fn}`));
  }
  return problems;
}

describe('stored CPU profiles', () => {
  it('exist for every stage, marked generated, at 1 KiB and 64 KiB, with enough samples', () => {
    for (const stage of STAGES) {
      const file = stored[stage.index];
      expect(file.generated).toBe(GENERATED);
      expect(file.stage).toBe(stage.id);
      expect(file.profiles.map((p) => p.inputBytes)).toEqual(PROFILE_SIZES);
      for (const p of file.profiles) {
        expect(p.stage).toBe(stage.id);
        expect(p.source).toMatchObject({ tool: NODE_TOOL, intervalUs: PROFILE_INTERVAL_US });
        for (const what of [p.source.engine, p.source.runtime, p.source.cpu]) expect(what.length).toBeGreaterThan(3);
        // About ±2 points at 95% needs some 2500 samples; the generator asks for 4000.
        expect(p.samples, `${stage.id} at ${p.inputBytes} B`).toBeGreaterThanOrEqual(STORED_SETTINGS.minSamples);
      }
    }
  });

  it('count consistently: self shares add up to every sample, shares follow the counts, the tree is folded', () => {
    for (const p of stored.flatMap((file) => file.profiles)) {
      const where = `${p.stage} at ${p.inputBytes} B`;
      expect(p.functions.reduce((n, f) => n + f.selfSamples, 0), where).toBe(p.samples);
      for (const f of p.functions) {
        expect(f.selfPercent, `${where} ${f.name}`).toBe(percent(f.selfSamples, p.samples));
        expect(f.totalPercent, `${where} ${f.name}`).toBe(percent(f.totalSamples, p.samples));
        expect(f.totalSamples).toBeGreaterThanOrEqual(f.selfSamples);
      }
      expect(p.functions.map((f) => f.selfSamples)).toEqual(p.functions.map((f) => f.selfSamples).sort((a, b) => b - a));
      // The engine's buckets are rows of their own.
      expect(p.functions.filter((f) => ['gc', 'program', 'idle'].includes(f.kind)).map((f) => f.name).sort()).toEqual(['(garbage collector)', '(idle)', '(program)']);
      expect(p.tree.totalSamples).toBe(p.samples);
      expect(treeProblems(p.tree, (p.samples * FOLD_BELOW_PERCENT) / 100), where).toEqual([]);
      // Every file named is the repository's, or Node's own.
      for (const f of p.functions.filter((f) => f.kind === 'js' || f.kind === 'wasm')) expect(f.file, where).toMatch(/^(steps|src)\/[\w/.-]+\.ts$/);
    }
  });

  it('point where the lesson says: the reader inlined in stage 0, g then compress, WebAssembly from stage 9', () => {
    const hot = (index: number, bytes: number) => hottest(at(index, bytes))!;
    // Stage 0's reader runs inside chunkChainingValue (inlined): the caller holds its time.
    expect(hot(0, 64 * KiB).name).toBe('chunkChainingValue');
    for (const index of [1, 2, 3]) expect(hot(index, 64 * KiB).name, STAGES[index].id).toBe('g');
    for (const index of [4, 5, 6, 7, 8]) for (const bytes of PROFILE_SIZES) expect(hot(index, bytes).name, STAGES[index].id).toBe('compress');
    for (const index of [9, 10, 11]) expect(hot(index, 64 * KiB)).toMatchObject({ name: 'compress4x', kind: 'wasm' });
    for (const index of [10, 11]) expect(hot(index, KiB)).toMatchObject({ name: 'compress1xRows', kind: 'wasm' });
    for (const index of [0, 1, 2, 3, 4, 5, 6, 7, 8]) {
      expect(stored[index].profiles.flatMap((p) => p.functions).filter((f) => f.kind === 'wasm'), STAGES[index].id).toEqual([]);
    }
    // Stage 11's pool is not sampled, and the profile says so.
    for (const p of stored[11].profiles) expect(p.note).toMatch(/^Only the calling thread is sampled/);
  });

  it('compare in bands: a copy agrees; a share 10.1 points off, or another hottest function, does not', () => {
    const p = at(5, 64 * KiB);
    expect(profileDisagreements(p, structuredClone(p))).toEqual([]);
    const shifted = (points: number): StageProfile => {
      const copy = structuredClone(p);
      copy.functions[1].selfPercent += points;
      return copy;
    };
    expect(profileDisagreements(p, shifted(SHARE_BAND_POINTS))).toEqual([]);
    expect(profileDisagreements(p, shifted(SHARE_BAND_POINTS + 0.1))).toEqual([
      expect.stringMatching(/self share stored [\d.]+%, now [\d.]+% \(more than 10 points apart\)$/),
    ]);
    const swapped = structuredClone(p);
    const [first, second] = swapped.functions.filter((f) => f.kind === 'js' || f.kind === 'wasm');
    [first.selfSamples, second.selfSamples] = [second.selfSamples, first.selfSamples];
    expect(profileDisagreements(p, swapped)).toEqual([expect.stringMatching(/^hottest function: stored compress /)]);
  });
});
