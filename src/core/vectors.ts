// What the vector file data/blake3-vectors.json holds, and the input pattern it is
// built on. Shared by the generator (scripts/gen-vectors.ts), the unit tests and the
// browser self-test, so all three agree on what "the vectors" are.

/** The input lengths of the official BLAKE3 test vectors (test_vectors.json), in order. */
export const OFFICIAL_LENGTHS: readonly number[] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 2048, 2049, 3072, 3073,
  4096, 4097, 5120, 5121, 6144, 6145, 7168, 7169, 8192, 8193, 16384, 31744, 102400,
];

/**
 * Lengths beyond the official set, where tree shapes get deep and where a four-chunks-at-
 * a-time path has been known to go wrong (above 512 KiB, odd chunk counts).
 */
export const EXTRA_LENGTHS: readonly number[] = [65537, 524289, 1048577, 1234567, 3145711];

export interface VectorCase {
  /** Input of this many bytes, byte i being i % 251. */
  input_len: number;
  /** Hex of the default 32-byte BLAKE3 hash. */
  hash: string;
  /** True for the 35 lengths the official vector file covers. */
  official: boolean;
}

export interface VectorFile {
  generator: string;
  input: string;
  /** package@version of each implementation that computed and agreed on every hash. */
  implementations: string[];
  cases: VectorCase[];
}

/** Byte i of every input the vectors and the bench hash is i % INPUT_MODULUS (a prime, so no power-of-two period). */
export const INPUT_MODULUS = 251;

/** The official vectors' input, and the bench's: `length` bytes where byte i is i % 251. */
export function patternInput(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = i % INPUT_MODULUS;
  return bytes;
}

/**
 * `length` bytes of xorshift32 from `seed` (0 counts as 1): deterministic, and unlike the
 * vectors' i % 251 pattern, so a hash that only ever saw the pattern is checked too.
 */
export function xorshiftInput(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += bytes[i].toString(16).padStart(2, '0');
  return hex;
}
