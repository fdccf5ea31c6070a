// A student's results on their way to the board. A results post replaces the machine's
// document on the server, so only the newest document ever waits here (a finished run's
// over a partial one). It is kept in memory and in localStorage, one per class, until the
// server has it: a connection that drops, or a reload meanwhile, loses nothing. It goes
// again when the connection returns (the browser's online event, or the page's board
// hearing the server again: retryNow) and on a retry further apart each time, always
// under the id it was given, so a post whose answer was lost is stored and announced
// once (server/class-service.ts). Refused by the server for any other reason, it is
// dropped: it would be refused again.
import type { Results } from '../../core/bench/results.ts';
import { POST_EVERY_MS, POST_ID_PATTERN } from '../../core/class/protocol.ts';
import type { EntrySummary } from '../../core/class/summary.ts';
import { toBase64Url } from '../../core/results/io/share.ts';
import { validateResults } from '../../core/results/io/validate.ts';
import { ClassApiError } from './api.ts';

/** Waits between attempts while the server cannot be reached: POST_EVERY_MS, doubling, at most this. */
const RETRY_MAX_MS = 30_000;

export interface KeptPost {
  /** Names this document: however often it is sent, the server stores it once. */
  id: string;
  /** The machine that measured it (Student.id). */
  student: string;
  /** A finished (or stopped) run's document, not results so far. */
  done: boolean;
  /** ms since the epoch when the page kept it. */
  keptAt: number;
  results: Results;
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface OutboxOptions {
  /** This machine: a post kept for another one (a machine the teacher removed) is not sent. */
  student: string;
  /** The localStorage key of this class's waiting post. */
  key: string;
  send(post: KeptPost): Promise<EntrySummary>;
  onEntry(entry: EntrySummary): void;
  /** Called as each attempt starts. */
  onAttempt?(post: KeptPost): void;
  /** localStorage unless given; null keeps the post in memory only. */
  storage?: Store | null;
  /** Whether the browser says it has a network at all (navigator.onLine): while it says no, only retryNow() sends. */
  online?: () => boolean;
  now?: () => number;
}

/** The storage key of a class's waiting results. */
export const waitingKey = (code: string) => `blake3-lab:class:${code}:waiting-results`;

/** 128 random bits in base64url. getRandomValues, unlike randomUUID, works on a plain-HTTP class page too. */
export function newPostId(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

function defaultStorage(): Store | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled: the post waits in memory only
  }
}

/** The post a page kept for `student`, or null; anything unreadable (damaged, from another version, another machine's) is removed. */
export function readKept(storage: Store | null, key: string, student: string): KeptPost | null {
  let text: string | null;
  try {
    text = storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<KeptPost> | null;
    if (
      value?.student === student &&
      typeof value.id === 'string' &&
      POST_ID_PATTERN.test(value.id) &&
      typeof value.done === 'boolean' &&
      typeof value.keptAt === 'number' &&
      Number.isFinite(value.keptAt)
    ) {
      const checked = validateResults(value.results);
      if (checked.ok) return { id: value.id, student, done: value.done, keptAt: value.keptAt, results: checked.results };
    }
  } catch {
    // not JSON: dropped below
  }
  try {
    storage?.removeItem(key);
  } catch {
    // nothing more to do
  }
  return null;
}

export class ResultsOutbox {
  /** A post waits for the connection to the class server to return. */
  waiting = $state(false);
  /** When a post that had waited reached the board (ms since the epoch); cleared when one waits again. */
  sentAt = $state<number | null>(null);
  /** Why the server refused the last post (a lost connection is not a refusal), if it did. */
  error = $state<string | null>(null);
  /** The teacher removed this machine from the class: nothing more is sent. */
  removed = $state(false);
  /** The newest document is a finished run's, and it reached the board. */
  delivered = $state(false);

  readonly #options: Required<Omit<OutboxOptions, 'onAttempt'>> & Pick<OutboxOptions, 'onAttempt'>;
  /** The newest document the server has not acknowledged. */
  #pending: KeptPost | null = null;
  /** The pending post waited for the connection (or an earlier page kept it): its delivery is announced. */
  #waited = false;
  #posting = false;
  #lastPost = -Infinity;
  #retryMs = POST_EVERY_MS;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopped = false;

  constructor(options: OutboxOptions) {
    this.#options = {
      storage: defaultStorage(),
      online: () => (globalThis.navigator as Navigator | undefined)?.onLine !== false,
      now: Date.now,
      ...options,
    };
  }

  /** Sends this document next, in place of any waiting one (a partial one never takes a finished one's place); returns its id. */
  queue(results: Results, done: boolean): string | null {
    if (this.removed || (this.#pending?.done && !done)) return null;
    const { student, now } = this.#options;
    const post: KeptPost = { id: newPostId(), student, done, keptAt: now(), results };
    this.#pending = post;
    this.delivered = false;
    this.#keep(post);
    // While the server cannot be reached, the retry already planned takes the newest document.
    if (!this.waiting) this.#schedule(done ? 0 : Math.max(0, this.#lastPost + POST_EVERY_MS - now()));
    return post.id;
  }

  /** Sends what an earlier page kept for this machine (or what this one held when it was stopped). */
  resume(): void {
    this.#stopped = false;
    if (!this.#pending && !this.removed) {
      const kept = readKept(this.#options.storage, this.#options.key, this.#options.student);
      if (!kept) return;
      this.#pending = kept;
      this.#waited = true;
    }
    if (this.#pending) this.#schedule(0);
  }

  /** The connection seems back (the browser is online again, or the board hears the server): a waiting post goes now. */
  retryNow(): void {
    if (!this.waiting || !this.#pending) return;
    this.#retryMs = POST_EVERY_MS;
    this.#schedule(0);
  }

  /** Drops a waiting partial document (a run cancelled before it showed on the board); a finished run's is kept. */
  discard(): void {
    if (!this.#pending || this.#pending.done) return;
    this.#pending = null;
    this.#forget();
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.waiting = false;
  }

  /** Forgets the announcement of a post that waited (a new run starts). */
  clearNote(): void {
    this.sentAt = null;
  }

  /** The page is going away: nothing more is sent from it, and the waiting post stays kept for the next one. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #keep(post: KeptPost): void {
    try {
      this.#options.storage?.setItem(this.#options.key, JSON.stringify(post));
    } catch {
      // Full or disabled storage: it waits in memory, for as long as the page lasts.
    }
  }

  #forget(): void {
    try {
      this.#options.storage?.removeItem(this.#options.key);
    } catch {
      // nothing kept
    }
  }

  #schedule(wait: number): void {
    if (this.#posting || this.#stopped) return; // the post in flight schedules the next when it ends
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#post(), wait);
  }

  /** The server cannot be reached: the post stays kept, and the page says so. */
  #wait(): void {
    this.#waited = true;
    this.waiting = true;
    this.sentAt = null;
  }

  async #post(): Promise<void> {
    this.#timer = null;
    const post = this.#pending;
    if (!post || this.#stopped) return;
    const { send, onEntry, onAttempt, online, now } = this.#options;
    // The browser knows it has no network: no request until it says it has one again (retryNow).
    if (!online()) return this.#wait();
    this.#posting = true;
    this.#lastPost = now();
    onAttempt?.(post);
    let retry: number | null = null;
    try {
      const entry = await send(post);
      if (this.#pending === post) {
        this.#pending = null;
        this.#forget();
      }
      if (this.#waited) this.sentAt = now();
      this.#waited = false;
      this.waiting = false;
      this.#retryMs = POST_EVERY_MS;
      this.error = null;
      if (post.done && this.#pending === null) this.delivered = true;
      onEntry(entry);
    } catch (error) {
      const status = error instanceof ClassApiError ? error.status : -1;
      if (status === 0 || status >= 500) {
        // Out of reach (or a proxy whose class server is gone): kept, and tried again later.
        this.#wait();
        retry = this.#retryMs;
        this.#retryMs = Math.min(RETRY_MAX_MS, this.#retryMs * 2);
      } else if (status === 429) {
        retry = ((error as ClassApiError).retryAfter ?? POST_EVERY_MS / 1000) * 1000;
      } else {
        // Refused for good (the class closed, a plan changed, the machine removed): sending it again would not help.
        this.error = error instanceof Error ? error.message : String(error);
        this.waiting = false;
        if (status === 404) this.removed = true;
        if (this.#pending === post || status === 404) {
          this.#pending = null;
          this.#forget();
        }
      }
    } finally {
      this.#posting = false;
    }
    if (this.#pending) this.#schedule(retry ?? (this.#pending.done ? 0 : POST_EVERY_MS));
  }
}
