// The rows of a pprof `top` table as the Go stage pages print them: ours computed from a
// stored profile the way pprof prints its own (shares to two decimals, flat and cum in
// one unit for the whole table), the talk's exactly as its slide printed them.
// A name is split into its package path, its own name and pprof's inline label, so a
// narrow column breaks it between them.

import { top, type StageProfile } from '../../core/profile/profile.ts';
import { pprofBytes, type TalkPprofRow } from './profiles.ts';

export interface PprofRow {
  /** The package path with its dot ("blake2slab/03-arrays.", "runtime."), and the name in it. */
  pkg: string;
  symbol: string;
  /** pprof's "(inline)" or "(partial-inline)", or ''. */
  label: string;
  /** The step's own package (the talk's, in its table): presenter mode leaves the path out. */
  own: boolean;
  flat: string;
  flatPercent: string;
  sumPercent: string;
  cum: string;
  cumPercent: string;
}

/** "blake2slab/01-inline-g.g (inline)" -> its package path (with the dot), its name in that package and pprof's label. */
export function splitName(name: string): { pkg: string; symbol: string; label: string } {
  const labelled = / \(((partial-)?inline)\)$/.exec(name);
  const bare = labelled ? name.slice(0, labelled.index) : name;
  const label = labelled ? `(${labelled[1]})` : '';
  const dot = bare.indexOf('.', bare.lastIndexOf('/') + 1);
  return dot < 0 ? { pkg: '', symbol: bare, label } : { pkg: bare.slice(0, dot + 1), symbol: bare.slice(dot + 1), label };
}

/** pprof's way of printing a share: two decimals from 1%, two significant digits below, "100%" at the top. */
export function pprofPercent(n: number, total: number): string {
  const ratio = total === 0 ? 0 : Math.abs((100 * n) / total);
  if (ratio >= 99.95 && ratio <= 100.05) return '100%';
  if (ratio >= 1) return `${ratio.toFixed(2)}%`;
  return `${ratio === 0 ? 0 : Number(ratio.toPrecision(2))}%`;
}

/** The talk's rows, as printed; `own` matches the talk's package path. */
export function talkRows(rows: TalkPprofRow[], own: RegExp): PprofRow[] {
  return rows.map((row) => {
    const { pkg, symbol, label } = splitName(row.name);
    return { pkg, symbol, label, own: own.test(pkg), flat: row.flat, flatPercent: row.flatPercent, sumPercent: row.sumPercent, cum: row.cum, cumPercent: row.cumPercent };
  });
}

/** Our first `count` rows; `own` is the step's package path ("blake2slab/03-arrays."). */
export function profileRows(profile: StageProfile, own: string, count: number): PprofRow[] {
  const bytes = profile.unit === 'bytes';
  // One unit for the table, as pprof picks one: seconds once the profile holds a second or more.
  const seconds = !bytes && profile.durationMs >= 1000;
  const value = (n: number) => (n === 0 ? '0' : bytes ? pprofBytes(n) : seconds ? `${(n / 1000).toFixed(2)}s` : `${Math.round(n)}ms`);
  const share = (n: number) => pprofPercent(n, profile.samples);
  let sum = 0;
  return top(profile, count).map((row) => {
    const f = profile.functions[row.fn];
    sum += f.selfSamples;
    const { pkg, symbol, label } = splitName(f.name);
    return { pkg, symbol, label, own: pkg === own, flat: value(row.flatMs), flatPercent: share(f.selfSamples), sumPercent: share(sum), cum: value(row.cumMs), cumPercent: share(f.totalSamples) };
  });
}
