// The result set the app currently shows as "yours": the last benchmark run on this
// device (live while it runs) or a file the user imported in its place. It is kept in
// localStorage so the stage pages still show this machine's numbers after a reload, and
// read back through the validator like any other document from outside the page.
import type { Results } from '../../core/bench/results.ts';
import { parseResultsJson } from '../../core/results/io/validate.ts';

const STORAGE_KEY = 'blake3-lab:results';

export type ResultsSource = 'run' | 'live' | 'import';

function stored(): Results | null {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    if (!text) return null;
    const parsed = parseResultsJson(text);
    // A stored document from an older version of the app that no longer validates is dropped, not shown half-read.
    if (!parsed.ok) localStorage.removeItem(STORAGE_KEY);
    return parsed.ok ? parsed.results : null;
  } catch {
    return null; // storage disabled: the results live as long as the page
  }
}

class CurrentResults {
  /** Large sample arrays: replaced whole, never deeply proxied. */
  results = $state.raw<Results | null>(stored());
  source = $state<ResultsSource>('run');
  /** Where an imported set came from (a file name), for the page heading. */
  origin = $state<string | null>(null);

  /** A partial document from a run in progress: shown, not stored. */
  showLive(results: Results): void {
    this.results = results;
    this.source = 'live';
    this.origin = null;
  }

  /** A finished (or cancelled) run, or an imported file: shown and remembered on this device. */
  keep(results: Results, source: Exclude<ResultsSource, 'live'>, origin: string | null = null): void {
    this.results = results;
    this.source = source;
    this.origin = origin;
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(results));
    } catch {
      // Full or disabled storage: still shown for this visit.
    }
  }

  clear(): void {
    this.results = null;
    this.origin = null;
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // nothing stored to remove
    }
  }
}

export const current = new CurrentResults();
