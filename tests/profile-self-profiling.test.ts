// The JS Self-Profiling trace to StageProfile converter, on traces written by hand so
// every count can be checked on paper.
import { describe, expect, it } from 'vitest';
import { fromSelfProfiling, PROGRAM, type SelfProfilingTrace } from '../src/core/profile/from-self-profiling.ts';
import { hottest, top, type CallNode, type StageProfile } from '../src/core/profile/profile.ts';

const source = { tool: 'JS Self-Profiling API', engine: 'V8', runtime: 'Chromium 156', cpu: '2 cores', intervalUs: 10_000 };
const STAGE_URL = 'http://127.0.0.1:4300/assets/blake3-abc.js';
const DRIVER_URL = 'http://127.0.0.1:4300/assets/WhereTimeGoes-def.js';

// frames: 0 slice (the page's driver), 1 hash, 2 compress, 3 g, 4 chunkChainingValue, 5 now (a builtin, no resource)
// stacks: 0 slice; 1 slice>hash; 2 hash>chunkChainingValue; 3 chunkChainingValue>compress; 4 compress>g; 5 slice>now
const trace: SelfProfilingTrace = {
  resources: [DRIVER_URL, STAGE_URL],
  frames: [
    { name: 'slice', resourceId: 0, line: 1, column: 10 },
    { name: 'hash', resourceId: 1, line: 1, column: 900 },
    { name: 'compress', resourceId: 1, line: 1, column: 300 },
    { name: 'g', resourceId: 1, line: 1, column: 100 },
    { name: 'chunkChainingValue', resourceId: 1, line: 1, column: 600 },
    { name: 'now' },
  ],
  stacks: [
    { frameId: 0 },
    { frameId: 1, parentId: 0 },
    { frameId: 4, parentId: 1 },
    { frameId: 2, parentId: 2 },
    { frameId: 3, parentId: 3 },
    { frameId: 5, parentId: 0 },
  ],
  samples: [
    // The first window, 0..100: five in g, two in compress, one with no stack.
    ...[10, 20, 30, 40, 50].map((timestamp) => ({ timestamp, stackId: 4 })),
    { timestamp: 60, stackId: 3 },
    { timestamp: 70, stackId: 3 },
    { timestamp: 80 },
    // The pause between windows: the page idles, and a stray sample in compress must not count either.
    { timestamp: 120 },
    { timestamp: 130, stackId: 3 },
    // The second window, 200..250: one in chunkChainingValue, one in the builtin under the driver.
    { timestamp: 210, stackId: 2 },
    { timestamp: 220, stackId: 5 },
  ],
};

const windows: [number, number][] = [
  [0, 100],
  [200, 250],
];

const byName = (profile: StageProfile, name: string) => profile.functions.find((f) => f.name === name)!;
const names = (profile: StageProfile, node: CallNode): unknown => ({
  fn: node.fn < 0 ? '(root)' : profile.functions[node.fn].name,
  self: node.selfSamples,
  total: node.totalSamples,
  ...(node.children.length > 0 ? { children: node.children.map((child) => names(profile, child)) } : {}),
});

describe('fromSelfProfiling', () => {
  const profile = fromSelfProfiling(trace, { stage: '05-no-copies', source, inputBytes: 65536, windows });

  it('keeps only the samples inside the windows, and times the windows', () => {
    expect(profile.samples).toBe(10);
    expect(profile.durationMs).toBe(150);
    expect(profile.stage).toBe('05-no-copies');
    expect(profile.inputBytes).toBe(65536);
    expect(profile.source).toEqual(source);
  });

  it('counts self and total samples per function, hottest self first, with shares of all samples', () => {
    expect(profile.functions.map((f) => [f.name, f.selfSamples, f.totalSamples, f.selfPercent, f.totalPercent])).toEqual([
      ['g', 5, 5, 50, 50],
      ['compress', 2, 7, 20, 70],
      // Equal self time: the larger total first.
      ['chunkChainingValue', 1, 8, 10, 80],
      ['now', 1, 1, 10, 10],
      // In a window with no stack: the engine itself was busy.
      [PROGRAM, 1, 1, 10, 10],
      ['slice', 0, 9, 0, 90],
      ['hash', 0, 8, 0, 80],
    ]);
    expect(profile.functions.reduce((sum, f) => sum + f.selfSamples, 0)).toBe(profile.samples);
  });

  it('names the kind and the place of each function', () => {
    expect(byName(profile, 'g')).toMatchObject({ kind: 'js', file: 'assets/blake3-abc.js', line: 1 });
    expect(byName(profile, 'now')).toMatchObject({ kind: 'native', file: '' });
    expect(byName(profile, PROGRAM)).toMatchObject({ kind: 'program', file: '' });
    expect(hottest(profile)?.name).toBe('g');
  });

  it('merges the stacks into one call tree, children hottest first', () => {
    expect(names(profile, profile.tree)).toEqual({
      fn: '(root)',
      self: 0,
      total: 10,
      children: [
        {
          fn: 'slice',
          self: 0,
          total: 9,
          children: [
            {
              fn: 'hash',
              self: 0,
              total: 8,
              children: [
                {
                  fn: 'chunkChainingValue',
                  self: 1,
                  total: 8,
                  children: [{ fn: 'compress', self: 2, total: 7, children: [{ fn: 'g', self: 5, total: 5 }] }],
                },
              ],
            },
            { fn: 'now', self: 1, total: 1 },
          ],
        },
        { fn: PROGRAM, self: 1, total: 1 },
      ],
    });
  });

  it("folds nodes under the threshold into their parent's self time", () => {
    const folded = fromSelfProfiling(trace, { stage: 's', source, inputBytes: 1024, windows, foldBelow: 0.15 });
    // `now` (1 of 10 samples) goes into `slice`, "(program)" into the root; the function rows keep them.
    const slice = folded.tree.children[0];
    expect(folded.tree.selfSamples).toBe(1);
    expect(folded.tree.children.map((c) => folded.functions[c.fn].name)).toEqual(['slice']);
    expect(slice.selfSamples).toBe(1);
    expect(slice.children.map((c) => folded.functions[c.fn].name)).toEqual(['hash']);
    expect(byName(folded, 'now').selfSamples).toBe(1);
  });

  it("gives pprof's top rows in milliseconds from the windows' time", () => {
    const rows = top(profile, 3);
    expect(rows.map((r) => [r.name, r.flatMs, r.flatPercent, r.sumPercent, r.cumMs, r.cumPercent])).toEqual([
      ['g', 75, 50, 50, 75, 50],
      ['compress', 30, 20, 70, 105, 70],
      ['chunkChainingValue', 15, 10, 80, 120, 80],
    ]);
  });

  it('counts every sample when no windows are given, and spans them for the time', () => {
    const all = fromSelfProfiling(trace, { stage: 's', source, inputBytes: 1024 });
    expect(all.samples).toBe(trace.samples.length);
    expect(byName(all, 'compress').selfSamples).toBe(3);
    expect(byName(all, PROGRAM).selfSamples).toBe(2);
    // 12 samples from t=10 to t=220: 11 intervals of about 19 ms, so 12 of them.
    expect(all.durationMs).toBeCloseTo((210 * 12) / 11, 6);
  });

  it('recognises WebAssembly frames and counts a recursive function once per sample', () => {
    const wasm = fromSelfProfiling(
      {
        resources: [STAGE_URL],
        frames: [
          { name: 'subtree', resourceId: 0, line: 1, column: 5 },
          { name: 'wasm-function[0]', resourceId: undefined },
          { name: '$compress1x', resourceId: undefined },
        ],
        stacks: [{ frameId: 0 }, { frameId: 0, parentId: 0 }, { frameId: 1, parentId: 1 }, { frameId: 2, parentId: 0 }],
        samples: [
          { timestamp: 1, stackId: 2 },
          { timestamp: 2, stackId: 2 },
          { timestamp: 3, stackId: 3 },
          { timestamp: 4, stackId: 1 },
        ],
      },
      { stage: '10-simd-one-block', source, inputBytes: 1024 },
    );
    expect(wasm.functions.map((f) => [f.name, f.kind, f.selfSamples, f.totalSamples])).toEqual([
      ['wasm-function[0]', 'wasm', 2, 2],
      ['subtree', 'js', 1, 4],
      ['$compress1x', 'wasm', 1, 1],
    ]);
    expect(hottest(wasm)?.name).toBe('wasm-function[0]');
  });

  it('makes an empty profile of a trace without samples', () => {
    const empty = fromSelfProfiling({ resources: [], frames: [], stacks: [], samples: [] }, { stage: 's', source, inputBytes: 1024, windows });
    expect(empty.samples).toBe(0);
    expect(empty.functions).toEqual([]);
    expect(empty.tree).toEqual({ fn: -1, selfSamples: 0, totalSamples: 0, children: [] });
    expect(hottest(empty)).toBeUndefined();
  });
});
