// Whether a fresh profile of a stage still tells the stored one's story. Shares move from
// run to run (sampling, the machine's load, its caches), so a rerun is held to bands: the
// same hottest function, and every function's self and total share within 10 points.

import { hottest, type StageProfile } from './profile.ts';

/** How far a share may move between runs, in percentage points. */
export const DRIFT_POINTS = 10;

/** A function's name without pprof's inlining label, which one rare sample can add or remove. */
export const baseName = (name: string) => name.replace(/ \((partial-)?inline\)$/, '');

/** Where `fresh` leaves the bands around `stored`; empty when it stays inside them. */
export function profileDrift(stored: StageProfile, fresh: StageProfile, points = DRIFT_POINTS): string[] {
  const problems: string[] = [];
  if (stored.stage !== fresh.stage) problems.push(`stage: stored ${stored.stage}, now ${fresh.stage}`);
  if ((stored.unit ?? 'samples') !== (fresh.unit ?? 'samples')) problems.push(`unit: stored ${stored.unit ?? 'samples'}, now ${fresh.unit ?? 'samples'}`);
  const work = (p: StageProfile) => JSON.stringify(p.inputs ?? p.inputBytes);
  if (work(stored) !== work(fresh)) problems.push(`inputs: stored ${work(stored)}, now ${work(fresh)}`);
  const [was, is] = [hottest(stored), hottest(fresh)].map((f) => (f ? baseName(f.name) : 'none'));
  if (was !== is) problems.push(`hottest function: stored ${was}, now ${is}`);
  const shares = (p: StageProfile) => new Map(p.functions.map((f) => [baseName(f.name), f]));
  const [before, now] = [shares(stored), shares(fresh)];
  for (const name of new Set([...before.keys(), ...now.keys()])) {
    for (const key of ['selfPercent', 'totalPercent'] as const) {
      const [a, b] = [before.get(name)?.[key] ?? 0, now.get(name)?.[key] ?? 0];
      if (Math.abs(a - b) > points) problems.push(`${name} ${key === 'selfPercent' ? 'flat' : 'cum'}: stored ${a}%, now ${b}%`);
    }
  }
  return problems;
}
