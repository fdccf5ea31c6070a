// What a Go stage's stored profiles say, in words the page puts above the tables: the
// hottest function and its share, where it was a step before, and on the allocation
// steps which function allocates and how much per hash. Every figure comes from the
// profiles; the sentences are ours. Text in `backticks` is shown as code.

import { baseName } from '../../core/profile/drift.ts';
import { hottest, type ProfileFunction, type StageProfile } from '../../core/profile/profile.ts';
import type { GoStepProfiles } from '../../core/profile/go-profiles.ts';

/** The name a reader knows from the code: `g`, `(*Digest).Sum`, or the whole name for the runtime. */
const codeName = (f: ProfileFunction, stage: string) => {
  const name = baseName(f.name);
  return name.startsWith(`blake2slab/${stage}.`) ? name.slice(`blake2slab/${stage}.`.length) : name;
};

const inlined = (f: ProfileFunction) => / \(inline\)$/.test(f.name);
const share = (n: number) => `${n.toFixed(1)}%`;
const hashes = (p: StageProfile) => (p.inputs ?? []).reduce((n, input) => n + input.hashes, 0);

/** The CPU profile: a lead sentence (all presenter mode shows) and the rest, against the step before when there is one. */
export function cpuWords(now: GoStepProfiles, before: GoStepProfiles | undefined): { lead: string; more: string } {
  const hot = hottest(now.cpu)!;
  const name = codeName(hot, now.stage);
  const caller = now.cpu.functions.find((f) => codeName(f, now.stage) === 'compress');
  let lead = `\`${name}\` is the hottest function: ${share(hot.selfPercent)} of the CPU samples land in it (flat)`;
  if (caller && caller !== hot) lead += `, and ${share(caller.totalPercent)} in \`compress\` or what it calls (cum)`;
  lead += '.';
  const more: string[] = [];
  if (inlined(hot)) {
    more.push(`It is no longer a call: the compiler inlined it into \`compress\`, and pprof still charges those instructions to \`${name}\`, marked “(inline)”.`);
  }
  if (before) {
    const then = before.cpu.functions.find((f) => codeName(f, before.stage) === name);
    if (then) more.push(`At stage ${Number(before.stage.slice(0, 2))}: ${share(then.selfPercent)}${inlined(then) || !inlined(hot) ? '' : ', as a call of its own'}.`);
  }
  return { lead, more: more.join(' ') };
}

/** The allocation profile: who allocates and how much per hash, and what allocating costs in the CPU profile. */
export function allocWords(now: GoStepProfiles): string | null {
  const alloc = now.alloc;
  if (!alloc) return null;
  const own = alloc.functions.filter((f) => baseName(f.name).startsWith(`blake2slab/${now.stage}.`) && codeName(f, now.stage) !== 'New');
  const perHash = own.reduce((n, f) => n + f.selfSamples, 0) / hashes(alloc);
  const malloc = now.cpu.functions.find((f) => baseName(f.name) === 'runtime.mallocgc');
  if (perHash < 1) {
    return `Nothing is allocated per hash any more: the ${Math.round(alloc.samples / 1024)} KiB left are the benchmark’s own setup, its input (\`message\`) and \`New\`, once per run${malloc ? '' : ', and `runtime.mallocgc` is gone from the CPU profile'}.`;
  }
  const hot = hottest(alloc)!;
  const cost = malloc ? ` Allocating them is ${share(malloc.totalPercent)} of the CPU samples (\`runtime.mallocgc\`, cum).` : '';
  return `\`${codeName(hot, now.stage)}\` allocates ${share(hot.selfPercent)} of the bytes the benchmark allocates: ${Math.round(perHash)} B per hash, made anew for every hash.${cost}`;
}
