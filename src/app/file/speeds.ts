// Where the file page's time estimates come from: the learner's own last bench run (kept
// by the bench page in localStorage, src/app/ui/run/current-run.svelte.ts) when it measured the
// stage, else the committed run of every stage in Chromium and Firefox (data/engines/),
// in this browser when that run has it.

import { STAGES } from '../../../steps/index.ts';
import type { Results } from '../../core/bench/results.ts';
import { current } from '../ui/run/current-run.svelte.ts';
import { speedPoints, type SpeedPoint } from '../../core/file/estimate.ts';
import { kernelOf } from '../../core/file/part-hasher.ts';
import { readEnginesRun } from '../ui/results/engines-run.ts';

/** The committed run, checked once, when an estimate first needs it. */
let committedRun: Results | undefined;
const committed = () => (committedRun ??= readEnginesRun());

export interface Speeds {
  points: SpeedPoint[];
  /** Where the figures come from, as a phrase: "your bench run of 25 Nov". */
  source: string;
}

function runtimeHere(): 'firefox' | 'chromium' {
  return /firefox/i.test(globalThis.navigator?.userAgent ?? '') ? 'firefox' : 'chromium';
}

function day(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** The measured times of the code stage `index` runs on a file (stage 10's for stage 11: one thread's). */
export function speedsOf(index: number, mine: Results | null = current.results): Speeds {
  const id = STAGES[kernelOf(index)].id;
  const own = mine ? speedPoints(mine, id) : [];
  if (own.length > 0) return { points: own, source: `your bench run of ${day(mine!.env.date)}` };
  const runtime = runtimeHere();
  const run = committed();
  const info = run.runtimes?.find((r) => r.id === runtime);
  return {
    points: speedPoints(run, id, runtime),
    source: `the app's own run in ${info?.name ?? runtime} ${info?.version?.split('.')[0] ?? ''} on a ${run.env.cores}-core ${run.env.os} machine; the Benchmark measures yours`,
  };
}
