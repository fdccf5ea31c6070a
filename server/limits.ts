// How much the class server lets anyone do, in one place. Each figure leaves a real class
// (thirty students posting their results as they arrive, a few hundred at most) far
// inside it, and stops one browser or one script from flooding a class or the server.
import { RateLimit } from './rate-limit.ts';

/** A class is open for joining and posting this long by default; then it is read-only. */
export const DEFAULT_SESSION_MINUTES = 180;

/** An ended class stays readable (board, export) this long after it closed for posting, then is deleted. */
export const KEEP_AFTER_END_MS = 7 * 24 * 3600_000;

/** Classes open at once on one server. */
export const MAX_OPEN_SESSIONS = 50;

/** Machines in one class. */
export const MAX_STUDENTS = 500;

/** Live board connections, per class and in all. */
export const MAX_LISTENERS_PER_SESSION = 600;
export const MAX_LISTENERS = 3000;

/** Nicknames: short enough for a table cell. */
export const MAX_NICKNAME_CHARS = 40;

/** Request bodies other than results: a plan or a nickname. */
export const SMALL_BODY_BYTES = 16 * 1024;

export function rateLimits() {
  return {
    /** Starting classes, server-wide: twenty at once, then one every three seconds. */
    create: new RateLimit(20, 1 / 3),
    /** Codes that match no class, server-wide: what bounds guessing (see secrets.ts). */
    guess: new RateLimit(20, 5),
    /** Joins and posts into one class: a whole class joining at once, then 50 a second. */
    session: new RateLimit(400, 50),
    /** Posts from one student: a run posts its results every few seconds while it goes. */
    student: new RateLimit(6, 0.5),
    /** Any API request on one connection. */
    connection: new RateLimit(120, 40),
  };
}

export type RateLimits = ReturnType<typeof rateLimits>;
