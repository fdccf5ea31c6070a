// The time-left guess under the progress bar goes by the pace of the rounds, not of the
// whole run: preparation is slow per unit of progress and would make it overshoot.
import { describe, expect, it } from 'vitest';
import { describeTimeLeft, secondsLeft } from '../src/app/ui/run/time-left.ts';

describe('time left', () => {
  it('says nothing before the rounds start or before they have a pace', () => {
    expect(secondsLeft(null, 10_000, 0.1)).toBeNull();
    expect(secondsLeft({ at: 9_000, fraction: 0.1 }, 10_000, 0.2)).toBeNull(); // 1 s of rounds: too soon
    expect(secondsLeft({ at: 5_000, fraction: 0.1 }, 10_000, 0.1)).toBeNull(); // no progress since
    expect(describeTimeLeft(null)).toBe('');
  });

  it('extrapolates the rounds alone: 9 s of preparation for 10% do not count', () => {
    // Rounds began at 9 s with 10% done; 6 s later 40% is done: 30% per 6 s, 60% left is 12 s.
    expect(secondsLeft({ at: 9_000, fraction: 0.1 }, 15_000, 0.4)).toBeCloseTo(12, 9);
    // The whole-run pace (40% in 15 s) would have said 22.5 s.
    expect(describeTimeLeft(12)).toBe('about 10 s left');
  });

  it('rounds the guess as a guess: to 5 s, at least 5 s, then minutes', () => {
    expect([describeTimeLeft(0), describeTimeLeft(27), describeTimeLeft(59), describeTimeLeft(150)]).toEqual([
      'about 5 s left',
      'about 25 s left',
      'about 1 min left',
      'about 3 min left',
    ]);
  });
});
