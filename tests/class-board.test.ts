// The class pages' pure parts: their addresses, the board's arithmetic (medians and
// quartiles, each machine's own step then the class median of those steps, sorting), and
// the summary the server makes of each posted document.
import { describe, expect, it } from 'vitest';
import { contestantSpreads, sortEntries, spread } from '../src/app/class/board.ts';
import { stepBoards } from '../src/app/class/verdict-board.ts';
import { checkClassPlan, DEFAULT_CLASS_PLAN, type ClassPlan } from '../src/core/class/plan.ts';
import { readStoredSummary, runState, summarize, type EntrySummary } from '../src/core/class/summary.ts';
import { jsEngineOfAgent } from '../src/core/bench/runtimes.ts';
import { parseRoute, routeHref } from '../src/app/ui/nav/routes.ts';
import { studentResults } from './fixtures/class-server.ts';

function entry(id: string, throughput: Record<string, number>, extra: Partial<EntrySummary> = {}): EntrySummary {
  const table = Object.fromEntries(Object.entries(throughput).map(([contestant, value]) => [contestant, { '65536': value }]));
  return { id, nickname: id, browser: 'Chromium 156', engine: 'V8', os: 'Linux x86_64', cores: 4, done: true, stopped: false, hidden: false, silent: false, isolated: true, timerNs: 5000, updatedAt: 0, throughput: table, ...extra };
}

const plan: ClassPlan = { contestants: ['06-message-locals', '07-reuse-buffers', '08-little-endian', 'blake3-wasm'], sizes: [65536], rounds: 3 };

describe('class addresses', () => {
  it('read and write the class pages, forgiving case, spaces and dashes in a typed code', () => {
    expect(parseRoute('#/class')).toEqual({ page: 'class', code: null, view: 'student' });
    expect(parseRoute('#/class/abc-234')).toEqual({ page: 'class', code: 'ABC234', view: 'student' });
    expect(parseRoute('#/class/ABC%20234/board')).toEqual({ page: 'class', code: 'ABC234', view: 'board' });
    expect(parseRoute('#/class/ABC234/join')).toEqual({ page: 'class', code: 'ABC234', view: 'join' });
    for (const hash of ['#/class', '#/class/ABC234', '#/class/ABC234/board', '#/class/ABC234/join']) expect(routeHref(parseRoute(hash))).toBe(hash);
  });

  it.each(['#/class/ABC23', '#/class/ABC2340', '#/class/ABC10O', '#/class/ABC234/admin', '#/class/%E0%A4%A'])('%s is "no such page"', (hash) => {
    expect(parseRoute(hash).page).toBe('not-found');
  });
});

describe('class board arithmetic', () => {
  it('median and quartiles over the machines that have a figure', () => {
    expect(spread([4, 1, 3, 2, NaN])).toEqual({ median: 2.5, q1: expect.closeTo(1.4167, 4), q3: expect.closeTo(3.5833, 4), min: 1, max: 4, n: 4 });
    expect(spread([NaN])).toBeNull();
    const spreads = contestantSpreads([entry('a', { 'blake3-wasm': 100 }), entry('b', { 'blake3-wasm': 300 }), entry('c', {})], plan, 65536);
    expect(spreads.get('blake3-wasm')).toMatchObject({ median: 200, n: 2 });
    expect(spreads.get('06-message-locals')).toBeNull();
  });

  it('takes each machine’s own step before the class median, so fast and slow machines do not mix', () => {
    // A fast machine (steps 1.5 then 1.0) and a slow one (steps 1.1 then 2.0): medians of the ratios.
    const fast = entry('fast', { '06-message-locals': 1000, '07-reuse-buffers': 1500, '08-little-endian': 1500 });
    const slow = entry('slow', { '06-message-locals': 100, '07-reuse-buffers': 110, '08-little-endian': 220 });
    const ladder = stepBoards([fast, slow], plan, 65536);
    expect(ladder.map((s) => s.id)).toEqual(['07-reuse-buffers', '08-little-endian']);
    expect(ladder[0].spread!.median).toBeCloseTo(1.3, 10);
    expect(ladder[1].spread!.median).toBeCloseTo(1.5, 10);
    expect(ladder.map((s) => s.article)).toEqual([1.023, 1.48]);
    // A plan that skips a stage compares across the gap, with the article's figures multiplied.
    const skip = stepBoards([fast], { ...plan, contestants: ['06-message-locals', '08-little-endian'] }, 65536);
    expect(skip[0]).toMatchObject({ against: '06-message-locals', article: expect.closeTo(1.023 * 1.48, 10) });
  });

  it('sorts by any column, machines without the figure last either way', () => {
    const rows = [entry('b', { 'blake3-wasm': 5 }, { cores: 8 }), entry('a', {}, { cores: 2 }), entry('c', { 'blake3-wasm': 9 }, { nickname: 'C' })];
    const ids = (list: EntrySummary[]) => list.map((e) => e.id);
    expect(ids(sortEntries(rows, { contestant: 'blake3-wasm' }, 'descending', 65536))).toEqual(['c', 'b', 'a']);
    expect(ids(sortEntries(rows, { contestant: 'blake3-wasm' }, 'ascending', 65536))).toEqual(['b', 'c', 'a']);
    expect(ids(sortEntries(rows, 'nickname', 'ascending', 65536))).toEqual(['a', 'b', 'c']);
    expect(ids(sortEntries(rows, 'cores', 'descending', 65536))).toEqual(['b', 'c', 'a']);
    // The run's state: still running, then stopped by its student, then finished.
    const runs = [entry('f', {}), entry('r', {}, { done: false }), entry('s', {}, { stopped: true })];
    expect(ids(sortEntries(runs, 'done', 'ascending', 65536))).toEqual(['r', 's', 'f']);
  });
});

describe('class plans and summaries', () => {
  it('checks a teacher’s plan and puts it in lesson order', () => {
    expect(checkClassPlan(DEFAULT_CLASS_PLAN)).toEqual({ ok: true, plan: DEFAULT_CLASS_PLAN });
    expect(checkClassPlan({ contestants: ['blake3-wasm', '00-reference'], sizes: [65536, 96], rounds: 1 })).toEqual({
      ok: true,
      plan: { contestants: ['00-reference', 'blake3-wasm'], sizes: [96, 65536], rounds: 1 },
    });
    expect(checkClassPlan({ contestants: ['00-reference'], sizes: [100], rounds: 1 })).toMatchObject({ ok: false, error: /^100 is not one of the sizes/ });
    expect(checkClassPlan({ contestants: ['00-reference'], sizes: [96], rounds: 31 })).toMatchObject({ ok: false, error: /from 1 to 30/ });
    expect(checkClassPlan({ contestants: ['00-reference'], sizes: [96], rounds: 1, extra: 1 })).toMatchObject({ ok: false });
  });

  it('marks a finished document with cancelled runs as stopped by its student', () => {
    const student = { id: 'x', nickname: 'Ana', hidden: false, updatedAt: 1 };
    const cancelled = studentResults(0);
    cancelled.runs[5] = { ...cancelled.runs[5], status: 'cancelled', reason: 'cancelled after 1 of 3 samples', nsPerOp: cancelled.runs[5].nsPerOp.slice(0, 1) };
    expect(runState(summarize(cancelled, { ...student, done: true }))).toBe('stopped');
    // While the run goes, its partial documents hold cancelled runs too: it is still running.
    expect(runState(summarize(cancelled, { ...student, done: false }))).toBe('running');
    expect(runState(summarize(studentResults(0), { ...student, done: true }))).toBe('finished');
  });

  it('summarizes a document as median MB/s per contestant and size, and names the engine', () => {
    const summary = summarize(studentResults(0), { id: 'x', nickname: 'Ana', done: true, hidden: false, updatedAt: 1 });
    expect(summary.throughput['01-read-words-full']['1024']).toBeCloseTo(50, 9);
    expect(summary.throughput['blake3-wasm']['65536']).toBeCloseTo(130, 9);
    expect(Object.getPrototypeOf(summary.throughput)).toBeNull();
    expect(jsEngineOfAgent('browser', 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0')).toBe('SpiderMonkey');
    expect(jsEngineOfAgent('browser', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1')).toBe('JavaScriptCore');
    expect(jsEngineOfAgent('browser', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Safari/605.1.15')).toBe('JavaScriptCore');
    expect(jsEngineOfAgent('browser', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toBe('V8');
  });

  it('names engines one way: a board stored with the old names reads with the new', () => {
    const stored = (engine: string) => JSON.stringify({ ...entry('a', {}), engine });
    expect(['Blink', 'Gecko', 'WebKit', 'Node', 'other', 'V8'].map((name) => readStoredSummary(stored(name)).engine)).toEqual([
      'V8',
      'SpiderMonkey',
      'JavaScriptCore',
      'V8',
      'unknown engine',
      'V8',
    ]);
  });
});
