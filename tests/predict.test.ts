// Predict, then measure: the choices a guess is made from, what the class server takes as
// a guess, the one line a stage page says when a guess meets a measurement, the guesses
// kept with the ladder in this browser's storage (and storage that cannot be read), and
// the board's guesses beside what the class measured.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { guessSteps } from '../src/app/class/board.ts';
import { guessStages } from '../src/core/class/guesses.ts';
import { articleRatio } from '../src/app/ui/lesson/article-facts.ts';
import { measuredRatio } from '../src/app/story/step-answer.ts';
import { DEFAULT_CLASS_PLAN } from '../src/core/class/plan.ts';
import type { EntrySummary } from '../src/core/class/summary.ts';
import { checkGuess, guessChoices, guessPhrase, guessQuestion, nearestChoice, parseStoredGuesses, readGuesses } from '../src/core/predict/guess.ts';
import { guessLesson } from '../src/core/predict/lesson.ts';
import { stageLadder } from '../src/core/results/analysis/stage-ladder.ts';
import { stageLadderTable } from '../src/core/results/text/figure-tables.ts';
import { fullResults } from './fixtures/full-results.ts';

describe('the choices of a guess', () => {
  it('asks every stage from 1 on for its step, and stage 0 against Rust WASM', () => {
    expect(guessQuestion(5)).toBe('How much faster will stage 5 be than stage 4 on this machine?');
    expect(guessQuestion(0)).toBe('How much slower than Rust WASM will stage 0 be on this machine?');
    expect(guessChoices(5).map((c) => c.label)).toEqual(['slower', 'same', '1.2x', '1.5x', '2x', '3x', '5x', '10x']);
    // Slowest first, as for a step: the choices run from worst to best.
    expect(guessChoices(0).map((c) => c.label)).toEqual(['10,000x slower', '3,000x slower', '1,000x slower', '300x slower', '100x slower', '30x slower', '10x slower', '3x slower']);
    expect(guessPhrase(5, 2)).toBe('2x stage 4');
    expect(guessPhrase(5, 1)).toBe('the same as stage 4');
    expect(guessPhrase(5, 0.8)).toBe('slower than stage 4');
    expect(guessPhrase(0, 0.001)).toBe('1,000x slower than Rust WASM');
  });

  it('places a measurement on the nearest choice, on a log scale', () => {
    const at = (stage: number, ratio: number) => guessChoices(stage)[nearestChoice(stage, ratio)].label;
    expect([0.5, 0.85, 0.95, 1.08, 1.27, 1.6, 2.3, 2.6, 4, 40].map((r) => at(5, r))).toEqual(['slower', 'slower', 'same', 'same', '1.2x', '1.5x', '2x', '3x', '5x', '10x']);
    // The article's ~2000x slower falls on 3,000x (the geometric middle of 1,000 and 3,000 is about 1,730).
    expect(at(0, articleRatio(0)!)).toBe('3,000x slower');
    expect(at(0, 1 / 420)).toBe('300x slower');
  });

  it('takes a guess from outside only as { stage, ratio } with one of its stage’s ratios', () => {
    expect(checkGuess({ stage: 5, ratio: 2 })).toEqual({ ok: true, guess: { stage: 5, ratio: 2 } });
    expect(checkGuess({ stage: 0, ratio: 0.001 })).toEqual({ ok: true, guess: { stage: 0, ratio: 0.001 } });
    for (const [value, error] of [
      [null, /^A guess is an object/],
      [[5, 2], /^A guess is an object/],
      ['{"stage":5}', /^A guess is an object/],
      [{ stage: 5, ratio: 2, nickname: 'x' }, /has a field "nickname"/],
      [{ stage: 5, ratio: 2, ['y'.repeat(5000)]: 1 }, /^A guess has a field "y{40}" that/],
      [{ stage: STAGES.length, ratio: 2 }, new RegExp(`names a stage from 0 to ${STAGES.length - 1}$`)],
      [{ stage: -1, ratio: 2 }, new RegExp(`names a stage from 0 to ${STAGES.length - 1}$`)],
      [{ stage: 1.5, ratio: 2 }, new RegExp(`names a stage from 0 to ${STAGES.length - 1}$`)],
      [{ stage: '5', ratio: 2 }, new RegExp(`names a stage from 0 to ${STAGES.length - 1}$`)],
      [{ stage: 5, ratio: 2.5 }, /for stage 5 is one of the ratios 0\.8 \(slower\), 1 \(same\)/],
      [{ stage: 5, ratio: '2' }, /for stage 5 is one of/],
      [{ stage: 5, ratio: 1e308 }, /for stage 5 is one of/],
      [{ stage: 5, ratio: Number.NaN }, /for stage 5 is one of/],
      [{ stage: 0, ratio: 2 }, /for stage 0 is one of the ratios 0\.0001 \(10,000x slower\)/],
      [{ stage: 5 }, /for stage 5 is one of/],
      [{ ['__proto__']: { stage: 5 }, ratio: 2 }, /has a field "__proto__"/],
    ] as const) {
      const checked = checkGuess(value);
      expect(checked.ok, JSON.stringify(value)?.slice(0, 60)).toBe(false);
      if (!checked.ok) expect(checked.error).toMatch(error);
    }
  });
});

describe('what a guess beside a measurement teaches', () => {
  /** A measurement whose interval is ±`spread` around its median (in ratio), as a run's would be. */
  const line = (stage: number, guess: number | null, measured: number, clear = true, spread = 0.05) =>
    guessLesson({ stage, guess, measured, clear, range: [measured * (1 - spread), measured * (1 + spread)], article: articleRatio(stage) });

  it('says where the guess fell, then whether the article’s M1 Max agrees with this machine', () => {
    // Stage 5: the article measured 3x, far outside 1.27x ± 5%.
    expect(line(5, 2, 1.27)).toBe('This machine gained less than you guessed; the article’s M1 Max and this machine disagree (it gained more there, 3.00x, outside this run’s range): a change pays differently on another processor and engine.');
    expect(line(5, 1.2, 1.27)).toBe('Your guess matched this machine; the article’s M1 Max and this machine disagree (it gained more there, 3.00x, outside this run’s range): a change pays differently on another processor and engine.');
    expect(line(5, 1.2, 3.2, true, 0.1)).toBe('This machine gained more than you guessed; the article’s M1 Max measured about the same (3.00x), so the change pays alike on both.');
    // Stage 7: the article measured 1.023x, so a clear 1.5x here is more than the M1 Max gained.
    expect(line(7, 1.5, 1.45)).toBe('Your guess matched this machine; the article’s M1 Max and this machine disagree (it gained less there, 1.02x, outside this run’s range): a change pays differently on another processor and engine.');
  });

  it('says "disagree" only when the article’s figure lies outside the interval, not when the median’s place differs', () => {
    // 3.2x ± 2% does not hold the article's 3x, though both fall on the choice "3x".
    expect(line(5, null, 3.2, true, 0.02)).toMatch(/^The article’s M1 Max and this machine disagree \(it gained less there/);
    // A clear 1.9x whose interval reaches 3x does not disagree, though 2x and 3x are different choices.
    expect(line(5, null, 1.9, true, 0.6)).toBe('The article’s M1 Max measured about the same (3.00x), so the change pays alike on both.');
  });

  it('says a run that could not tell the stages apart could not, with its median, and never that the article disagrees with it', () => {
    // Stage 8 at 10 rounds: guess 1.5x, the article 1.48x, this machine's median 1.46x, not a finding.
    expect(line(8, 1.5, 1.46, false, 0.15)).toBe(
      'This machine could not tell the two stages apart (median 1.46x), so your guess is neither confirmed nor ruled out; the article’s 1.48x lies within this run’s range, so this run cannot tell whether the M1 Max differs; more rounds could.',
    );
    expect(line(7, 1, 1.04, false)).toBe('Your guess matched: this machine could not tell the two stages apart (median 1.04x); the article’s 1.02x lies within this run’s range, so this run cannot tell whether the M1 Max differs; more rounds could.');
    // A guess outside the interval is one the run did not see.
    expect(line(7, 2, 1.3, false)).toMatch(/^You expected a gain this machine could not measure \(median 1\.30x\);/);
    expect(line(7, 0.8, 0.95, false)).toMatch(/^You expected a loss this machine could not measure \(median 0\.95x\);/);
    // Outside even a wide interval, the article does disagree.
    expect(line(5, null, 1.1, false, 0.2)).toMatch(/^The article’s M1 Max and this machine disagree \(it gained more there, 3\.00x, outside/);
  });

  it('speaks of stage 0 as a gap to Rust WASM, and of stages the article gives no figure for', () => {
    expect(line(0, 0.01, 1 / 420)).toBe('Stage 0 fell further behind Rust WASM here than you guessed; the article’s M1 Max and this machine disagree (it fell further behind Rust WASM there): the gap depends on the processor and the engine.');
    expect(line(0, 1 / 3000, 1 / 2100)).toBe('Your guess matched this machine; the article’s M1 Max saw about the same gap (about 2000x slower than Rust WASM).');
    expect(line(1, 1.5, 1.4)).toBe('Your guess matched this machine; the article gives no figure here, so this machine’s is the only answer.');
    expect(line(11, 3, 1.7)).toBe('This machine gained less than you guessed; the article gives no figure here, so this machine’s is the only answer.');
    // No guess: the article against this machine alone.
    expect(line(5, null, 1.27)).toMatch(/^The article’s M1 Max and this machine disagree \(it gained more there/);
  });

  it('reads this machine’s figure from the ladder: the stage over the one before it, stage 0 over Rust WASM', () => {
    const results = fullResults();
    for (const stage of [0, 5, 9]) {
      const measured = measuredRatio(results, stage);
      expect(measured, `stage ${stage}`).not.toBeNull();
      expect(measured!.ratio).toBeGreaterThan(0);
      expect(guessLesson({ stage, guess: guessChoices(stage)[3].ratio, ...measured!, measured: measured!.ratio, article: articleRatio(stage) })).toMatch(/^[A-Z].*\.$/);
    }
    expect(measuredRatio(null, 5)).toBeNull();
    // Measured without the stage before it, the step is not the one guessed.
    const skipped = { ...results, contestants: results.contestants.filter((c) => c.id !== STAGES[4].id), runs: results.runs.filter((r) => r.contestant !== STAGES[4].id) };
    expect(measuredRatio(skipped, 5)).toBeNull();
  });
});

describe('guesses kept with the ladder in this browser', () => {
  const storage = new Map<string, string>();
  const localStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, String(value)),
    removeItem: (key: string) => void storage.delete(key),
  };
  /** The app's store as a fresh page load finds it. */
  async function load() {
    vi.stubGlobal('localStorage', localStorage);
    vi.resetModules();
    return (await import('../src/app/ui/run/current-run.svelte.ts')).current;
  }
  afterEach(() => {
    vi.unstubAllGlobals();
    storage.clear();
  });

  it('survive a reload, replace an earlier guess for the stage, and go with the ladder’s Clear', async () => {
    let current = await load();
    expect(current.guesses).toEqual({});
    current.guess(5, 2);
    current.guess(0, 0.001);
    current.guess(5, 1.5);
    current.keep(fullResults());
    current = await load();
    expect(current.guesses).toEqual({ '5': 1.5, '0': 0.001 });
    expect(current.guessProblem).toBeNull();
    expect(current.results).not.toBeNull();
    current.clear();
    expect(current.guesses).toEqual({});
    current = await load();
    expect([current.guesses, current.results]).toEqual([{}, null]);
    expect(storage.size).toBe(0);
  });

  it('keeps every good guess of a damaged store, says what was left out, and a new guess writes a clean one', async () => {
    storage.set('blake3-lab:guesses', JSON.stringify({ '5': 2, '6': 2.5, '99': 2, x: 1, '0': 0.001, '7': '1.2' }));
    let current = await load();
    expect(current.guesses).toEqual({ '5': 2, '0': 0.001 });
    expect(current.guessProblem).toBe('4 stored guesses were not a choice this lab offers and are left out; the other 2 are kept.');
    current.guess(6, 1.5);
    expect(current.guessProblem).toBeNull();
    expect(JSON.parse(storage.get('blake3-lab:guesses')!)).toEqual({ '5': 2, '0': 0.001, '6': 1.5 });
    for (const text of ['{"5": 2', '[2]', '"2x"', 'null', '42']) {
      storage.set('blake3-lab:guesses', text);
      current = await load();
      expect(current.guesses, text).toEqual({});
      expect(current.guessProblem, text).toBe('The guesses stored in this browser could not be read, so none are shown; a new guess replaces them.');
    }
    // Storage that throws (disabled): no guesses, no message, and a guess still lives for the visit.
    vi.stubGlobal('localStorage', { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); }, removeItem: () => {} });
    vi.resetModules();
    const disabled = (await import('../src/app/ui/run/current-run.svelte.ts')).current;
    expect([disabled.guesses, disabled.guessProblem]).toEqual([{}, null]);
    disabled.guess(3, 1.2);
    expect(disabled.guesses).toEqual({ '3': 1.2 });
  });

  it('reads stored guesses as the class server reads a machine’s: the good ones, and how many were not', () => {
    expect(parseStoredGuesses(null)).toEqual({ guesses: {}, problem: null });
    expect(parseStoredGuesses('{"1": 0.8}')).toEqual({ guesses: { '1': 0.8 }, problem: null });
    expect(parseStoredGuesses('{"1": 0.7}').problem).toBe('One stored guess was not a choice this lab offers and is left out.');
    expect(readGuesses({ '05': 2, '5': 2, constructor: 1 })).toEqual({ guesses: { '5': 2 }, dropped: 2 });
  });

  it('puts the guess beside each stage on the ladder’s table', () => {
    const ladder = stageLadder(fullResults())!;
    expect(stageLadderTable(ladder).columns.map((c) => c.label)).toEqual(['stage', 'MB/s', 'step', 'vs Rust WASM']);
    const table = stageLadderTable(ladder, { '5': 2, '0': 0.001 });
    expect(table.columns.map((c) => c.label)).toEqual(['stage', 'MB/s', 'step', 'your guess', 'vs Rust WASM']);
    const guessOf = (title: RegExp) => table.rows.find((row) => title.test(row[0].text))![3].text;
    expect([guessOf(/^5\. /), guessOf(/^0\. /), guessOf(/^4\. /)]).toEqual(['2x', '1,000x slower', '–']);
  });
});

describe('a class’s guesses on the board', () => {
  function machine(id: string, guesses: Record<string, number>, throughput: Record<string, number> = {}): EntrySummary {
    const table = Object.fromEntries(Object.entries(throughput).map(([contestant, value]) => [contestant, { '65536': value }]));
    return { id, nickname: id, browser: '', engine: 'V8', os: '', cores: 2, done: true, stopped: false, hidden: false, silent: false, isolated: true, timerNs: 0, updatedAt: 0, throughput: table, guesses };
  }

  it('counts each step’s guesses per choice, and each machine’s own measured step on the nearest choice', () => {
    expect(guessStages(DEFAULT_CLASS_PLAN)).toEqual(STAGES.map((s) => s.index));
    expect(guessStages({ contestants: ['04-state-locals', '05-no-copies', '07-reuse-buffers'], sizes: [65536], rounds: 3 })).toEqual([5]);
    const [four, five] = ['04-state-locals', '05-no-copies'];
    const entries = [
      machine('a', { '5': 2 }, { [four]: 100, [five]: 130 }),
      machine('b', { '5': 2, '0': 0.01 }, { [four]: 100, [five]: 310 }),
      machine('c', { '5': 1.2 }, { [four]: 100 }),
      machine('d', {}, { [four]: 200, [five]: 250 }),
    ];
    const steps = guessSteps(entries, DEFAULT_CLASS_PLAN, 65536);
    const five_ = steps.find((s) => s.stage === 5)!;
    expect(five_.guessed).toEqual([0, 0, 1, 0, 2, 0, 0, 0]);
    expect(five_.measured).toEqual([0, 0, 2, 0, 0, 1, 0, 0]);
    expect(five_.step).toMatchObject({ median: 1.3, n: 3 });
    expect(five_.article).toBe(3);
    expect(steps.find((s) => s.stage === 0)!.guessed).toEqual([0, 0, 0, 0, 1, 0, 0, 0]);
  });
});
