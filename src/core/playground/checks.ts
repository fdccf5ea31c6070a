// What "Check" runs before anything is timed: all 35 official BLAKE3 vectors from our
// vector file (data/blake3-vectors.json), then inputs of other lengths and contents, up
// to 1 MiB, compared with an independent implementation (@noble/hashes). One input per
// call to the sandbox worker, so a draft that hangs on one input is stopped on it and
// the learner is told which. A wrong digest is reported with the first byte that differs.

import { INPUT_MODULUS, patternInput, toHex, xorshiftInput, type VectorCase } from '../vectors.ts';

export type CheckStep = { kind: 'vector'; index: number } | { kind: 'differential'; length: number };

export type CheckOutcome =
  | { ok: true; label: string }
  | {
      ok: false;
      /** Which input failed, in words; absent when the draft did not even load. */
      label?: string;
      message: string;
      expected?: string;
      actual?: string;
      /** Index of the first byte that differs. */
      firstDifference?: number;
    };

/**
 * Lengths beyond the official vectors: around each block (64 B) and chunk (1 KiB) edge
 * that the vectors skip, trees with odd numbers of chunks, and 1 MiB, the largest size
 * the lesson measures. Their bytes are not i % 251 but a pseudo-random stream, so a
 * draft tuned to the vector pattern is caught too.
 */
export const DIFFERENTIAL_LENGTHS: readonly number[] = [
  9, 31, 32, 33, 100, 191, 192, 193, 1000, 2047, 3071, 4095, 9217, 15360, 32768, 65535, 65536, 65537, 131071, 262145,
  524288, 1048575, 1048576,
];

/** Every step of a full check, vectors first (small and well known), then the differential lengths. */
export function checkSteps(vectorCount: number): CheckStep[] {
  return [
    ...Array.from({ length: vectorCount }, (_, index): CheckStep => ({ kind: 'vector', index })),
    ...DIFFERENTIAL_LENGTHS.map((length): CheckStep => ({ kind: 'differential', length })),
  ];
}

/** The same bytes for the same length everywhere: xorshift32 seeded by the length. */
export const differentialInput = (length: number): Uint8Array => xorshiftInput(length, length ^ 0x9e3779b9);

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** The input, the digest it must give and its description, for one step. */
export function checkInput(
  step: CheckStep,
  cases: readonly VectorCase[],
  oracle: (input: Uint8Array) => Uint8Array,
): { input: Uint8Array; expected: Uint8Array; label: string } {
  if (step.kind === 'vector') {
    const official = cases.filter((c) => c.official);
    const vector = official[step.index];
    if (!vector) throw new RangeError(`there is no official vector ${step.index}`);
    return {
      input: patternInput(vector.input_len),
      expected: fromHex(vector.hash),
      label: `official vector ${step.index + 1} of ${official.length}: ${vector.input_len} bytes, byte i = i % ${INPUT_MODULUS}`,
    };
  }
  const input = differentialInput(step.length);
  return { input, expected: oracle(input), label: `${step.length} pseudo-random bytes, against @noble/hashes` };
}

/** Compares a digest with the expected one; says where they first differ. */
export function checkDigest(label: string, actual: unknown, expected: Uint8Array): CheckOutcome {
  if (!(actual instanceof Uint8Array)) {
    const what = actual === null ? 'null' : typeof actual;
    return { ok: false, label, message: `hash() returned ${what}, not a Uint8Array`, expected: toHex(expected) };
  }
  let first = -1;
  for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
    if (actual[i] !== expected[i]) {
      first = i;
      break;
    }
  }
  if (first === -1) return { ok: true, label };
  const message =
    actual.length !== expected.length
      ? `the digest is ${actual.length} bytes long, not ${expected.length}`
      : `wrong digest: the bytes first differ at byte ${first}`;
  return { ok: false, label, message, expected: toHex(expected), actual: toHex(actual.subarray(0, 64)), firstDifference: first };
}
