// The converter from V8's .cpuprofile to a StageProfile, on a profile small enough to
// count by hand: 1000 samples, 250 µs apart, of this stack tree (self samples in brackets):
//
//   (root)
//   ├─ (program) [30]   (garbage collector) [50]   (idle) [100]
//   └─ main [16]                                  scripts/run.ts
//      ├─ now [4]                                 node:internal/perf/performance (0.4%: folded)
//      └─ hash [100]                              steps/a/blake3.ts:10
//         ├─ compress [400]                       steps/a/compress.ts (ran as one line; the map says 25)
//         ├─ compress4x [50]                      WebAssembly, built at steps/a/blake3.ts:200
//         └─ chunk [50]                           steps/a/blake3.ts:50
//            └─ chunk [0]                         (recursion: counted once in chunk's total)
//               └─ compress [200]                 the same function as above: one row
import { describe, expect, it } from 'vitest';
import { fromV8, frameKey, type V8CallFrame, type V8Profile, type V8ProfileNode } from '../src/core/profile/from-v8.ts';
import { hottest, top, type ProfileSource } from '../src/core/profile/profile.ts';

const frame = (functionName: string, url = '', lineNumber = -1, columnNumber = -1): V8CallFrame => ({
  functionName,
  scriptId: url ? '7' : '0',
  url,
  lineNumber,
  columnNumber,
});
const BLAKE3 = 'file:///repo/steps/a/blake3.ts';
const COMPRESS = frame('compress', 'file:///repo/steps/a/compress.ts', 0, 438);
const WASM = frame('compress4x', 'wasm://wasm/stage-module-0-8acf85e2', 0, 63);

// id, frame, self samples, children
const TREE: [number, V8CallFrame, number, number[]][] = [
  [1, frame('(root)'), 0, [2, 3, 4, 5]],
  [2, frame('(program)'), 30, []],
  [3, frame('(garbage collector)'), 50, []],
  [4, frame('(idle)'), 100, []],
  [5, frame('', 'file:///repo/scripts/run.ts', 0, 0), 16, [12, 6]],
  [12, frame('now', 'node:internal/perf/performance', 136, 5), 4, []],
  [6, frame('hash', BLAKE3, 9, 16), 100, [8, 11, 9]],
  [8, COMPRESS, 400, []],
  [11, WASM, 50, []],
  [9, frame('chunk', BLAKE3, 49, 9), 50, [13]],
  [13, frame('chunk', BLAKE3, 49, 9), 0, [10]],
  [10, COMPRESS, 200, []],
];

function handMade(): V8Profile {
  const nodes: V8ProfileNode[] = TREE.map(([id, callFrame, hitCount, children]) => ({ id, callFrame, hitCount, children }));
  // The samples interleaved, as a profiler takes them: node ids round-robin until each has its count.
  const left = new Map(TREE.map(([id, , self]) => [id, self]));
  const samples: number[] = [];
  while ([...left.values()].some((n) => n > 0)) {
    for (const [id, n] of left) if (n > 0) (samples.push(id), left.set(id, n - 1));
  }
  return { nodes, startTime: 1_000_000, endTime: 1_250_000, samples, timeDeltas: samples.map(() => 250) };
}

const SOURCE: ProfileSource = { tool: 'hand-made', engine: 'V8', runtime: 'test', cpu: 'none', intervalUs: 250 };
// What a source map and the module table say: compress starts on line 25 (0-based 24); the module was built on line 200.
const ORIGINAL = new Map([
  [frameKey(COMPRESS), { url: 'file:///repo/steps/a/compress.ts', lineNumber: 24 }],
  [frameKey(WASM), { url: BLAKE3, lineNumber: 199 }],
]);
const convert = (profile = handMade()) =>
  fromV8(profile, { stage: '99-test', source: SOURCE, inputBytes: 1024, roots: ['file:///repo/'], original: (f) => ORIGINAL.get(frameKey(f)), note: 'a note' });

describe('fromV8', () => {
  const profile = convert();

  it('counts 1000 samples over 250 ms', () => {
    expect(profile).toMatchObject({ stage: '99-test', inputBytes: 1024, samples: 1000, durationMs: 250, note: 'a note' });
  });

  it('makes one row per function, hottest self first, with self and total shares', () => {
    const rows = profile.functions.map((f) => [f.name, f.kind, f.file, f.line, f.selfSamples, f.totalSamples, f.selfPercent, f.totalPercent]);
    expect(rows).toEqual([
      // compress: 400 under hash + 200 under chunk, one row: 600 of 1000.
      ['compress', 'js', 'steps/a/compress.ts', 25, 600, 600, 60, 60],
      // hash: 100 of its own; total 100 + 400 + 50 + 50 + 200 = 800.
      ['hash', 'js', 'steps/a/blake3.ts', 10, 100, 800, 10, 80],
      // (idle) ties hash on self; hash's larger total puts it first.
      ['(idle)', 'idle', '', 0, 100, 100, 10, 10],
      // chunk: 50 + 0 of its own; total 50 + 200 = 250, not 450: the recursion counts once.
      ['chunk', 'js', 'steps/a/blake3.ts', 50, 50, 250, 5, 25],
      ['(garbage collector)', 'gc', '', 0, 50, 50, 5, 5],
      ['compress4x', 'wasm', 'steps/a/blake3.ts', 200, 50, 50, 5, 5],
      ['(program)', 'program', '', 0, 30, 30, 3, 3],
      // main: 16 of its own; total 16 + 4 + 800 = 820.
      ['(anonymous)', 'js', 'scripts/run.ts', 1, 16, 820, 1.6, 82],
      ['now', 'native', 'node:internal/perf/performance', 137, 4, 4, 0.4, 0.4],
    ]);
    // Self shares add up to everything.
    expect(profile.functions.reduce((n, f) => n + f.selfSamples, 0)).toBe(1000);
  });

  it('merges the call tree along each path and folds nodes under 0.5% into their parent', () => {
    const name = (fn: number) => (fn < 0 ? 'root' : profile.functions[fn].name);
    const show = (node: typeof profile.tree): unknown => [name(node.fn), node.selfSamples, node.totalSamples, ...node.children.map(show)];
    expect(show(profile.tree)).toEqual([
      'root', 0, 1000,
      // main's own 16 plus now's 4 (0.4% < 0.5%, folded).
      ['(anonymous)', 20, 820,
        ['hash', 100, 800,
          ['compress', 400, 400],
          ['chunk', 50, 250, ['chunk', 0, 200, ['compress', 200, 200]]],
          ['compress4x', 50, 50]]],
      ['(idle)', 100, 100],
      ['(garbage collector)', 50, 50],
      ['(program)', 30, 30],
    ]);
  });

  it("gives pprof's top rows: 0.25 ms a sample, the running sum", () => {
    expect(top(profile, 3).map((r) => [r.name, r.flatMs, r.flatPercent, r.sumPercent, r.cumMs, r.cumPercent])).toEqual([
      ['compress', 150, 60, 60, 150, 60],
      ['hash', 25, 10, 70, 200, 80],
      ['(idle)', 25, 10, 80, 25, 10],
    ]);
    expect(hottest(profile)?.name).toBe('compress');
  });

  it('lists the engine buckets even when they have no sample, and reads hit counts without a samples array', () => {
    const withoutIdle = handMade();
    withoutIdle.nodes = withoutIdle.nodes.filter((n) => n.id !== 4).map((n) => (n.id === 1 ? { ...n, children: [2, 3, 5] } : n));
    delete withoutIdle.samples;
    const converted = convert(withoutIdle);
    expect(converted.samples).toBe(900);
    expect(converted.functions.find((f) => f.kind === 'idle')).toMatchObject({ name: '(idle)', selfSamples: 0, selfPercent: 0 });
    expect(converted.functions.find((f) => f.name === 'compress')?.selfPercent).toBe(66.7);
  });

  it('starts stacks at the stage code when asked, leaving the calling loop out of the tree and the totals', () => {
    const startAt = (f: { file: string; kind: string }) => f.kind === 'wasm' || f.file.startsWith('steps/');
    const cut = fromV8(handMade(), { stage: 's', source: SOURCE, inputBytes: 1, roots: ['file:///repo/'], original: (f) => ORIGINAL.get(frameKey(f)), startAt });
    const row = (name: string) => cut.functions.find((f) => f.name === name)!;
    // main keeps only the samples with no stage frame on their stack: its own 16 and now's 4.
    expect([row('(anonymous)').selfSamples, row('(anonymous)').totalSamples]).toEqual([16, 20]);
    // The stage's rows are as before.
    expect([row('hash').totalSamples, row('compress').selfSamples, row('chunk').totalSamples]).toEqual([800, 600, 250]);
    const name = (fn: number) => (fn < 0 ? 'root' : cut.functions[fn].name);
    // hash now hangs from the root; main (20 = 2%) keeps now folded into its self.
    expect(cut.tree.children.map((c) => [name(c.fn), c.selfSamples, c.totalSamples])).toEqual([
      ['hash', 100, 800],
      ['(idle)', 100, 100],
      ['(garbage collector)', 50, 50],
      ['(program)', 30, 30],
      ['(anonymous)', 20, 20],
    ]);
  });

  it('keeps V8 positions where no original is known, and urls outside the roots as they are', () => {
    const plain = fromV8(handMade(), { stage: 's', source: SOURCE, inputBytes: 1, roots: ['file:///elsewhere/'] });
    const compress = plain.functions.find((f) => f.name === 'compress')!;
    expect([compress.file, compress.line, compress.kind]).toEqual(['file:///repo/steps/a/compress.ts', 1, 'native']);
    expect(plain.functions.find((f) => f.name === 'compress4x')?.kind).toBe('wasm');
    expect(plain.note).toBeUndefined();
  });
});
