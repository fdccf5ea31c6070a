// The two result sets on the compare page. Kept at module level so "compare with…"
// buttons elsewhere (the results page, a shared link) can fill a side and then open the
// page, and so the sides survive a visit to another page.
import type { Results } from '../bench/results.ts';

export interface Side {
  results: Results;
  /** Where it came from: a file name, "a shared link", "these results". */
  origin: string;
}

class CompareSides {
  sides = $state.raw<[Side | null, Side | null]>([null, null]);

  set(index: 0 | 1, results: Results, origin: string): void {
    const next: [Side | null, Side | null] = [...this.sides];
    next[index] = { results, origin };
    this.sides = next;
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
