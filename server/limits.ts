// How much the class server lets anyone do, in one place. The figures are sized to the
// app's own pace: a student's page posts its results so far every POST_EVERY_MS (2.5 s,
// src/core/class/protocol.ts) while a run goes, then the finished document at once; 200 students doing
// that is 80 posts a second, all of which pass. What they stop is one browser or one
// script flooding a class, the board, or the server.
import { RateLimit } from './rate-limit.ts';

/** A class is open for joining and posting this long by default; then it is read-only. */
export const DEFAULT_SESSION_MINUTES = 180;

/** An ended class stays readable (board, export) this long after it closed for posting, then is deleted. */
export const KEEP_AFTER_END_MS = 7 * 24 * 3600_000;

/** Machines in one class. */
export const MAX_STUDENTS = 500;

/**
 * Machines one client (one network address) may add to one class: a student with a
 * laptop, a phone and three browsers each, and the teacher's own, fit; a script does
 * not fill a class. Counted in memory only, for as long as the server runs.
 */
export const MAX_MACHINES_PER_CLIENT = 12;

/** Live board connections, per class, in all, and from one client (a projector, a laptop, a few tabs). */
export const MAX_LISTENERS_PER_SESSION = 600;
export const MAX_LISTENERS = 3000;
export const MAX_LISTENERS_PER_CLIENT = 8;

/**
 * Bytes of events a board may fall behind by before the server drops it: some minutes of
 * a busy class. A reader that does not read would otherwise grow the server's memory
 * without bound; a board that is dropped says so and reconnects (src/app/class/live.svelte.ts).
 */
export const MAX_STREAM_BACKLOG_BYTES = 256 * 1024;

/** Request bodies other than results: a plan or a nickname. */
export const SMALL_BODY_BYTES = 16 * 1024;

export function rateLimits() {
  return {
    /** Starting classes: only the host may (host.ts), twenty at once, then one every three seconds. */
    create: new RateLimit(20, 1 / 3),
    /** Codes that match no class, server-wide: what bounds guessing (see secrets.ts). */
    guess: new RateLimit(20, 5),
    /** Joins into one class: the whole class joining at once, then 50 a second. */
    classJoins: new RateLimit(MAX_STUDENTS, 50),
    /**
     * Partial results from one student: the page sends one every 2.5 s; this allows a
     * burst of six, then one every 2 s.
     */
    partial: new RateLimit(6, 0.5),
    /**
     * Finished results from one student, counted apart so partial posts never use them
     * up: a run ends at most once every few seconds, cancelled runs included.
     */
    final: new RateLimit(6, 0.2),
    /** Any API request on one connection. */
    connection: new RateLimit(120, 40),
  };
}

export type RateLimits = ReturnType<typeof rateLimits>;
