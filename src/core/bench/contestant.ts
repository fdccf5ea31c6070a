// The shape every contestant has, stage, baseline or deliberate fault, kept apart from
// the lists of them so that contestants.ts and faults.ts both depend on it and not on
// each other.

import type { ContestantKind } from './results.ts';
import type { Requirement } from './capabilities.ts';
import type { OneBlockChoice, ThreadUse } from '../../../steps/index.ts';

export interface ContestantHasher {
  /** A 32-byte digest of `input`; WebCrypto can only answer with a promise. */
  hash(input: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Stage 11: the threads it hashes on, or why only one. */
  threadUse?(): ThreadUse;
  /** Stage 10: which one-block code it timed fastest when it loaded. */
  oneBlockChoice?(): OneBlockChoice;
}

export interface Contestant {
  id: string;
  title: string;
  kind: ContestantKind;
  /** Which function the digest must equal before any timing: BLAKE3, or SHA-256 for the native baseline. */
  oracle: 'blake3' | 'sha256';
  requires?: Requirement;
  /** package@version or platform API; undefined for stages, versioned by a hash of `files`. */
  version?: string;
  /** Repo-relative source files whose content identifies this version (stages only). */
  files: string[];
  load(): Promise<ContestantHasher>;
}
