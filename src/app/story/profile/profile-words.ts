// What the "Where the time goes" section says, computed from the profiles and the stage's
// profile facts (src/app/story/narrative.ts): which rows to mark, the sentence that ties the
// profile to the change, and whether a live profile agrees with the stored one. Pure, so
// the words are tested against profiles made by hand.

import { hottest, type ProfileFunction, type StageProfile } from '../../../core/profile/profile.ts';
import type { ProfileFacts } from '../../ui/lesson/story-types.ts';
import { formatSize } from '../../../core/format.ts';

/** Whether a function is one this stage changes. */
export function isChanged(facts: ProfileFacts, fn: Pick<ProfileFunction, 'name' | 'kind'>): boolean {
  return facts.changes.includes(fn.name) || (facts.changesWasm === true && fn.kind === 'wasm');
}

/** The summed self share of `names` in a profile: a function with no sample adds 0. */
export function shareOf(profile: StageProfile, names: string[]): number {
  const sum = profile.functions.filter((f) => names.includes(f.name)).reduce((total, f) => total + f.selfSamples, 0);
  return profile.samples > 0 ? (100 * sum) / profile.samples : 0;
}

export const pct = (share: number) => `${share.toFixed(1)}%`;

/** "`a`", "`a` and `b`", "`a`, `b` and `c`". */
export function codeList(names: string[]): string {
  const code = names.map((name) => `\`${name}\``);
  return code.length < 2 ? (code[0] ?? '') : `${code.slice(0, -1).join(', ')} and ${code.at(-1)}`;
}

/**
 * The sentence under the heading: the watched functions' share of the stage before and of
 * this one, at the same input size ("`permute` and `(garbage collector)` had 19.2% of stage
 * 1's time at 64 KiB; in stage 2 they have 4.5%."). Without the stage before, this one's share.
 */
export function changeSentence(facts: ProfileFacts, index: number, now: StageProfile, before?: StageProfile): string {
  const names = codeList(facts.watch);
  const plural = facts.watch.length > 1;
  const size = formatSize(now.inputBytes);
  const nowShare = pct(shareOf(now, facts.watch));
  if (!before) return `${names} ${plural ? 'have' : 'has'} ${nowShare} of stage ${index}’s time at ${size}.`;
  return `${names} had ${pct(shareOf(before, facts.watch))} of stage ${index - 1}’s time at ${size}; in stage ${index} ${plural ? 'they have' : 'it has'} ${nowShare}.`;
}

/** "`readLittleEndianWords` 6.7%, `chunkChainingValue` 87.3%": what a profile gives the two functions of an inlining. */
export function inliningShares(profile: StageProfile, inlining: { callee: string; caller: string }): string {
  return [inlining.callee, inlining.caller].map((name) => `\`${name}\` ${pct(shareOf(profile, [name]))}`).join(', ');
}

export interface HottestComparison {
  live?: ProfileFunction;
  stored?: ProfileFunction;
  same: boolean;
  /** The live profile's second function of our code, which the first leads. */
  runnerUp?: ProfileFunction;
}

/** The hottest function of our code in the live and the stored profile. */
export function compareHottest(live: StageProfile, stored: StageProfile): HottestComparison {
  const first = hottest(live);
  const top = hottest(stored);
  return {
    live: first,
    stored: top,
    same: first !== undefined && first.name === top?.name,
    runnerUp: live.functions.find((f) => f !== first && ['js', 'wasm', 'go'].includes(f.kind)),
  };
}

/**
 * Whether the live profile's first two could swap by chance. Two shares p1 and p2 of n
 * samples differ by p1 - p2 with a standard error of sqrt((p1 + p2 - (p1 - p2)^2) / n);
 * a lead under two of those is one a second profile may well reverse.
 */
export function withinNoise(comparison: HottestComparison, samples: number): boolean {
  const p1 = (comparison.live?.selfSamples ?? 0) / Math.max(1, samples);
  const p2 = (comparison.runnerUp?.selfSamples ?? 0) / Math.max(1, samples);
  return p1 - p2 < 2 * Math.sqrt((p1 + p2 - (p1 - p2) ** 2) / Math.max(1, samples));
}

/** Below this self share a function was inlined into its caller: its time is counted there. */
const INLINED_BELOW = 2;

export interface Comparison {
  /** Which function each profile names the hottest. */
  lead: string;
  /** Why they differ, when they do. */
  reason?: string;
}

/** What the live profile says beside the stored one: the two hottest functions, and why they differ when they do. */
export function comparisonWords(live: StageProfile, stored: StageProfile, facts: ProfileFacts): Comparison {
  const c = compareHottest(live, stored);
  if (!c.live || !c.stored) return { lead: 'One of the two profiles has no sample of the stage’s own code to compare.' };
  if (c.same) {
    return { lead: `Both profiles name \`${c.live.name}\` the hottest function: ${pct(c.live.selfPercent)} here, ${pct(c.stored.selfPercent)} in the stored profile.` };
  }
  const lead = `Hottest here: \`${c.live.name}\` (${pct(c.live.selfPercent)}); in the stored profile: \`${c.stored.name}\` (${pct(c.stored.selfPercent)}).`;
  const storedEngine = `Node ${stored.source.runtime.replace(/^v/, '').split('.')[0]}’s V8`;
  const pair = facts.inlining;
  if (pair) {
    const liveInlined = shareOf(live, [pair.callee]) < INLINED_BELOW;
    const storedInlined = shareOf(stored, [pair.callee]) < INLINED_BELOW;
    if (liveInlined !== storedInlined) {
      const [kept, folded] = liveInlined ? [stored, live] : [live, stored];
      const keptBy = liveInlined ? storedEngine : 'this browser’s V8';
      const foldedBy = liveInlined ? 'this browser’s V8' : storedEngine;
      return {
        lead,
        reason: `Inlining: ${keptBy} kept \`${pair.callee}\` a function of its own (${pct(shareOf(kept, [pair.callee]))}); ${foldedBy} inlined it into \`${pair.caller}\`, which counts that time as its own (${pct(shareOf(folded, [pair.caller]))}).`,
      };
    }
  }
  if (withinNoise(c, live.samples)) {
    const gap = (c.live.selfPercent - (c.runnerUp?.selfPercent ?? 0)).toFixed(1);
    return {
      lead,
      reason: `Here \`${c.live.name}\` leads \`${c.runnerUp?.name}\` by ${gap} points, which ${live.samples} samples cannot tell from chance: profile again, and the two may swap.`,
    };
  }
  return {
    lead,
    reason: `Two engines: ${storedEngine} and this browser’s each decide for themselves what to inline and when to optimize, and that decides under which name the time shows.`,
  };
}
