// What every machine in a class measures: the teacher picks it once, every student's
// run follows it, so all the points on the board are comparable. The server checks a
// plan with checkClassPlan before storing it; the student's page runs it as it is.
import { STAGES } from '../../../steps/index.ts';
import { BLAKE3_WASM } from '../../../steps/baseline-info.ts';
import { CONTESTANT_LABELS, DEFAULT_CONTESTANT_IDS } from '../bench/contestant-labels.ts';
import { DEFAULT_SIZES } from '../bench/plan.ts';
import { formatSize } from '../format.ts';
import type { PlanNeeds } from './secure-origin.ts';
import { LAST_EXERCISE } from './exercise.ts';

export interface ClassPlan {
  /** Stage and baseline ids, in the registry's order. */
  contestants: string[];
  /** Input sizes in bytes, ascending, from the bench's size list. */
  sizes: number[];
  rounds: number;
  /** The exercise whose attempts the board counts (src/core/class/exercise.ts); none unless the teacher names one. */
  exercise?: number;
}

/** More rounds than this would keep a class waiting; the bench page is there for long runs. */
export const MAX_CLASS_ROUNDS = 30;

/**
 * Every stage and the WASM yardstick at 1 KiB and 64 KiB, 10 rounds: one sample a round,
 * so every step the Teach plans send the class to (stages 2 to 5, 7 against 6, 9 against
 * Rust WASM, 11 against 10) has a finite 95% interval (6 samples a side, verdicts.ts) and
 * can pass Holm over the run's 22 steps with room to spare (the smallest adjusted p at 10
 * a side is 0.0002; at 6 it is 0.048). The bench's samples last a set time, so the run
 * grows with the rounds more than with the processor: in Chromium slowed 4x through the
 * DevTools protocol on a busy 2-core machine it took 72 s and 89 s (3 rounds: 30 s),
 * `npx tsx server/load/plan-time.ts --dist dist --rounds 10 --runs 2`. Stage 0 stays in:
 * the first rung is the lesson's most striking one, and its quadratic cost is still only
 * tens of ms a hash at 64 KiB.
 */
export const DEFAULT_CLASS_PLAN: ClassPlan = {
  contestants: CONTESTANT_LABELS.filter((c) => c.kind === 'stage' || c.id === BLAKE3_WASM.id).map((c) => c.id),
  sizes: [1024, 65536],
  rounds: 10,
};

export type PlanCheck = { ok: true; plan: ClassPlan } | { ok: false; error: string };

/** Checks a plan from outside (the teacher's page) and returns a fresh copy in canonical order. */
export function checkClassPlan(value: unknown): PlanCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'The plan must be an object' };
  const keys = Object.keys(value);
  const extra = keys.find((key) => !['contestants', 'sizes', 'rounds', 'exercise'].includes(key));
  if (extra !== undefined) return { ok: false, error: `The plan has a field "${extra.slice(0, 40)}" that plans do not have` };
  const { contestants, sizes, rounds, exercise } = value as Record<string, unknown>;
  if (!Array.isArray(contestants) || contestants.length === 0) return { ok: false, error: 'Pick at least one stage or library' };
  const unknown = contestants.find((id) => typeof id !== 'string' || !DEFAULT_CONTESTANT_IDS.includes(id));
  if (unknown !== undefined) return { ok: false, error: `${JSON.stringify(unknown)?.slice(0, 40)} is not a stage or library of this lab` };
  if (!Array.isArray(sizes) || sizes.length === 0) return { ok: false, error: 'Pick at least one input size' };
  const badSize = sizes.find((size) => typeof size !== 'number' || !DEFAULT_SIZES.includes(size));
  if (badSize !== undefined) {
    return { ok: false, error: `${JSON.stringify(badSize)?.slice(0, 40)} is not one of the sizes ${DEFAULT_SIZES.map(formatSize).join(', ')}` };
  }
  if (typeof rounds !== 'number' || !Number.isInteger(rounds) || rounds < 1 || rounds > MAX_CLASS_ROUNDS) {
    return { ok: false, error: `Rounds must be a whole number from 1 to ${MAX_CLASS_ROUNDS}` };
  }
  if (exercise !== undefined && (typeof exercise !== 'number' || !Number.isInteger(exercise) || exercise < 1 || exercise > LAST_EXERCISE)) {
    return { ok: false, error: `The exercise must be a whole number from 1 to ${LAST_EXERCISE}, or left out` };
  }
  const plan: ClassPlan = {
    contestants: DEFAULT_CONTESTANT_IDS.filter((id) => contestants.includes(id)),
    sizes: DEFAULT_SIZES.filter((size) => sizes.includes(size)),
    rounds,
  };
  // Left out rather than null: plans stored before exercises read the same as a plan without one.
  if (exercise !== undefined) plan.exercise = exercise;
  return { ok: true, plan };
}

/** The plan's contestants that need more than plain JavaScript: threads (a cross-origin isolated page) or WebCrypto. */
export function planNeeds(plan: ClassPlan): PlanNeeds {
  return {
    threaded: STAGES.filter((stage) => stage.threads && plan.contestants.includes(stage.id)).map((stage) => stage.id),
    webCrypto: CONTESTANT_LABELS.filter((c) => c.requires === 'webcrypto' && plan.contestants.includes(c.id)).map((c) => c.id),
  };
}

/** A contestant named in a sentence: "stage 11 (Every core)", or a library's title. */
export function contestantPhrase(id: string): string {
  const stage = STAGES.find((s) => s.id === id);
  return stage ? `stage ${stage.index} (${stage.title})` : (CONTESTANT_LABELS.find((c) => c.id === id)?.title ?? id);
}
