// The two result sets on the compare page. Kept at module level so "compare with…"
// buttons elsewhere (the results page, a shared link) can fill a side and then open the
// page, and so the sides survive a visit to another page.
import { runtimeResults } from '../../../core/bench/runtimes.ts';
import type { Results } from '../../../core/bench/results.ts';

export interface Side {
  results: Results;
  /** Where it came from: a file name, "a shared link", "these results". */
  origin: string;
  /** For results of several runtimes: the one compared (its id); all of them when absent. */
  runtime?: string;
}

/** The document a side compares: one runtime's runs when it picked one. */
export function sideResults(side: Side): Results {
  return side.runtime === undefined ? side.results : runtimeResults(side.results, side.runtime);
}

class CompareSides {
  sides = $state.raw<[Side | null, Side | null]>([null, null]);

  set(index: 0 | 1, results: Results, origin: string, runtime?: string): void {
    const next: [Side | null, Side | null] = [...this.sides];
    next[index] = runtime === undefined ? { results, origin } : { results, origin, runtime };
    this.sides = next;
  }

  /** Picks one runtime of a side's results, or all of them (undefined). */
  pickRuntime(index: 0 | 1, runtime: string | undefined): void {
    const side = this.sides[index];
    if (side) this.set(index, side.results, side.origin, runtime);
  }

  clear(index: 0 | 1): void {
    const next: [Side | null, Side | null] = [...this.sides];
    next[index] = null;
    this.sides = next;
  }

  swap(): void {
    this.sides = [this.sides[1], this.sides[0]];
  }
}

export const compareSides = new CompareSides();
