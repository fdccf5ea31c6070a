// Profiles a stage with the JS Self-Profiling API (`new Profiler()`), which Chromium
// offers to a document served with `Document-Policy: js-profiling`, and to a dedicated
// worker only behind two of its features (ProfilerAPIForDedicatedWorker and
// DocumentPolicyInDedicatedWorker, for a classic worker whose script carries the header).
// The page uses a worker where one can profile (workers/profile.worker.ts) and profiles
// itself where not. Either way it hashes in slices of at most 50 ms and yields between
// them: on the page the browser paints and answers input in the gaps, and only the time
// inside the slices is the stage's (fromSelfProfiling drops the samples between them).

import type { SelfProfilingTrace } from './from-self-profiling.ts';
import { patternInput } from '../vectors.ts';
import { Cancelled } from '../worker.ts';

/** Hashing per slice; a slice ends before the next hash would pass it, so one stays under 50 ms. */
export const SLICE_MS = 40;
/** A hash longer than this leaves a slice too little room: the input gets smaller. */
export const MAX_HASH_MS = SLICE_MS / 4;
/** How long the profiler runs: about 200 samples at Chromium's 10 ms. */
export const PROFILE_MS = 2000;
/** Warm-up at the profiled size first, so the profile shows optimized code, as the stored one does. */
const WARM_UP_MS = 300;
/** Chromium samples no faster than every 10 ms; asking for 1 ms gets its fastest. */
const SAMPLE_INTERVAL_MS = 1;

interface Profiler {
  readonly sampleInterval: number;
  stop(): Promise<SelfProfilingTrace>;
}
type ProfilerConstructor = new (options: { sampleInterval: number; maxBufferSize: number }) => Profiler;

const profilerClass = () => (globalThis as { Profiler?: ProfilerConstructor }).Profiler;

/** Why this browser cannot profile the page, or undefined when it has the API. */
export function liveUnavailable(): string | undefined {
  return profilerClass()
    ? undefined
    : 'This browser has no JS Self-Profiling API (Chromium has it), so only the stored profile shows here.';
}

/** Starts the profiler; a document without the policy header gets an error that says so. */
function startProfiler(): Profiler {
  const Profiler = profilerClass();
  if (!Profiler) throw new Error(liveUnavailable());
  try {
    return new Profiler({ sampleInterval: SAMPLE_INTERVAL_MS, maxBufferSize: 10_000 });
  } catch (error) {
    throw new Error(
      `This host does not send the \`Document-Policy: js-profiling\` header, without which Chromium will not profile the page, so only the stored profile shows here (${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
}

/** Whether this context (the page, or a worker) may start the profiler: the API is there and its policy allows it. */
export async function canProfile(): Promise<boolean> {
  try {
    await startProfiler().stop();
    return true;
  } catch {
    return false;
  }
}

/** Lets the page paint and handle input between slices. */
const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// The same Cancelled as a worker call's, so the page's profile and the worker's end alike.
export { Cancelled };

interface Slicing {
  signal?: AbortSignal;
  /** Each slice's [start, end] on performance.now()'s clock. */
  windows?: [number, number][];
}

/** Hashes between two reads of the clock take about this long: reading it then costs little beside them. */
const BATCH_MS = 0.2;

/**
 * Hashes `input` for `ms` of hashing time in slices, yielding between them, and returns
 * the time of one hash in the fastest slice: the code at its warmest. `hashMs` is a first
 * guess at it, which keeps the first slice short.
 */
async function hashInSlices(hash: (input: Uint8Array) => unknown, input: Uint8Array, ms: number, hashMs: number, slicing: Slicing = {}): Promise<number> {
  let spent = 0;
  let perHash = hashMs;
  let fastest = Infinity;
  while (spent < ms) {
    // Yield first: every slice then starts from a task of its own, so its stack begins here
    // and the profile's call tree has one root, not one for the first slice and one for the rest.
    await yieldToPage();
    if (slicing.signal?.aborted) throw new Cancelled();
    const batch = perHash > 0 ? Math.min(1000, Math.max(1, Math.floor(BATCH_MS / perHash))) : 1;
    const start = performance.now();
    let now = start;
    let hashes = 0;
    do {
      for (let i = 0; i < batch; i++) hash(input);
      hashes += batch;
      now = performance.now();
    } while (now - start + batch * perHash < SLICE_MS && spent + (now - start) < ms);
    slicing.windows?.push([start, now]);
    spent += now - start;
    // The last slice's pace bounds the next one; the fastest is what the code can do.
    perHash = (now - start) / hashes;
    fastest = Math.min(fastest, perHash);
  }
  return fastest;
}

/** BLAKE3's test input pattern (../vectors.ts), as the bench and the stored profiles hash. */
export const testInput = patternInput;

export interface SizeChoice {
  bytes: number;
  /** When the size asked for would not fit a slice: about how long one hash of it takes here. */
  tooSlowMs?: number;
}

/**
 * The input to profile: `wanted` when one hash of it fits a slice with room to spare,
 * else `fallback`. It climbs to `wanted` by fourfold sizes, timing each, and stops before
 * a size whose hash would take longer than MAX_HASH_MS (guessed from how the time grew
 * from the last size: fourfold for a linear stage, sixteenfold for a quadratic one), so
 * no single hash ever holds the page for long.
 */
export async function chooseSize(hash: (input: Uint8Array) => unknown, wanted: number, fallback: number, signal?: AbortSignal): Promise<SizeChoice> {
  let bytes = Math.min(fallback, wanted);
  // Longer at the smallest size: the optimizing compiler steps in there, for every size after.
  let ms = await hashInSlices(hash, testInput(bytes), 150, 0, { signal });
  let growth = 16; // nothing known yet: assume the worst
  while (bytes < wanted) {
    const guess = ms * growth;
    // Too slow already one size up: say how slow `wanted` would be, growing the same way.
    if (guess > MAX_HASH_MS) return { bytes: fallback, tooSlowMs: guess * growth ** (Math.log2(wanted / (bytes * 4)) / 2) };
    const next = await hashInSlices(hash, testInput(bytes * 4), 60, guess, { signal });
    growth = Math.min(16, Math.max(4, next / ms));
    bytes *= 4;
    ms = next;
  }
  return ms > MAX_HASH_MS ? { bytes: fallback, tooSlowMs: ms } : { bytes };
}

export interface SlicedProfile {
  trace: SelfProfilingTrace;
  windows: [number, number][];
  intervalMs: number;
}

/**
 * Warms up, then profiles PROFILE_MS of hashing `input`. `onProgress` gets the share done,
 * 0 to 1. Throws Cancelled when `signal` aborts, with the profiler stopped.
 */
export async function profileInSlices(
  hash: (input: Uint8Array) => unknown,
  input: Uint8Array,
  options: { signal?: AbortSignal; onProgress?: (done: number) => void } = {},
): Promise<SlicedProfile> {
  const { signal, onProgress } = options;
  const hashMs = await hashInSlices(hash, input, WARM_UP_MS, 0, { signal });
  const profiler = startProfiler();
  const windows: [number, number][] = [];
  try {
    // Slices of PROFILE_MS / 10, so the progress bar moves in tenths.
    for (let tenth = 0; tenth < 10; tenth++) {
      await hashInSlices(hash, input, PROFILE_MS / 10, hashMs, { signal, windows });
      onProgress?.((tenth + 1) / 10);
    }
  } catch (error) {
    await profiler.stop();
    throw error;
  }
  return { trace: await profiler.stop(), windows, intervalMs: profiler.sampleInterval };
}
