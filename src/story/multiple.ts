// The arithmetic behind the "multiple testing" part of "How we measure", kept as pure
// functions so the page's numbers are tested rather than typed in.

/** Chance of at least one false "significant" among `tests` independent tests of no change. */
export function familyWiseErrorRate(tests: number, alpha: number): number {
  return 1 - (1 - alpha) ** tests;
}

export interface HolmStep {
  label: string;
  p: number;
  /** The bar this p-value must pass: alpha / (tests still in play). */
  threshold: number;
  significant: boolean;
}

/**
 * Holm's step-down procedure: sort the p-values, compare the smallest with alpha/m, the
 * next with alpha/(m-1), and so on; the first one that fails stops the walk, and it and
 * every larger p-value count as not significant.
 */
export function holmSteps(tests: { label: string; p: number }[], alpha: number): HolmStep[] {
  const sorted = [...tests].sort((a, b) => a.p - b.p);
  let stillPassing = true;
  return sorted.map((test, rank) => {
    const threshold = alpha / (sorted.length - rank);
    stillPassing = stillPassing && test.p <= threshold;
    return { ...test, threshold, significant: stillPassing };
  });
}
