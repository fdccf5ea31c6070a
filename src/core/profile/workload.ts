// What a profiled stage does while V8 samples it, the same in Node (src/node/profile/probe.ts)
// and on a page of headless Chromium (src/node/profile/chromium-profile.ts): one fixed
// input hashed over and over. The clock is read once a batch of about a millisecond, not
// once a hash, so reading it stays out of the profile even at 1 KiB in the fastest stages.

import { STAGES, type Hasher } from '../../../steps/index.ts';

const KiB = 1024;
/** Stage 11's pool takes inputs from this size on in profiles: fixed, so a profile does not depend on start()'s timing. */
export const POOL_MIN_BYTES = 512 * KiB;
const BATCH_MS = 1;
const STAND_IN_CALLS = 100;

export interface ProfiledStage {
  hasher: Hasher;
  /** What the profile of `bytes` leaves out or fixes (stages 10 and 11), after the run. */
  note(bytes: number): string | undefined;
  stop(): void;
}

/** The stage's own code in a profile: its files under steps/ and the WebAssembly it builds (fromV8's startAt). */
export function isStageCode(fn: { kind: string; file: string }): boolean {
  return fn.kind === 'wasm' || (fn.kind === 'js' && fn.file.startsWith('steps/'));
}

/** The input every profile hashes: byte i is i % 251, as in the official test vectors. */
export function profileInput(bytes: number): Uint8Array {
  return Uint8Array.from({ length: bytes }, (_, i) => i % 251);
}

const size = (bytes: number) => (bytes >= 1 << 20 && bytes % (1 << 20) === 0 ? `${bytes >> 20} MiB` : bytes >= KiB && bytes % KiB === 0 ? `${bytes / KiB} KiB` : `${bytes} B`);

/**
 * Loads a stage as its profiles take it. Stages 10 and 11 are pinned as V8's evidence
 * pins them (scripts/v8-probe.ts), so two runs on one machine profile the same code:
 * stage 10 uses its rows code (load() keeps whichever of rows and words times faster,
 * which can change between runs), stage 11 one pool worker from 512 KiB on and, below
 * that, stage 10's rows code too.
 */
export async function loadForProfile(index: number): Promise<ProfiledStage> {
  const entry = STAGES[index];
  if (!entry) throw new RangeError(`there is no stage ${index}`);
  if (entry.id === '10-simd-one-block') {
    const stage = await import('../../../steps/10-simd-one-block/blake3.ts');
    await entry.load();
    stage.useOneBlockCode('rows');
    return {
      hasher: stage,
      note: () => "Stage 10 hashes with its rows code here (load() would time rows against words and keep the faster; fixed so runs compare).",
      stop: () => {},
    };
  }
  if (entry.id === '11-every-core') {
    const stage = await import('../../../steps/11-every-core/blake3.ts');
    await stage.start({ workers: 1, minBytes: POOL_MIN_BYTES });
    // start() times stage 10's two one-block codes and keeps the faster: pinned as stage 10.
    (await import('../../../steps/10-simd-one-block/blake3.ts')).useOneBlockCode('rows');
    return {
      hasher: stage,
      note: (bytes) => {
        const use = stage.threadUse();
        const sampled = 'Only the calling thread is sampled';
        if (use.fallback) return `${sampled}, and it hashed every input alone with stage 10's code: ${use.fallback}.`;
        if (bytes < use.minBytes) {
          return `${sampled}; at ${size(bytes)} it hashed every input alone with stage 10's code (the pool takes ${size(use.minBytes)} and more here, so its worker stayed idle).`;
        }
        const workers = use.threads - 1 === 1 ? "the pool's worker hashed pieces of every input too and is" : `the pool's ${use.threads - 1} workers hashed pieces of every input too and are`;
        return `${sampled}: ${workers} not in this profile.`;
      },
      stop: stage.stop,
    };
  }
  return { hasher: await entry.load(), note: () => undefined, stop: () => {} };
}

/**
 * Hashes `input` with `hasher` over and over. The call to the stage's hash() is kept from
 * being inlined into this loop: V8 books the time of inlined code to the function it was
 * inlined into, so an inlined hash() would show up as this file's loop. A call site that
 * has seen two different functions is megamorphic in V8, and TurboFan inlines only
 * through call sites that have seen one, so the loop calls a stand-in first: often
 * enough to be recorded, since V8 keeps no feedback for a function's first few calls.
 */
export class Hammer {
  private batch = 1;
  /** Folded digest bytes: keeps the optimizer from dropping a hash nobody reads. */
  sink = 0;
  hashes = 0;
  private readonly hash: (input: Uint8Array) => Uint8Array;

  constructor(
    hasher: Hasher,
    private readonly input: Uint8Array,
  ) {
    // The stage's own function: a wrapper here would be the one inlined into, and named in the profile.
    this.hash = hasher.hash;
    const standIn = () => new Uint8Array(1);
    for (let i = 0; i < STAND_IN_CALLS; i++) this.hashBatch(standIn, 1);
  }

  /** Hashes for `ms`, and sizes the batches so each takes about BATCH_MS. */
  warm(ms: number): void {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const start = performance.now();
      this.hashBatch(this.hash, this.batch);
      const took = performance.now() - start;
      if (took < BATCH_MS / 2) this.batch *= 2;
      else if (took > BATCH_MS * 2 && this.batch > 1) this.batch = Math.max(1, Math.floor(this.batch / 2));
    }
  }

  /** Hashes for at least `ms`, in whole batches. */
  run(ms: number): void {
    const end = performance.now() + ms;
    do this.hashBatch(this.hash, this.batch);
    while (performance.now() < end);
  }

  private hashBatch(hash: (input: Uint8Array) => Uint8Array, count: number): void {
    for (let i = 0; i < count; i++) this.sink ^= hash(this.input)[0];
    this.hashes += count;
  }
}
