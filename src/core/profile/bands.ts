// When two profiles of one stage tell the same story: the stored one (data/profiles/) and
// a fresh run. A sampling profile is a count, so its shares move from run to run (with
// 4000 samples a share near 50% moves about ±1.6 points at 95%, more on a busy machine
// whose other work comes and goes), while what a learner reads from it must hold: the
// same hottest function, and no function's share off by more than the band.

import { hottest, type ProfileFunction, type StageProfile } from './profile.ts';

/** The most a function's self or total share may move between two runs, in percentage points. */
export const SHARE_BAND_POINTS = 10;

/** A function's identity across runs: what it is and where it is. */
export function functionKey(f: Pick<ProfileFunction, 'kind' | 'name' | 'file' | 'line'>): string {
  return `${f.kind} ${f.name} ${f.file}:${f.line}`;
}

const named = (f: ProfileFunction | undefined) => (f ? `${f.name} (${f.file}:${f.line}, ${f.selfPercent}%)` : 'none');

/** Where `fresh` disagrees with `stored` beyond the bands; empty when they agree. */
export function profileDisagreements(stored: StageProfile, fresh: StageProfile): string[] {
  const problems: string[] = [];
  const exact = [
    ['stage', stored.stage, fresh.stage],
    ['input bytes', stored.inputBytes, fresh.inputBytes],
    ['sampling interval (µs)', stored.source.intervalUs, fresh.source.intervalUs],
    ['tool', stored.source.tool, fresh.source.tool],
  ] as const;
  for (const [what, was, now] of exact) if (was !== now) problems.push(`${what}: stored ${was}, now ${now}`);
  const [hotThen, hotNow] = [hottest(stored), hottest(fresh)];
  if ((hotThen && functionKey(hotThen)) !== (hotNow && functionKey(hotNow))) {
    problems.push(`hottest function: stored ${named(hotThen)}, now ${named(hotNow)}`);
  }
  const rows = (p: StageProfile) => new Map(p.functions.map((f) => [functionKey(f), f]));
  const [then, now] = [rows(stored), rows(fresh)];
  for (const key of new Set([...then.keys(), ...now.keys()])) {
    const [a, b] = [then.get(key), now.get(key)];
    for (const share of ['selfPercent', 'totalPercent'] as const) {
      const [was, is] = [a?.[share] ?? 0, b?.[share] ?? 0];
      if (Math.abs(was - is) > SHARE_BAND_POINTS) {
        problems.push(`${key}: ${share === 'selfPercent' ? 'self' : 'total'} share stored ${was}%, now ${is}% (more than ${SHARE_BAND_POINTS} points apart)`);
      }
    }
  }
  return problems;
}
