// How a bench worker compares a contestant's digest with the oracle's, and says what it
// got when they differ: the first bytes in hex, enough to tell a wrong digest from junk.

/** An error as one line: its name and message. */
export function message(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

export function hex(bytes: Uint8Array, max = 8): string {
  let out = '';
  for (const byte of bytes.subarray(0, max)) out += byte.toString(16).padStart(2, '0');
  return out;
}

export function sameDigest(actual: unknown, expected: Uint8Array): boolean {
  if (!(actual instanceof Uint8Array) || actual.length !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (actual[i] !== expected[i]) return false;
  return true;
}

export function describeDigest(actual: unknown): string {
  if (actual instanceof Uint8Array) return `${hex(actual)}… (${actual.length} bytes)`;
  return `a ${typeof actual} instead of bytes`;
}

/** The reason a digest checked before any timing was wrong. */
export function wrongBeforeTiming(length: number, actual: unknown, expected: Uint8Array): string {
  return `wrong digest for a ${length}-byte input: got ${describeDigest(actual)}, expected ${hex(expected)}…; never timed`;
}
