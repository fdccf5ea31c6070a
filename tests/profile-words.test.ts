// What "Where the time goes" says and draws, from profiles made by hand: the marks, the
// sentence that ties a profile to its change, the verdict on a live profile beside the
// stored one, and the icicle's boxes. Also that every stage's profile facts name
// functions its code has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CallNode, FunctionKind, StageProfile } from '../src/core/profile/profile.ts';
import { changeSentence, codeList, comparisonWords, isChanged, shareOf, withinNoise, compareHottest } from '../src/app/story/profile/profile-words.ts';
import { formatSize } from '../src/core/format.ts';
import { icicleBoxes, widestPath } from '../src/app/story/profile/icicle.ts';
import { STORIES } from '../src/app/story/narrative.ts';
import type { ProfileFacts } from '../src/app/ui/lesson/story-types.ts';
import { STAGES } from '../steps/index.ts';

/** A profile of `samples` samples whose functions have the given self samples, called in a chain from the first. */
function profile(self: [name: string, samples: number, kind?: FunctionKind][], runtime = 'v20.20.2'): StageProfile {
  const samples = self.reduce((sum, [, n]) => sum + n, 0);
  const functions = self.map(([name, n, kind = 'js']) => ({
    name,
    file: '',
    line: 0,
    kind,
    selfSamples: n,
    totalSamples: n,
    selfPercent: Math.round((1000 * n) / samples) / 10,
    totalPercent: Math.round((1000 * n) / samples) / 10,
  }));
  // A flat tree: every function called from the root.
  const tree: CallNode = {
    fn: -1,
    selfSamples: 0,
    totalSamples: samples,
    children: functions.map((f, fn) => ({ fn, selfSamples: f.selfSamples, totalSamples: f.totalSamples, children: [] })),
  };
  return {
    stage: 's',
    source: { tool: 'V8 sampling profiler', engine: '11.3.244.8-node.38', runtime, cpu: 'cpu', intervalUs: 100 },
    inputBytes: 65536,
    durationMs: samples,
    samples,
    functions,
    tree,
  };
}

const facts = (over: Partial<ProfileFacts> = {}): ProfileFacts => ({ changes: ['compress'], watch: ['compress'], ...over });

describe('the marks and shares', () => {
  it('marks the functions a stage changes, and every WebAssembly function when its WebAssembly changes', () => {
    expect(isChanged(facts(), { name: 'compress', kind: 'js' })).toBe(true);
    expect(isChanged(facts(), { name: 'hash', kind: 'js' })).toBe(false);
    expect(isChanged(facts(), { name: 'wasm-function[0]', kind: 'wasm' })).toBe(false);
    expect(isChanged(facts({ changesWasm: true }), { name: 'wasm-function[0]', kind: 'wasm' })).toBe(true);
  });

  it('adds the self shares of the functions named, a missing one as 0', () => {
    const p = profile([['g', 50], ['compress', 30], ['(garbage collector)', 20, 'gc']]);
    expect(shareOf(p, ['g', '(garbage collector)'])).toBe(70);
    expect(shareOf(p, ['permute'])).toBe(0);
  });

  it('names sizes and lists code', () => {
    expect([formatSize(1024), formatSize(65536), formatSize(96)]).toEqual(['1 KiB', '64 KiB', '96 B']);
    expect(codeList(['a'])).toBe('`a`');
    expect(codeList(['a', 'b', 'c'])).toBe('`a`, `b` and `c`');
  });
});

describe('the sentence that ties the profile to the change', () => {
  it("gives the watched functions' share before and now", () => {
    const before = profile([['g', 40], ['permute', 5], ['(garbage collector)', 15, 'gc'], ['compress', 40]]);
    const now = profile([['g', 55], ['(garbage collector)', 5, 'gc'], ['compress', 40]]);
    expect(changeSentence(facts({ watch: ['permute', '(garbage collector)'] }), 2, now, before)).toBe(
      '`permute` and `(garbage collector)` had 20.0% of stage 1’s time at 64 KiB; in stage 2 they have 5.0%.',
    );
    expect(changeSentence(facts({ watch: ['compress'] }), 2, now, before)).toBe('`compress` had 40.0% of stage 1’s time at 64 KiB; in stage 2 it has 40.0%.');
  });

  it('gives only this stage’s share for the first stage', () => {
    const now = profile([['chunkChainingValue', 87], ['readLittleEndianWords', 7], ['g', 6]]);
    expect(changeSentence(facts({ watch: ['readLittleEndianWords', 'chunkChainingValue'] }), 0, now)).toBe(
      '`readLittleEndianWords` and `chunkChainingValue` have 94.0% of stage 0’s time at 64 KiB.',
    );
  });
});

describe('a live profile beside the stored one', () => {
  const inlining = { callee: 'readLittleEndianWords', caller: 'chunkChainingValue', says: { lead: '', more: '' } };

  it('agrees when both name the same hottest function of our code, whatever the engine rows', () => {
    const live = profile([['(program)', 60, 'program'], ['compress', 30], ['hash', 10]]);
    const stored = profile([['compress', 76], ['chunkChainingValue', 21], ['hash', 3]]);
    expect(comparisonWords(live, stored, facts())).toEqual({ lead: 'Both profiles name `compress` the hottest function: 30.0% here, 76.0% in the stored profile.' });
  });

  it('explains a difference that inlining makes, whichever engine inlined', () => {
    const live = profile([['g', 32], ['readLittleEndianWords', 26], ['compress', 25], ['(program)', 16, 'program'], ['chunkChainingValue', 1]]);
    const stored = profile([['chunkChainingValue', 38], ['g', 31], ['compress', 30], ['readLittleEndianWords', 1]]);
    const words = comparisonWords(live, stored, facts({ inlining }));
    expect(words.lead).toBe('Hottest here: `g` (32.0%); in the stored profile: `chunkChainingValue` (38.0%).');
    expect(words.reason).toBe(
      'Inlining: this browser’s V8 kept `readLittleEndianWords` a function of its own (26.0%); Node 20’s V8 inlined it into `chunkChainingValue`, which counts that time as its own (38.0%).',
    );
    const reversed = comparisonWords(stored, live, facts({ inlining }));
    expect(reversed.reason).toMatch(/^Inlining: Node 20’s V8 kept `readLittleEndianWords` a function of its own \(26\.0%\); this browser’s V8 inlined it/);
  });

  it('says when the first two are too close for the samples to order', () => {
    const close = profile([['g', 42], ['compress', 38], ['hash', 20]]);
    const stored = profile([['compress', 50], ['g', 40], ['hash', 10]]);
    expect(withinNoise(compareHottest(close, stored), close.samples)).toBe(true);
    expect(comparisonWords(close, stored, facts()).reason).toBe(
      'Here `g` leads `compress` by 4.0 points, which 100 samples cannot tell from chance: profile again, and the two may swap.',
    );
    // A hundred times the samples, the same shares: now the lead is real, and the engines are the reason.
    const many = profile([['g', 4200], ['compress', 3800], ['hash', 2000]]);
    expect(withinNoise(compareHottest(many, stored), many.samples)).toBe(false);
    expect(comparisonWords(many, stored, facts()).reason).toMatch(/^Two engines: Node 20’s V8 and this browser’s/);
  });
});

describe('the icicle', () => {
  const p = profile([['hash', 0], ['compress', 0]]);
  p.samples = 100;
  p.tree = {
    fn: -1,
    selfSamples: 0,
    totalSamples: 100,
    children: [
      {
        fn: 0,
        selfSamples: 10,
        totalSamples: 90,
        children: [
          { fn: 1, selfSamples: 80, totalSamples: 80, children: [] },
          // Under 1% of the width: not drawn.
          { fn: 1, selfSamples: 0, totalSamples: 0.5, children: [] },
        ],
      },
      { fn: 1, selfSamples: 10, totalSamples: 10, children: [] },
    ],
  };

  it('lays each callee under its caller, as wide as its share, left to right', () => {
    expect(icicleBoxes(p)).toEqual([
      { fn: 0, depth: 0, x: 0, width: 0.9, totalPercent: 90, selfPercent: 10 },
      { fn: 1, depth: 1, x: 0, width: 0.8, totalPercent: 80, selfPercent: 80 },
      { fn: 1, depth: 0, x: 0.9, width: 0.1, totalPercent: 10, selfPercent: 10 },
    ]);
    expect(icicleBoxes(p, 1)).toHaveLength(2);
    expect(widestPath(p).map((node) => node.fn)).toEqual([0, 1]);
  });
});

describe("every stage's profile facts", () => {
  const sources = (index: number) => STAGES[index].files.map((file) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')).join('\n');
  const engineRows = ['(garbage collector)', '(program)'];

  it('name functions of the stage, or of the stage before for what it removes', () => {
    expect(STORIES).toHaveLength(STAGES.length);
    STORIES.forEach((story, index) => {
      const code = sources(index) + (index > 0 ? sources(index - 1) : '');
      const { changes, watch, inlining } = story.profile;
      for (const name of [...changes, ...watch, ...(inlining ? [inlining.callee, inlining.caller] : [])]) {
        if (engineRows.includes(name)) continue;
        expect(code, `stage ${index}: ${name}`).toMatch(new RegExp(`function ${name}\\(`));
      }
      expect(watch.length, `stage ${index} watches something`).toBeGreaterThan(0);
    });
  });

  it('say where inlining moves time in stages 0, 1 and 3', () => {
    expect(STORIES.flatMap((story, index) => (story.profile.inlining ? [index] : []))).toEqual([0, 1, 3]);
  });
});
