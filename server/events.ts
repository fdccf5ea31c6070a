// Live board updates as Server-Sent Events. Each connection belongs to exactly one class
// (the one whose code its URL named) and only that class's events are written to it:
// there is no way to subscribe to anything else.
import type { ServerResponse } from 'node:http';
import { MAX_LISTENERS, MAX_LISTENERS_PER_SESSION } from './limits.ts';

/** A comment line now and then keeps proxies and sleeping phones from dropping an idle stream. */
const HEARTBEAT_MS = 20_000;

export class EventHub {
  readonly #listeners = new Map<number, Set<ServerResponse>>();
  #count = 0;
  readonly #heartbeat = setInterval(() => this.#writeAll(': keep-alive\n\n'), HEARTBEAT_MS);

  constructor() {
    this.#heartbeat.unref();
  }

  /** Whether one more listener fits, in this class and in all. */
  hasRoom(sessionId: number): boolean {
    return this.#count < MAX_LISTENERS && (this.#listeners.get(sessionId)?.size ?? 0) < MAX_LISTENERS_PER_SESSION;
  }

  add(sessionId: number, response: ServerResponse): void {
    let set = this.#listeners.get(sessionId);
    if (!set) this.#listeners.set(sessionId, (set = new Set()));
    set.add(response);
    this.#count++;
    response.on('close', () => {
      if (set.delete(response)) this.#count--;
      if (set.size === 0 && this.#listeners.get(sessionId) === set) this.#listeners.delete(sessionId);
    });
  }

  /** Sends one event to every listener of one class. `data` is JSON-encoded, so it is one line. */
  send(sessionId: number, event: string, data: unknown): void {
    const set = this.#listeners.get(sessionId);
    if (!set) return;
    const message = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const response of set) response.write(message);
  }

  closeAll(): void {
    clearInterval(this.#heartbeat);
    for (const set of this.#listeners.values()) for (const response of set) response.end();
    this.#listeners.clear();
    this.#count = 0;
  }

  #writeAll(message: string): void {
    for (const set of this.#listeners.values()) for (const response of set) response.write(message);
  }
}
