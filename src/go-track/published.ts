// The published figures of the Go talk this track retells: George Tankersley's
// "Micro-Optimizing Go Code" (GopherCon 2018), which took a BLAKE2s written from RFC
// 7693 through inlining, bounds-check elimination, arrays, clearing and buffer reuse.
// Figures as printed on the slides (benchstat's old format, samples per side not
// printed); the benchmark names end in -4, so the machine ran them with four threads.

export const TALK = {
  title: 'Micro-Optimizing Go Code',
  speaker: 'George Tankersley',
  event: 'GopherCon 2018',
  date: '2018-08-29',
  slides: 'https://speakerdeck.com/gtank/micro-optimizing-go-code',
  code: 'https://github.com/gtank/blake2s',
  machine: 'the speaker’s machine, GOMAXPROCS 4 (names end in -4)',
} as const;

export interface PublishedRow {
  name: string;
  old: string;
  new: string;
  delta: string;
  p: string;
}

export interface PublishedTable {
  /** Where in the talk the table is. */
  where: string;
  /** What was compared: "old" and "new" in the talk's words. */
  compares: string;
  time: PublishedRow[];
  speed: PublishedRow[];
}

/** Slide 2: the first implementation against the last, the whole talk in one table. */
export const TALK_SUMMARY: PublishedTable = {
  where: 'slide 2, “This is a story of getting a little carried away”',
  compares: 'the first implementation (old) against the last (new)',
  time: [
    { name: 'Hash8Bytes-4', old: '971ns ± 4%', new: '392ns ± 1%', delta: '-59.66%', p: 'p=0.008' },
    { name: 'Hash1K-4', old: '10.2µs ±11%', new: '3.1µs ± 3%', delta: '-69.26%', p: 'p=0.008' },
    { name: 'Hash8K-4', old: '77.0µs ± 4%', new: '23.4µs ± 1%', delta: '-69.60%', p: 'p=0.008' },
  ],
  speed: [
    { name: 'Hash8Bytes-4', old: '8.24MB/s ± 4%', new: '20.41MB/s ± 1%', delta: '+147.65%', p: 'p=0.008' },
    { name: 'Hash1K-4', old: '101MB/s ±10%', new: '327MB/s ± 3%', delta: '+224.31%', p: 'p=0.008' },
    { name: 'Hash8K-4', old: '106MB/s ± 4%', new: '350MB/s ± 1%', delta: '+228.73%', p: 'p=0.008' },
  ],
};

/** Why a step has no published table here. */
export const NO_STEP_TABLE =
  'No table for this step: only the talk’s summary table (slide 2, shown on the last stage) is recorded here, and numbers are never reconstructed. The slides are linked below.';

/**
 * The talk's table for each step, by Go stage index (1 to 5; stage 0 is the start).
 * null: see NO_STEP_TABLE.
 */
export const TALK_STEPS: (PublishedTable | null)[] = [null, null, null, null, null, null];
