// Join codes, secret tokens and how they are checked. Only hashes of tokens are stored,
// so the database file alone lets nobody act as a teacher or a student.
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { CODE_ALPHABET, CODE_LENGTH, TOKEN_BYTES, TOKEN_PATTERN } from '../src/core/class/protocol.ts';

export { CODE_PATTERN } from '../src/core/class/protocol.ts';

/*
 * A code's six symbols give 2^30, about a billion codes. Codes that match no class are limited per
 * address (5 a second) and server-wide (50 a second): `guess` and `guessBackstop` in
 * limits.ts. At the server-wide pace a three-hour class sees ~540,000 guesses: with 50
 * classes open, about a 1 in 40 chance that one hits; from one address ~54,000, 1 in 400.
 * Past a limit the answer is a 429 that still says there is no such class, so a guesser
 * that does not wait is slowed only by the server's speed; the code space is what holds
 * then. A hit gives only what the code gives every student (joining, within the class
 * size, and the board), and the teacher can give the class a new code.
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
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return false;
  return timingSafeEqual(hashToken(token), stored);
}

/** The token of an `Authorization: Bearer <token>` header, if there is one (tokenMatches checks its shape). */
export function bearer(header: string | undefined): string | undefined {
  return /^Bearer (\S+)$/.exec(header ?? '')?.[1];
}

/** Who an event-stream ticket names: the teacher, or a machine by its id. */
export type TicketHolder = 'teacher' | { machine: string };

/**
 * An event-stream ticket: "<holder>.<mac>", the mac keyed by the holder's stored token hash,
 * so the server needs no other secret and the ticket survives a restart. It travels in a
 * URL (EventSource sends no headers), so it can only claim a stream, never act.
 */
export function streamTicket(holder: TicketHolder, tokenHash: Buffer): string {
  const name = holder === 'teacher' ? 'teacher' : holder.machine;
  return `${name}.${createHmac('sha256', tokenHash).update(`events ${name}`).digest('base64url').slice(0, 22)}`;
}

/** A ticket's holder as it claims to be ("teacher" or a machine id), before it is checked. */
export function ticketHolder(ticket: string | undefined): TicketHolder | null {
  const match = /^(teacher|[A-Za-z0-9_-]{16})\.[A-Za-z0-9_-]{22}$/.exec(ticket ?? '');
  if (!match) return null;
  return match[1] === 'teacher' ? 'teacher' : { machine: match[1] };
}

export function ticketMatches(ticket: string, holder: TicketHolder, tokenHash: Buffer): boolean {
  const expected = Buffer.from(streamTicket(holder, tokenHash));
  const given = Buffer.from(ticket);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
