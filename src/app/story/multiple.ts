// The arithmetic behind the "multiple testing" demo of "How we measure": a pure function,
// tested, so the page's figure is computed rather than typed in. (Holm's correction
// itself comes from the statistics engine, src/core/stats.)

/** Chance of at least one false "significant" among `tests` independent tests of no change. */
export function familyWiseErrorRate(tests: number, alpha: number): number {
  return 1 - (1 - alpha) ** tests;
}
