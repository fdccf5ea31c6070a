// How much the class server lets anyone do, in one place. The figures are sized to the
// app's own pace: a student's page posts its results so far every POST_EVERY_MS (2.5 s,
// src/core/class/protocol.ts) while a run goes, then the finished document at once; 200 students doing
// that is 80 posts a second, all of which pass. What they stop is one browser or one
// script flooding a class, the board, or the server. A school's whole class may come from
// one address (its network's, or a proxy's), so the limits are keyed on what a request
// proves (a student's or the teacher's token, a stream ticket), on the connection, or on
// the class, and never on the address alone, but for codes that match no class.
import { readFileSync } from 'node:fs';
import { MAX_CLASS_SIZE } from '../src/core/class/protocol.ts';
import type { ConnectionCaps } from './connections.ts';
import { RateLimit } from './rate-limit.ts';

/** A class is open for joining and posting this long by default; then it is read-only. */
export const DEFAULT_CLASS_MINUTES = 180;

/** An ended class stays readable (board, export) this long after it closed for posting, then is deleted. */
export const KEEP_AFTER_END_MS = 7 * 24 * 3600_000;

/** Live board streams of the teacher's browsers (a projector, a laptop, a few tabs), per class. */
export const MAX_TEACHER_STREAMS = 8;
/** Live board streams of one joined machine (a few tabs of the same browser). */
export const MAX_STREAMS_PER_MACHINE = 4;

/**
 * Streams of pages that have not joined (a student about to, a visitor): twice the class's
 * places, so a whole class can watch before joining; a script that fills them costs real
 * students only the live view before they join, and joined machines stream on tickets.
 */
export const anonymousStreams = (size: number) => 2 * size + 20;

/** Open files of this process (Linux: /proc/self/limits; Node raises the soft limit to the hard one). */
function fileLimit(): number {
  try {
    const line = /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (line) return Number(line[1]);
  } catch {
    // not Linux: assume the common default
  }
  return 1024;
}

const FILES = fileLimit();

/**
 * Connections at once: under the open-file limit with room for the database and logs.
 * Waiting ones (a head or a body still coming, or idle) are the ones slow clients hold;
 * past 512 the oldest of the address holding the most is closed (connections.ts).
 */
export const CONNECTION_CAPS: ConnectionCaps = { total: Math.max(256, Math.min(4000, FILES - 256)), waiting: 512 };

/** Event streams in all: busy connections, so fewer than the connections, leaving room for requests. */
export const MAX_LISTENERS = Math.min(3000, CONNECTION_CAPS.total - 128);

/** Node's time-outs: a head must arrive within 5 s, a whole request (a body of 512 KiB on slow Wi-Fi) within 15 s. */
export const TIMEOUTS = {
  headersMs: 5000,
  requestMs: 15_000,
  /** An idle keep-alive connection is closed after this; browsers open another when they need one. */
  keepAliveMs: 5000,
  /** A TLS handshake (with --cert) must end within this. */
  handshakeMs: 5000,
  /** How often Node looks for connections past their time-outs. */
  checkEveryMs: 1000,
};

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
    /** Codes that match no class, per address: a class mistypes a code now and then; a script guesses. */
    guess: new RateLimit(20, 5),
    /** The same, server-wide: guessing from many addresses at once (see secrets.ts). */
    guessBackstop: new RateLimit(200, 50),
    /** Joins into one class: the whole class joining at once, then 50 a second. */
    classJoins: new RateLimit(MAX_CLASS_SIZE, 50),
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
    /**
     * Guesses from one student, one post per stage: a whole plan's twelve at once (the
     * page sends what it kept on joining), then one every 2 s, as a student clicks.
     */
    guesses: new RateLimit(12, 0.5),
    /**
     * Exercise attempts from one student: each is a check and a measured run of three
     * contestants, tens of seconds at the fewest rounds, so a burst of six, then one every 5 s.
     */
    exercise: new RateLimit(6, 0.2),
    /**
     * Any API request on one connection (not a trusted proxy's, which carries many
     * devices): a flood on one connection slows that connection alone.
     */
    connection: new RateLimit(120, 40),
  };
}

export type RateLimits = ReturnType<typeof rateLimits>;
