// The stories' figures come from committed runs, never from prose: native Rust's and the
// stages' beside them from the --native run in data/native/, stage 0's from the engines
// page's run in data/engines/. Each figure the texts give is recomputed here from the raw
// samples, with a median of our own, and must be one the run holds.
import { describe, expect, it } from 'vitest';
import nativeDocument from '../data/native/chromium-native-2026-11-27.json';
import enginesDocument from '../data/engines/chromium-firefox-2026-11-27.json';
import { loadTimedBlocks, NATIVE_RUN, nativeRun, nsPerBlock } from '../src/app/story/native-figures.ts';
import { STORIES } from '../src/app/story/narrative.ts';

interface Doc {
  runs: { contestant: string; engine: string; size: number; status: string; nsPerOp: number[]; reason?: string }[];
}

/** Median MB/s of a contestant at a size over its samples (MB = 10^6 bytes). */
function medianMBps(doc: Doc, contestant: string, size: number, engine?: string): number {
  const samples = doc.runs
    .filter((r) => r.contestant === contestant && r.size === size && r.status !== 'failed' && (engine === undefined || r.engine === engine))
    .flatMap((r) => r.nsPerOp.map((ns) => (size * 1e3) / ns))
    .sort((a, b) => a - b);
  if (samples.length === 0) throw new Error(`no samples of ${contestant} at ${size}`);
  const mid = samples.length >> 1;
  return samples.length % 2 ? samples[mid] : (samples[mid - 1] + samples[mid]) / 2;
}

const native = nativeDocument as unknown as Doc;
const CONTESTANTS = ['10-simd-one-block', '11-every-core', 'native-sse41', 'native-best', 'native-threads'];
const SIZES = [96, 1024, 65536, 1048576, 4194304, 16777216];

/** Every GB/s figure and every ratio of two contestants at one size that the run holds, as the stories print them. */
function figuresTheRunHolds(): Set<string> {
  const figures = new Set<string>();
  for (const size of SIZES) {
    const mbps = CONTESTANTS.map((id) => medianMBps(native, id, size));
    for (const a of mbps) {
      figures.add(`${(a / 1000).toFixed(2)} GB/s`);
      for (const b of mbps) figures.add(`${(a / b).toFixed(2)}×`);
    }
  }
  return figures;
}

/** The GB/s figures and ratios a text gives. */
const figuresIn = (text: string) => text.match(/\d+\.\d\d(?: GB\/s|×)/g) ?? [];

describe('the committed --native run (data/native/)', () => {
  it('is a --native run of stages 10 and 11 in Chromium that names its machine and holds every size the stories quote', () => {
    expect(NATIVE_RUN.machine).toMatch(/AMD EPYC/);
    expect(NATIVE_RUN.browser).toMatch(/^Chromium \d+$/);
    expect(NATIVE_RUN.command).toMatch(/^npm run bench -- --browser --stages 10,11 --sizes 96B,1KiB,64KiB,1MiB,4MiB,16MiB --rounds \d+ --native$/);
    expect(NATIVE_RUN.bestSimd).toMatch(/^(AVX-512|AVX2|SSE4\.1)$/);
    expect(NATIVE_RUN.nativeThreads).toBe(2);
    for (const size of SIZES) for (const id of CONTESTANTS) expect(medianMBps(native, id, size), `${id} at ${size}`).toBeGreaterThan(0);
  });

  it('refuses a run that does not name its machine', () => {
    const doc = nativeDocument as unknown as { env: Record<string, unknown> };
    expect(() => nativeRun({ ...doc, env: { ...doc.env, label: undefined } })).toThrow(/must name its machine/);
  });

  it("gives stage 10's card and story native Rust's figures from the run, and no other", () => {
    const story = STORIES[10];
    expect(story.pastArticle!.native.figure).toBe(`${(medianMBps(native, 'native-sse41', 1024) / 1000).toFixed(2)} GB/s`);
    const texts = [story.pastArticle!.native.where, story.pastArticle!.rust].join('\n');
    const found = figuresIn(texts);
    expect(found.length).toBeGreaterThanOrEqual(7);
    const held = figuresTheRunHolds();
    for (const figure of found) expect(held, figure).toContain(figure);
    // The one figure a block costs, at 1 KiB (16 blocks), for both.
    const perBlock = (id: string) => Math.round((1024 / medianMBps(native, id, 1024)) * 1000 / 16);
    expect(story.pastArticle!.rust).toContain(`${perBlock('10-simd-one-block')} ns a block for stage 10 and ${perBlock('native-sse41')} for native code`);
  });

  it("gives stage 10's caution the timings it made when it loaded in the run, and a 1 KiB hash's cost a block, which cannot be less", () => {
    const caution = STORIES[10].caution!.more;
    const { rows, words } = loadTimedBlocks();
    expect(caution).toContain(`timed the rows at ${rows} ns a block and the 32-bit code at ${words}`);
    const inAHash = nsPerBlock(1024, medianMBps(native, '10-simd-one-block', 1024));
    expect(caution).toContain(`took ${inAHash} ns a block, everything its call costs included`);
    // A block inside a whole hash, call and copies included, costs at least what the faster
    // code took a block in the load's tight loop: a text that says less contradicts itself.
    expect(inAHash).toBeGreaterThanOrEqual(Math.min(rows, words));
  });

  it("gives stage 11's card and story native Rust's figures and the stages' from the run, and no other", () => {
    const story = STORIES[11];
    expect(story.pastArticle!.native.figure).toBe(`${(medianMBps(native, 'native-sse41', 16777216) / 1000).toFixed(2)} GB/s`);
    const measuredParagraph = story.cost.more.split('\n\n').find((p) => p.startsWith('In the committed run'))!;
    const texts = [story.pastArticle!.native.where, story.pastArticle!.rust, measuredParagraph].join('\n');
    const found = figuresIn(texts);
    expect(found.length).toBeGreaterThanOrEqual(12);
    const held = figuresTheRunHolds();
    for (const figure of found) expect(held, figure).toContain(figure);
    // The samples' spread, fastest to slowest, as the run holds them.
    const range = (id: string) => {
      const ns = native.runs.filter((r) => r.contestant === id && r.size === 16777216).flatMap((r) => r.nsPerOp);
      return `${(Math.min(...ns) / 1e6).toFixed(1)} to ${(Math.max(...ns) / 1e6).toFixed(1)} ms`;
    };
    expect(measuredParagraph).toContain(`stage 11’s 16 MiB samples took ${range('11-every-core')}, stage 10’s ${range('10-simd-one-block')}, and native code’s threads ${range('native-threads')}`);
    // Native code's threads are set beside its one thread of the same build, never beside SSE4.1.
    const threads = (size: number) => (medianMBps(native, 'native-threads', size) / medianMBps(native, 'native-best', size)).toFixed(2);
    expect(story.pastArticle!.rust).toContain(`its two threads gave ${threads(4194304)}× its one thread at 4 MiB and ${threads(16777216)}× at 16 MiB`);
  });
});

describe("stage 0's cost, from the engines page's committed run (data/engines/)", () => {
  it('quotes the Chromium run as it is', () => {
    const doc = enginesDocument as unknown as Doc;
    const ms = (contestant: string, size: number) => (size * 1e3) / medianMBps(doc, contestant, size, 'chromium') / 1e6;
    const text = STORIES[0].caution?.more ?? STORIES[0].cost.more;
    const all = [STORIES[0].change.more, STORIES[0].why.more, STORIES[0].cost.more, text].join('\n');
    expect(all).toContain(`it took ${Math.round(ms('00-reference', 1024) * 1000)} µs for 1 KiB, ${Math.round(ms('00-reference', 32768))} ms for 32 KiB, ${Math.round(ms('00-reference', 65536))} ms for 64 KiB and ${Math.round(ms('00-reference', 262144))} ms for 256 KiB`);
    expect(all).toContain(`stage 1 hashed 1 MiB in ${Math.round(ms('01-read-words-full', 1048576))} ms`);
    const reasons = doc.runs.filter((r) => r.contestant === '00-reference' && r.engine === 'chromium' && r.status === 'timeboxed').map((r) => r.reason ?? '');
    // 256 KiB was stopped by the time box after some samples; 1 MiB was skipped, with the bench's estimate.
    expect(reasons.join(' ')).toMatch(/stopped after \d+ of \d+ samples: the 5 s time box per size ran out \(one hash of 256 KiB/);
    const estimate = /1 MiB would take about ([^(]+?) \(/.exec(reasons.join(' '))![1];
    expect(all).toContain(`estimated about ${estimate} for 1 MiB and skipped it`);
  });
});
