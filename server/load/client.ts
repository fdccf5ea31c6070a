// The load test's clients: each simulated device has its own loopback address (all of
// 127.0.0.0/8 is this machine on Linux), as each student's device has its own address on
// a class's network, or shares one with the rest of its school (a network's one address,
// as a server outside it sees it); either way it has its own keep-alive connections.
// Requests time themselves; event streams note when each event arrived.
import { Agent, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Target } from './addresses.ts';

export interface Answer {
  status: number;
  body: any;
  headers: IncomingHttpHeaders;
  ms: number;
}

class StaleConnection extends Error {}

export interface StreamEvent {
  event: string;
  data: any;
  /** performance.now() when it arrived. */
  at: number;
  /** Date.now() when it arrived: comparable across processes. */
  wall: number;
}

export interface Stream {
  status: number;
  events: StreamEvent[];
  /** Bytes read so far. */
  readonly bytes: number;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Stops reading (the socket's buffers fill, then the server's). */
  pause(): void;
  /** Reads again, throwing away what comes (no parsing): to see whether the server ended the stream. */
  drain(): void;
  close(): void;
}

let devices = 0;

/** The address of one more device of its own. */
export function newAddress(): string {
  devices++;
  return `127.${200 + ((devices >> 16) & 0x1f)}.${(devices >> 8) & 0xff}.${(devices & 0xff) || 1}`;
}

/** What a call sends; its method is its route's (a Target's). */
export interface CallInit {
  body?: unknown;
  raw?: string;
  type?: string;
  token?: string;
  headers?: Record<string, string>;
}

export class Device {
  readonly #agent: Agent;

  /** A device on `address` (shared with others behind the same network), or on an address of its own. */
  constructor(readonly address = newAddress()) {
    this.#agent = new Agent({ keepAlive: true, localAddress: this.address, maxSockets: 8 });
  }

  call(to: Target, init: CallInit = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...init.headers };
    const text = init.raw ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined);
    if (text !== undefined) headers['Content-Type'] = init.type ?? 'application/json';
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    const started = performance.now();
    const once = () =>
      new Promise<Answer>((resolve, reject) => {
        let answered = false;
        const sent = request(to.url, { method: to.method, headers, agent: this.#agent }, (response) => {
          answered = true;
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const raw = Buffer.concat(chunks);
            const json = (response.headers['content-type'] ?? '').includes('json') && raw.length > 0;
            resolve({ status: response.statusCode ?? 0, body: json ? JSON.parse(raw.toString('utf8')) : raw, headers: response.headers, ms: performance.now() - started });
          });
        });
        // A kept-alive connection the server closed while idle fails before any answer:
        // like a browser, send again on a new one.
        // A server that refuses a body (413) may answer and close before the body is all
        // sent: writing the rest then fails (EPIPE, ECONNRESET), but its answer stands, as
        // in a browser.
        sent.on('error', (error: NodeJS.ErrnoException) => {
          if (answered && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) return;
          reject(sent.reusedSocket && error.code === 'ECONNRESET' ? new StaleConnection() : error);
        });
        sent.end(text);
      });
    return once().catch((error: unknown) => (error instanceof StaleConnection ? once() : Promise.reject(error)));
  }

  /** Opens an event stream; resolves once the answer's head has arrived. */
  stream(to: Target): Promise<Stream> {
    return new Promise((resolve, reject) => {
      // A connection of its own, outside the keep-alive pool: a stream holds it for good.
      const get = request(to.url, { method: to.method, localAddress: this.address, agent: false }, (response) => resolve(readStream(get, response)));
      get.on('error', reject);
      get.end();
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** Splits the complete event-stream blocks off `buffer`: the events they carry, and the rest, which waits for the next chunk. */
export function takeEvents(buffer: string): { events: { event: string; data: any }[]; rest: string } {
  const events: { event: string; data: any }[] = [];
  let end;
  while ((end = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (event && data) events.push({ event, data: JSON.parse(data) });
  }
  return { events, rest: buffer };
}

function readStream(get: ReturnType<typeof request>, response: IncomingMessage): Stream {
  const events: StreamEvent[] = [];
  let buffer = '';
  let bytes = 0;
  response.setEncoding('utf8');
  const parse = (chunk: string) => {
    bytes += chunk.length;
    const taken = takeEvents(buffer + chunk);
    buffer = taken.rest;
    for (const { event, data } of taken.events) events.push({ event, data, at: performance.now(), wall: Date.now() });
  };
  response.on('data', parse);
  const ended = new Promise<void>((resolve) => {
    response.on('close', () => resolve());
    response.on('error', () => resolve());
    get.on('error', () => resolve());
  });
  return {
    status: response.statusCode ?? 0,
    events,
    get bytes() {
      return bytes;
    },
    ended,
    pause: () => response.pause(),
    drain: () => {
      response.off('data', parse);
      response.on('data', () => {});
      response.resume();
    },
    close: () => get.destroy(),
  };
}

/** Runs `task` on every item, at most `limit` at once. */
export async function pool<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i], i);
      }
    }),
  );
  return results;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function percentile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
