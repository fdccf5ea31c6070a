// Every contestant's id, title and kind, without loading one: what the class server, its
// exports and the class pages need to name them. contestants.ts adds the loaders (and
// with them the hash libraries), which only a run needs.
import { STAGES, type Stage } from '../../../steps/index.ts';
import { BASELINE_INFO } from '../../../steps/baseline-info.ts';
import type { Requirement } from './capabilities.ts';

export interface ContestantLabel {
  id: string;
  title: string;
  kind: 'stage' | 'baseline' | 'peer';
  /** What the runtime must offer for it to run at all (WebAssembly SIMD, WebCrypto). */
  requires?: Requirement;
}

/** A stage as lists show it: "4. State in locals". */
export const stageTitle = (stage: Pick<Stage, 'index' | 'title'>): string => `${stage.index}. ${stage.title}`;

/** Every stage, then every baseline: what a run times unless told otherwise. */
export const CONTESTANT_LABELS: readonly ContestantLabel[] = [
  ...STAGES.map((stage): ContestantLabel => ({ id: stage.id, title: stageTitle(stage), kind: 'stage', requires: stage.requires })),
  // The browser's SHA-256 is crypto.subtle; Node's is node:crypto but offers WebCrypto too.
  ...BASELINE_INFO.map(({ id, title, kind, digest }): ContestantLabel => ({ id, title, kind, requires: digest === 'sha256' ? 'webcrypto' : undefined })),
];

export const DEFAULT_CONTESTANT_IDS: readonly string[] = CONTESTANT_LABELS.map((c) => c.id);
