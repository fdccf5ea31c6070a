// The sentence above the tables after a short run, with the thresholds taken from the
// statistics code: 6 samples for a 95% interval, 4 per side for a U test to reach 0.05.
import { describe, expect, it } from 'vitest';
import { MIN_ROUNDS_FOR_INTERVAL, MIN_ROUNDS_TO_DETECT, shortRunSentence } from '../src/core/results/text/short-run.ts';
import { fullResults } from './fixtures/full-results.ts';

function withSamples(n: number) {
  const results = fullResults();
  return { ...results, runs: results.runs.map((run) => ({ ...run, nsPerOp: run.nsPerOp.slice(0, n) })) };
}

describe('short runs', () => {
  it('knows the thresholds the statistics impose', () => {
    expect(MIN_ROUNDS_FOR_INTERVAL).toBe(6);
    expect(MIN_ROUNDS_TO_DETECT).toBe(4);
  });

  it('says plainly what 3 and 5 samples cannot tell, and nothing for 6 or more', () => {
    expect(shortRunSentence(withSamples(3))).toBe(
      'With 3 samples per contestant and size these figures are single guesses: no confidence interval can be computed (every ± reads ∞), and no difference can be called real. Run at least 6 rounds for an interval, 10 for solid statistics.',
    );
    expect(shortRunSentence(withSamples(5))).toMatch(/^With 5 samples .*reads ∞\)\. Run at least 6 rounds/);
    expect(shortRunSentence(withSamples(6))).toBeNull();
    expect(shortRunSentence(fullResults())).toBeNull();
  });
});
