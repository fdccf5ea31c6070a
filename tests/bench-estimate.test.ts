// The duration shown before a run: samples at the sample target, a fixed preparation per
// contestant and size, slow hashes from an earlier run, never more than the time box.
import { describe, expect, it } from 'vitest';
import { describeEstimate, estimatePlanMs, PREPARE_MS } from '../src/core/bench/estimate.ts';
import { DEFAULT_ROUNDS, DEFAULT_SAMPLE_TARGET_MS, DEFAULT_SIZES } from '../src/core/bench/plan.ts';
import { fullResults } from './fixtures/full-results.ts';

describe('plan duration', () => {
  it('counts one sample per contestant, size and round, plus one preparation each', () => {
    const plan = { contestants: ['a', 'b'], sizes: [96, 1024, 65536], rounds: 10 };
    expect(estimatePlanMs(plan)).toEqual({ ms: 2 * 3 * (PREPARE_MS + 10 * DEFAULT_SAMPLE_TARGET_MS), fromEarlierRun: false });
  });

  it('puts the default plan (12 contestants, 7 sizes, 10 rounds) at about a minute, as measured', () => {
    const plan = { contestants: Array.from({ length: 12 }, (_, i) => `c${i}`), sizes: [...DEFAULT_SIZES], rounds: DEFAULT_ROUNDS };
    const { ms } = estimatePlanMs(plan);
    expect(ms / 1000).toBeGreaterThan(55);
    expect(ms / 1000).toBeLessThan(75);
    expect(describeEstimate(ms)).toMatch(/^about 1 min( \d+ s)?$/);
  });

  it('uses an earlier run for slow hashes and stops at the time box', () => {
    const earlier = fullResults();
    // The fixture's stage 0 takes about 0.3 s a hash at 256 KiB: ten samples would be 3 s.
    const slow = estimatePlanMs({ contestants: ['00-reference'], sizes: [262144], rounds: 10 }, earlier);
    expect(slow.fromEarlierRun).toBe(true);
    expect(slow.ms).toBeGreaterThan(3000);
    const boxed = estimatePlanMs({ contestants: ['00-reference'], sizes: [262144], rounds: 100 }, earlier);
    expect(boxed.ms).toBe(5000);
  });

  it('rounds the way a guess should read', () => {
    expect(describeEstimate(1200)).toBe('about 5 s');
    expect(describeEstimate(42_000)).toBe('about 40 s');
    expect(describeEstimate(65_000)).toBe('about 1 min 5 s');
    expect(describeEstimate(600_000)).toBe('about 10 min');
  });
});
