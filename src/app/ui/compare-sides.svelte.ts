// The two result sets on the compare page. Kept at module level so "compare with…"
// buttons elsewhere (the results page, a shared link) can fill a side and then open the
// page, and so the sides survive a visit to another page.
import { engineResults } from '../../core/bench/engines.ts';
import type { Results } from '../../core/bench/results.ts';

export interface Side {
  results: Results;
  /** Where it came from: a file name, "a shared link", "these results". */
  origin: string;
  /** For results of several engines: the one compared (its id); all of them when absent. */
  engine?: string;
}

/** The document a side compares: one engine's runs when it picked one. */
export function sideResults(side: Side): Results {
  return side.engine === undefined ? side.results : engineResults(side.results, side.engine);
}

class CompareSides {
  sides = $state.raw<[Side | null, Side | null]>([null, null]);

  set(index: 0 | 1, results: Results, origin: string, engine?: string): void {
    const next: [Side | null, Side | null] = [...this.sides];
    next[index] = engine === undefined ? { results, origin } : { results, origin, engine };
    this.sides = next;
  }

  /** Picks one engine of a side's results, or all of them (undefined). */
  pickEngine(index: 0 | 1, engine: string | undefined): void {
    const side = this.sides[index];
    if (side) this.set(index, side.results, side.origin, engine);
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
