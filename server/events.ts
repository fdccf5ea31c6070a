// Live board updates as Server-Sent Events. Each connection belongs to exactly one class
// (the one whose code its URL named) and only that class's events are written to it:
// there is no way to subscribe to anything else. One client may hold a few streams; a
// stream whose reader has stopped reading is dropped before its backlog grows memory,
// and its board reconnects when it can read again.
import type { ServerResponse } from 'node:http';
import { HEARTBEAT_MS, type ClassEvents } from '../src/class/protocol.ts';
import { MAX_LISTENERS, MAX_LISTENERS_PER_CLIENT, MAX_LISTENERS_PER_CLASS, MAX_STREAM_BACKLOG_BYTES } from './limits.ts';

export class EventHub {
  readonly #listeners = new Map<number, Set<ServerResponse>>();
  readonly #perClient = new Map<string, number>();
  #count = 0;
  /** Streams dropped for not reading, since the server started. */
  dropped = 0;
  readonly #heartbeat = setInterval(() => this.#ping(), HEARTBEAT_MS);

  constructor() {
    this.#heartbeat.unref();
  }

  /** Why one more stream does not fit (in all, in this class, from this client), or null when it does. */
  noRoom(classId: number, client: string): string | null {
    if ((this.#perClient.get(client) ?? 0) >= MAX_LISTENERS_PER_CLIENT) {
      return `This device already follows ${MAX_LISTENERS_PER_CLIENT} boards; close one of its tabs and reload`;
    }
    if (this.#count >= MAX_LISTENERS || (this.#listeners.get(classId)?.size ?? 0) >= MAX_LISTENERS_PER_CLASS) {
      return 'Too many boards are following this class; reload in a minute';
    }
    return null;
  }

  add(classId: number, client: string, response: ServerResponse): void {
    let set = this.#listeners.get(classId);
    if (!set) this.#listeners.set(classId, (set = new Set()));
    set.add(response);
    this.#count++;
    this.#perClient.set(client, (this.#perClient.get(client) ?? 0) + 1);
    response.on('close', () => {
      if (!set.delete(response)) return;
      this.#count--;
      const left = (this.#perClient.get(client) ?? 1) - 1;
      if (left > 0) this.#perClient.set(client, left);
      else this.#perClient.delete(client);
      if (set.size === 0 && this.#listeners.get(classId) === set) this.#listeners.delete(classId);
    });
  }

  /** Sends one event to every listener of one class. `data` is JSON-encoded, so it is one line. */
  send<E extends keyof ClassEvents>(classId: number, event: E, data: ClassEvents[E]): void {
    const set = this.#listeners.get(classId);
    if (set) this.#write(set, `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  closeAll(): void {
    clearInterval(this.#heartbeat);
    for (const set of this.#listeners.values()) for (const response of set) response.end();
    this.#listeners.clear();
    this.#perClient.clear();
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
    for (const set of this.#listeners.values()) this.#write(set, message);
  }
}
