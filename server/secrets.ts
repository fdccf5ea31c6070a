// Join codes, secret tokens and how they are checked. Only hashes of tokens are stored,
// so the database file alone lets nobody act as a teacher or a student.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { CODE_ALPHABET, CODE_LENGTH, TOKEN_BYTES } from '../src/core/class/protocol.ts';

export { CODE_PATTERN } from '../src/core/class/protocol.ts';

/*
 * A code's six symbols give 2^30, about a billion codes. Guesses are rate-limited server-wide (see
 * `guess` in limits.ts: 5 a second), so in a three-hour class an attacker tries at
 * most ~54,000 codes: with 50 classes open at once, the chance to hit one is 1 in 400.
 * And a hit gives only what the code gives every student: joining and seeing the board.
 */

export function newJoinCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** 256 random bits, URL-safe: a teacher's or a student's bearer token. */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** 96 random bits: a student's public id on the board (not a secret). */
export function newStudentId(): string {
  return randomBytes(12).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Whether `token` hashes to `stored`, in time that does not depend on where they differ. */
export function tokenMatches(token: string | undefined, stored: Buffer): boolean {
  if (typeof token !== 'string' || token.length === 0 || token.length > 200) return false;
  return timingSafeEqual(hashToken(token), stored);
}

/** The token of an `Authorization: Bearer <token>` header, if there is one. */
export function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header ?? '');
  return match?.[1];
}
