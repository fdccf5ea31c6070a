// Every class's machines as the board shows them, kept in memory, and the board's JSON
// built once per change of the class (from each entry's JSON, made when that entry
// changed) and kept as bytes. A reconnect storm (two hundred pages reloading the board at
// once) then costs one build and two hundred sends of the same bytes, or a 304 for a page
// whose copy is current, instead of a SQLite read and the JSON of every summary per page. The database stays the truth: a class is read from it when first asked for after
// a start, and every change goes to both.
import { createHash, randomBytes } from 'node:crypto';
import type { ExerciseRecords } from '../src/core/class/exercise.ts';
import type { ClassInfo } from '../src/core/class/protocol.ts';
import { readStoredSummary, silentEntry, type EntrySummary } from '../src/core/class/summary.ts';
import { readGuesses } from '../src/core/predict/guess.ts';
import type { EntryRow, Store } from './store.ts';

/** Part of every ETag: a copy from an earlier run of the server never matches. */
const BOOT = randomBytes(6).toString('base64url');
/** A class nobody has read or changed for this long leaves memory (it is read again when asked for). */
const IDLE_MS = 30 * 60_000;

interface ClassBoard {
  /** In joining order (a Map keeps the order of first insertion). */
  entries: Map<string, EntrySummary>;
  /** Each entry's JSON, made when the entry changes: a board is these joined, not a JSON of every summary. */
  json: Map<string, string>;
  /** Bumped on every change of an entry. */
  version: number;
  /** The last body sent of each copy (the teacher's, everyone's), as bytes, by its ETag. */
  sent: { teacher?: { etag: string; body: Buffer }; everyone?: { etag: string; body: Buffer } };
  touched: number;
}

/** A board answer: its ETag, and its body, made (at most once per change) only if it is to be sent. */
export interface BoardBody {
  etag: string;
  body: () => Buffer;
}

/** A stored row as the board shows it: its summary with the hidden flag, guesses and exercise attempts as they are now, or its silent row. */
export function entryOf(row: EntryRow): EntrySummary {
  const guesses = row.guesses === null ? {} : { guesses: readGuesses(JSON.parse(row.guesses)).guesses };
  // Checked when each attempt came in (checkExerciseOutcome), and written by this server only.
  const exercises = row.exercises === null ? {} : { exercises: JSON.parse(row.exercises) as ExerciseRecords };
  if (row.summary === null) return { ...silentEntry({ id: row.id, nickname: row.nickname, hidden: row.hidden === 1, joinedAt: row.joined_at }), ...guesses, ...exercises };
  // Summaries stored before the board showed isolation have no such fields, and those
  // stored before it named JavaScript engines read with the engine's name.
  const stored: Partial<EntrySummary> = readStoredSummary(row.summary);
  return { isolated: null, timerNs: 0, ...stored, silent: false, hidden: row.hidden === 1, ...guesses, ...exercises } as EntrySummary;
}

export class BoardCache {
  readonly #boards = new Map<number, ClassBoard>();
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {
    this.#sweeper = setInterval(() => this.#sweep(), IDLE_MS / 3);
    this.#sweeper.unref();
  }

  #board(classId: number): ClassBoard {
    let board = this.#boards.get(classId);
    if (!board) {
      const entries = new Map(this.store.entries(classId).map((row) => [row.id, entryOf(row)]));
      const json = new Map([...entries].map(([id, entry]) => [id, JSON.stringify(entry)]));
      board = { entries, json, version: 0, sent: {}, touched: 0 };
      this.#boards.set(classId, board);
    }
    board.touched = this.now();
    return board;
  }

  /** Every machine of the class, in joining order. */
  entries(classId: number): EntrySummary[] {
    return [...this.#board(classId).entries.values()];
  }

  count(classId: number): number {
    return this.#board(classId).entries.size;
  }

  entry(classId: number, id: string): EntrySummary | undefined {
    return this.#board(classId).entries.get(id);
  }

  /** A machine joined, posted, or was hidden or shown: its row as it is now. */
  put(classId: number, entry: EntrySummary): void {
    const board = this.#board(classId);
    board.entries.set(entry.id, entry);
    board.json.set(entry.id, JSON.stringify(entry));
    board.version++;
  }

  drop(classId: number, id: string): void {
    const board = this.#board(classId);
    board.json.delete(id);
    if (board.entries.delete(id)) board.version++;
  }

  /**
   * The board answer for `info` (read fresh from the class's row on every request, so a
   * class that ended by the clock is never served as open): the teacher's copy has every
   * machine, everyone else's leaves out the hidden ones. The ETag covers both parts.
   */
  body(classId: number, info: ClassInfo, teacher: boolean): BoardBody {
    const board = this.#board(classId);
    const head = JSON.stringify(info);
    const tag = createHash('sha1').update(head).digest('base64url').slice(0, 12);
    const etag = `"${BOOT}.${classId}.${board.version}.${teacher ? 't' : 'p'}.${tag}"`;
    const copy = teacher ? 'teacher' : 'everyone';
    return {
      etag,
      body: () => {
        const sent = board.sent[copy];
        if (sent?.etag === etag) return sent.body;
        const entries = [...board.entries.values()].filter((e) => teacher || !e.hidden).map((e) => board.json.get(e.id)!);
        const body = Buffer.from(`${head.slice(0, -1)},"entries":[${entries.join(',')}]}`);
        board.sent[copy] = { etag, body };
        return body;
      },
    };
  }

  forget(classId: number): void {
    this.#boards.delete(classId);
  }

  close(): void {
    clearInterval(this.#sweeper);
  }

  #sweep(): void {
    const cutoff = this.now() - IDLE_MS;
    for (const [id, board] of this.#boards) if (board.touched < cutoff) this.#boards.delete(id);
  }
}
