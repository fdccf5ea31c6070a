// Live board updates as Server-Sent Events. Each connection belongs to exactly one class
// (the one whose code its URL named) and only that class's events are written to it:
// there is no way to subscribe to anything else. Streams are counted by who holds them,
// never by address (a school's class may share one): the teacher's browsers and each
// joined machine show a ticket and have places of their own, so no one else can take
// them; pages that have not joined share a pool sized to the class. A stream whose reader
// has stopped reading is dropped before its backlog grows memory, and its board
// reconnects when it can read again.
import type { ServerResponse } from 'node:http';
import { HEARTBEAT_MS, type ClassEvents } from '../src/core/class/protocol.ts';
import { anonymousStreams, MAX_LISTENERS, MAX_STREAM_BACKLOG_BYTES, MAX_STREAMS_PER_MACHINE, MAX_TEACHER_STREAMS } from './limits.ts';

/** Who holds a stream: the teacher, a joined machine (by id), or a page that has not joined. */
export type Follower = { kind: 'teacher' } | { kind: 'machine'; id: string } | { kind: 'anonymous' };

interface ClassStreams {
  all: Set<ServerResponse>;
  teacher: number;
  anonymous: number;
  machines: Map<string, number>;
  /** Events waiting for the next write to every stream (see FLUSH_MS). */
  pending: string;
}

/**
 * Events of one class go out together, at most this long after the first: a class of 200
 * posts 80 times a second, and one write of several events per stream costs the server a
 * fraction of one write per event per stream (400 streams: 32,000 writes a second).
 */
const FLUSH_MS = 40;

export class EventHub {
  readonly #classes = new Map<number, ClassStreams>();
  readonly #flushes = new Map<number, ReturnType<typeof setTimeout>>();
  #count = 0;
  /** Streams dropped for not reading, since the server started. */
  dropped = 0;
  readonly #heartbeat = setInterval(() => this.#ping(), HEARTBEAT_MS);

  constructor() {
    this.#heartbeat.unref();
  }

  get count(): number {
    return this.#count;
  }

  /** Why one more stream for `who` does not fit, or null when it does; `size` is the class's. */
  noRoom(classId: number, who: Follower, size: number): string | null {
    if (this.#count >= MAX_LISTENERS) return 'The class server is following as many boards as it can; this page tries again by itself';
    const streams = this.#classes.get(classId);
    if (!streams) return null;
    if (who.kind === 'teacher' && streams.teacher >= MAX_TEACHER_STREAMS) {
      return `The teacher's browsers already follow this class on ${MAX_TEACHER_STREAMS} screens; close one and reload`;
    }
    if (who.kind === 'machine' && (streams.machines.get(who.id) ?? 0) >= MAX_STREAMS_PER_MACHINE) {
      return `This machine already follows this class in ${MAX_STREAMS_PER_MACHINE} tabs; close one and reload`;
    }
    if (who.kind === 'anonymous' && streams.anonymous >= anonymousStreams(size)) {
      return 'Many pages are following this class without having joined it; join to follow it live (this page tries again by itself)';
    }
    return null;
  }

  add(classId: number, who: Follower, response: ServerResponse): void {
    let streams = this.#classes.get(classId);
    if (!streams) this.#classes.set(classId, (streams = { all: new Set(), teacher: 0, anonymous: 0, machines: new Map(), pending: '' }));
    const held = streams;
    held.all.add(response);
    this.#count++;
    this.#hold(held, who, +1);
    response.on('close', () => {
      if (!held.all.delete(response)) return;
      this.#count--;
      this.#hold(held, who, -1);
      if (held.all.size === 0 && this.#classes.get(classId) === held) this.#classes.delete(classId);
    });
  }

  #hold(streams: ClassStreams, who: Follower, by: 1 | -1): void {
    if (who.kind === 'teacher') streams.teacher += by;
    else if (who.kind === 'anonymous') streams.anonymous += by;
    else {
      const left = (streams.machines.get(who.id) ?? 0) + by;
      if (left > 0) streams.machines.set(who.id, left);
      else streams.machines.delete(who.id);
    }
  }

  /** Sends one event to every listener of one class, within FLUSH_MS. `data` is JSON-encoded, so it is one line. */
  send<E extends keyof ClassEvents>(classId: number, event: E, data: ClassEvents[E]): void {
    const streams = this.#classes.get(classId);
    if (!streams) return;
    streams.pending += `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    if (this.#flushes.has(classId)) return;
    const flush = setTimeout(() => {
      this.#flushes.delete(classId);
      const message = streams.pending;
      streams.pending = '';
      this.#write(streams.all, message);
    }, FLUSH_MS);
    this.#flushes.set(classId, flush);
  }

  closeAll(): void {
    clearInterval(this.#heartbeat);
    for (const flush of this.#flushes.values()) clearTimeout(flush);
    this.#flushes.clear();
    for (const streams of this.#classes.values()) for (const response of streams.all) response.end();
    this.#classes.clear();
    this.#count = 0;
  }

  #write(set: Set<ServerResponse>, message: string): void {
    for (const response of set) {
      // What the socket has not taken yet: a reader that stopped reading. Dropping it
      // frees the backlog; its 'close' handler above forgets it.
      if (response.writableLength > MAX_STREAM_BACKLOG_BYTES) {
        this.dropped++;
        response.destroy();
      } else response.write(message);
    }
  }

  #ping(): void {
    const message = `event: ping\ndata: ${JSON.stringify({ at: Date.now() })}\n\n`;
    for (const streams of this.#classes.values()) this.#write(streams.all, message);
  }
}
