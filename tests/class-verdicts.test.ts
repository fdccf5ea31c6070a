// Each machine's verdict on each step, as the server computes it from a posted document's
// samples, and what the board says of a step over the room: the count in words, the
// room's spread, the title's claim as a row of its own, and machines with medians only.
import { describe, expect, it } from 'vitest';
import type { Results } from '../src/core/bench/results.ts';
import { DEFAULT_CLASS_PLAN, type ClassPlan } from '../src/core/class/plan.ts';
import { summarize, type EntrySummary } from '../src/core/class/summary.ts';
import { callOf, machineVerdicts, whyUnsure } from '../src/core/class/verdicts.ts';
import { countWords, stepBoards } from '../src/app/class/verdict-board.ts';
import { STAGES } from '../steps/index.ts';
import { studentResults } from './fixtures/class-server.ts';

/** A document of these contestants at 64 KiB, each with its own samples in ns. */
function document(samples: Record<string, number[]>): Results {
  const base = studentResults(0, Object.keys(samples), [65536]);
  base.runs = Object.entries(samples).map(([contestant, nsPerOp]) => ({ contestant, size: 65536, status: 'ok' as const, iterations: 10, nsPerOp }));
  base.config.rounds = Math.max(...Object.values(samples).map((s) => s.length));
  return base;
}

const S6 = '06-message-locals';
const S7 = '07-reuse-buffers';
const S8 = '08-little-endian';
const S9 = '09-simd-wasm';

describe('one machine’s verdicts', () => {
  it('six samples a side that do not overlap: faster, a finite interval, p after Holm over the run’s steps', () => {
    // Stage 7 takes half the time of stage 6 on every sample; stage 8 is stage 7 again.
    const slow = [200, 201, 202, 203, 204, 205];
    const fast = [100, 101, 102, 103, 104, 105];
    const v = machineVerdicts(document({ [S6]: slow, [S7]: fast, [S8]: [103, 100, 105, 101, 104, 102] }));
    expect(v.steps.map((s) => [s.id, s.against])).toEqual([[S7, S6], [S8, S7]]);
    const [step7, step8] = v.steps;
    // The medians of the throughputs (1/ns: the mean of the middle two), then their ratio; the interval is the 1st and 6th samples (the bench's).
    expect(step7.ratio).toBeCloseTo((1 / 102 + 1 / 103) / (1 / 202 + 1 / 203), 12);
    expect(step7.range![0]).toBeCloseTo(200 / 105, 12);
    expect(step7.range![1]).toBeCloseTo(205 / 100, 12);
    // The exact U test's smallest p at 6 a side, 2 / C(12, 6), times 2 steps (Holm).
    expect(step7.p).toBeCloseTo((2 / 924) * 2, 12);
    expect([callOf(step7), step7.n]).toEqual(['faster', 6]);
    expect(callOf(step8)).toBe('unsure');
    expect(whyUnsure(step8)).toMatch(/^the difference is within this machine's noise \(p = 1.000 after Holm/);
  });

  it('three samples a side cannot tell, whatever was measured, and say why', () => {
    const v = machineVerdicts(document({ [S6]: [300, 301, 302], [S7]: [100, 101, 102] }));
    expect(v.steps[0]).toMatchObject({ sure: false, range: null, n: 3, p: 0.1 });
    expect(whyUnsure(v.steps[0])).toBe('3 samples a side: the smallest p the test can give is 0.1, above 0.05, whatever was measured (it takes 4 rounds)');
  });

  it('keeps stage 9 against Rust WASM apart, Holm over the comparisons with WASM', () => {
    // Five a side, apart: 2 / C(10, 5) each, times the two comparisons with WASM (stages 8 and 9).
    const v = machineVerdicts(document({ [S8]: [200, 201, 202, 203, 204], [S9]: [100, 101, 102, 103, 104], 'blake3-wasm': [150, 151, 152, 153, 154] }));
    expect(v.title).toHaveLength(1);
    expect(v.title[0]).toMatchObject({ id: S9, against: 'blake3-wasm', sure: true });
    expect(v.title[0].p).toBeCloseTo((2 / 252) * 2, 12);
    expect(v.title[0].ratio).toBeCloseTo(152 / 102, 3);
  });

  it('are part of the summary the server stores', () => {
    const results = studentResults(1, DEFAULT_CLASS_PLAN.contestants, DEFAULT_CLASS_PLAN.sizes);
    const summary = summarize(results, { id: 'a', nickname: 'A', done: true, hidden: false, updatedAt: 0 });
    expect(summary.verdicts).toEqual(machineVerdicts(results));
    expect(summary.verdicts!.steps).toHaveLength((STAGES.length - 1) * DEFAULT_CLASS_PLAN.sizes.length);
  });
});

describe('the board’s steps over the room', () => {
  const plan: ClassPlan = { contestants: [S6, S7, S9, 'blake3-wasm'], sizes: [65536], rounds: 6 };
  const machine = (id: string, ns7: number[]): EntrySummary => ({
    ...summarize(document({ [S6]: [200, 201, 202, 203, 204, 205], [S7]: ns7, [S9]: [50, 51, 52, 53, 54, 55], 'blake3-wasm': [90, 91, 92, 93, 94, 95] }), { id, nickname: id, done: true, hidden: false, updatedAt: 0 }),
  });

  it('counts in words who sees the step faster and who cannot tell, beside the room’s spread and the article', () => {
    const entries = [
      ...Array.from({ length: 14 }, (_, i) => machine(`fast${i}`, [100, 101, 102, 103, 104, 105])),
      ...Array.from({ length: 6 }, (_, i) => machine(`noisy${i}`, [150, 210, 199, 260, 180, 230])),
    ];
    const boards = stepBoards(entries, plan, 65536);
    const [step, title] = [boards[0], boards[boards.length - 1]];
    expect(step).toMatchObject({ id: S7, against: S6, label: 'Stage 7 against stage 6', short: '7 vs 6', faster: 14, unsure: 6, slower: 0, mediansOnly: 0, article: STAGES[7].articleSpeedup });
    expect(countWords(step)).toBe('14 of 20 machines see stage 7 faster than stage 6; 6 cannot tell.');
    expect(step.spread!.n).toBe(20);
    // The title's claim is a row of its own, with the article's 2.21x.
    expect(title).toMatchObject({ title: true, label: 'Stage 9 against Rust WASM', short: '9 vs Rust WASM', faster: 20, article: 2.21 });
  });

  it('says when machines carry medians only (stored before verdicts), and still shows their ratio', () => {
    const { verdicts: _, ...old } = machine('old', [100, 101, 102, 103, 104, 105]);
    const [step] = stepBoards([old, machine('new', [100, 101, 102, 103, 104, 105])], plan, 65536);
    expect(step).toMatchObject({ faster: 1, mediansOnly: 1 });
    expect(step.machines.find((m) => m.entry.id === 'old')!.ratio).toBeCloseTo(old.throughput[S7]['65536'] / old.throughput[S6]['65536'], 10);
    expect(countWords(step)).toBe('1 of 2 machines sees stage 7 faster than stage 6; 1 has medians only.');
    expect(countWords(stepBoards([old], plan, 65536)[0])).toBe('1 machine measured stage 7 and stage 6, with medians only (posted before the board kept verdicts).');
  });
});
