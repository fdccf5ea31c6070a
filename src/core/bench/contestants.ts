// Everything the bench can time, in one shape: the stages (steps/index.ts), the
// baselines and peers (steps/baselines.ts) and, only when asked for by id, the fault
// contestants that exist to prove a broken one cannot break a run (src/core/bench/faults.ts).

import { STAGES } from '../../../steps/index.ts';
import { BASELINES } from '../../../steps/baselines.ts';
import type { Contestant } from './contestant.ts';
import { CONTESTANT_LABELS, DEFAULT_CONTESTANT_IDS, stageTitle } from './contestant-labels.ts';
import { FAULTS } from './faults.ts';

export type { Contestant, ContestantHasher } from './contestant.ts';

const STAGE_CONTESTANTS: Contestant[] = STAGES.map((stage) => ({
  id: stage.id,
  title: stageTitle(stage),
  kind: 'stage',
  oracle: 'blake3',
  requires: stage.requires,
  files: stage.files,
  load: stage.load,
}));

const BASELINE_CONTESTANTS: Contestant[] = BASELINES.map((baseline) => ({
  id: baseline.id,
  title: baseline.title,
  kind: baseline.kind,
  oracle: baseline.digest,
  requires: CONTESTANT_LABELS.find((label) => label.id === baseline.id)?.requires,
  version: baseline.version,
  files: [],
  load: baseline.load,
}));

/** Every stage, then every baseline: what a run times unless told otherwise. */
export const DEFAULT_CONTESTANTS: readonly Contestant[] = [...STAGE_CONTESTANTS, ...BASELINE_CONTESTANTS];

export { DEFAULT_CONTESTANT_IDS };

/** All contestants, faults included when asked (the app adds them under `?faults`). */
export function listContestants(options: { faults?: boolean } = {}): Contestant[] {
  return options.faults ? [...DEFAULT_CONTESTANTS, ...FAULTS] : [...DEFAULT_CONTESTANTS];
}

/** Looks up any contestant by id, faults included: naming a fault is asking for it. */
export function contestantById(id: string): Contestant | undefined {
  return DEFAULT_CONTESTANTS.find((c) => c.id === id) ?? FAULTS.find((c) => c.id === id);
}

/** Resolves ids in order; an unknown id is an error that lists the known ones. */
export function resolveContestants(ids: readonly string[]): Contestant[] {
  return ids.map((id) => {
    const contestant = contestantById(id);
    if (!contestant) {
      const known = [...DEFAULT_CONTESTANT_IDS, ...FAULTS.map((f) => f.id)].join(', ');
      throw new RangeError(`unknown contestant "${id}"; known: ${known}`);
    }
    return contestant;
  });
}
