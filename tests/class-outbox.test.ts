// A student's results while the class server is out of reach (src/app/class/outbox.svelte.ts):
// kept in memory and in storage, sent again when the connection returns, under the same id
// so a post whose answer was lost is counted once, and a damaged store read as nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Results } from '../src/core/bench/results.ts';
import { POST_EVERY_MS, POST_ID_PATTERN } from '../src/core/class/protocol.ts';
import { summarize, type EntrySummary } from '../src/core/class/summary.ts';
import { ClassApiError } from '../src/app/class/api.ts';
import { readKept, ResultsOutbox, waitingKey, type KeptPost, type OutboxOptions } from '../src/app/class/outbox.svelte.ts';
import { validateResults } from '../src/core/results/io/validate.ts';
import { studentResults } from './fixtures/class-server.ts';

const KEY = waitingKey('ABCDEF');
const STUDENT = 'machine-1';
const offline = () => new ClassApiError('The class server cannot be reached', 0);

/** localStorage as a Map, with the calls counted. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

/**
 * The server as far as results go: the machine's document is replaced by each post, and
 * a post whose id it already stored is answered without storing or announcing it again.
 * `network` decides the fate of each request: it arrives or not, and its answer comes back or not.
 */
function fakeServer() {
  let lastId: string | null = null;
  let entry: EntrySummary | null = null;
  const server = {
    requests: [] as KeptPost[],
    /** Entries announced to the boards: once per document stored. */
    announced: [] as EntrySummary[],
    network: 'up' as 'up' | 'down' | 'answer lost',
    async send(post: KeptPost): Promise<EntrySummary> {
      server.requests.push(post);
      if (server.network === 'down') throw offline();
      if (post.id !== lastId) {
        lastId = post.id;
        entry = summarize(post.results, { id: STUDENT, nickname: 'Ana', done: post.done, hidden: false, updatedAt: Date.now() });
        server.announced.push(entry);
      }
      if (server.network === 'answer lost') throw offline();
      return entry!;
    },
  };
  return server;
}

function outbox(options: Partial<OutboxOptions> & Pick<OutboxOptions, 'send'>) {
  const entries: EntrySummary[] = [];
  const box = new ResultsOutbox({ student: STUDENT, key: KEY, onEntry: (entry) => entries.push(entry), online: () => true, ...options });
  return { box, entries };
}

const kept = (storage: ReturnType<typeof memoryStorage>) => JSON.parse(storage.items.get(KEY) ?? 'null') as KeptPost | null;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('results on their way to the board', () => {
  it('keeps a finished run while the network is gone and sends it when it returns, once', async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    let online = true;
    const { box, entries } = outbox({ send: server.send, storage, online: () => online });
    const results = studentResults(1);

    server.network = 'down';
    box.queue(results, true);
    await vi.advanceTimersByTimeAsync(0);
    expect(box.waiting).toBe(true);
    expect(box.delivered).toBe(false);
    // Kept on the device, as it will be sent.
    expect(kept(storage)).toMatchObject({ student: STUDENT, done: true, results });
    expect(kept(storage)!.id).toMatch(POST_ID_PATTERN);

    // The browser says it is offline: nothing is tried, however long it lasts.
    online = false;
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(server.requests).toHaveLength(1);
    expect(box.waiting).toBe(true);

    // Back: the online event sends it at once.
    online = true;
    server.network = 'up';
    box.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(box.waiting).toBe(false);
    expect(box.delivered).toBe(true);
    expect(box.sentAt).toBe(Date.now());
    expect(storage.items.has(KEY)).toBe(false);
    expect(server.announced).toHaveLength(1);
    expect(entries).toHaveLength(1);
    expect(new Set(server.requests.map((post) => post.id)).size).toBe(1);
    // Nothing more goes out.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.requests).toHaveLength(2);
  });

  it('retries further apart each time while the server cannot be reached, and the newest document goes', async () => {
    const server = fakeServer();
    const { box } = outbox({ send: server.send, storage: memoryStorage() });
    server.network = 'down';
    box.queue(studentResults(1), false);
    await vi.advanceTimersByTimeAsync(0);
    const times: number[] = [];
    const start = Date.now();
    for (let i = 0; i < 6; i++) {
      const before = server.requests.length;
      await vi.advanceTimersToNextTimerAsync();
      if (server.requests.length > before) times.push(Date.now() - start);
    }
    // 2.5 s after the first attempt, then 5 s, 10 s, 20 s, and every 30 s from then on.
    expect(POST_EVERY_MS).toBe(2500);
    expect(times).toEqual([2500, 7500, 17_500, 37_500, 67_500, 97_500]);
    // A finished document queued meanwhile takes the partial one's place; a partial one never takes a finished one's.
    const finished = studentResults(2);
    box.queue(finished, true);
    expect(box.queue(studentResults(3), false)).toBeNull();
    server.network = 'up';
    await vi.advanceTimersToNextTimerAsync();
    expect(server.requests.at(-1)).toMatchObject({ done: true, results: finished });
    expect(box.delivered).toBe(true);
    // The partial document never reached the server: only the finished one is on the board.
    expect(server.announced.map((entry) => entry.done)).toEqual([true]);
  });

  it('sends a post whose answer was lost again under the same id, and the server counts it once', async () => {
    const server = fakeServer();
    const { box, entries } = outbox({ send: server.send, storage: memoryStorage() });
    server.network = 'answer lost';
    box.queue(studentResults(4), true);
    await vi.advanceTimersByTimeAsync(0);
    expect(box.waiting).toBe(true);
    server.network = 'up';
    box.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].id).toBe(server.requests[1].id);
    expect(server.announced).toHaveLength(1);
    expect(entries).toHaveLength(1);
    expect(box.delivered).toBe(true);
  });

  it('keeps what waits across a reload: the next page sends it, under its id', async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    server.network = 'down';
    const first = outbox({ send: server.send, storage });
    first.box.queue(studentResults(5), true);
    await vi.advanceTimersByTimeAsync(0);
    first.box.stop();
    const id = kept(storage)!.id;

    server.network = 'up';
    const second = outbox({ send: server.send, storage });
    second.box.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.requests.map((post) => post.id)).toEqual([id, id]);
    expect(second.box.sentAt).not.toBeNull();
    expect(second.entries).toHaveLength(1);
    expect(storage.items.has(KEY)).toBe(false);
    // The first page, stopped, sends nothing more.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.requests).toHaveLength(2);
  });

  it('drops a post the server refuses for good, and says why', async () => {
    const storage = memoryStorage();
    const send = vi.fn(async () => {
      throw new ClassApiError('The teacher has closed this class: it takes no more machines or results', 410);
    });
    const { box } = outbox({ send, storage });
    box.queue(studentResults(6), true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(send).toHaveBeenCalledTimes(1);
    expect(box.error).toMatch(/closed this class/);
    expect(box.waiting).toBe(false);
    expect(storage.items.has(KEY)).toBe(false);
  });

  it('drops a partial document of a run cancelled before it reached the board, never a finished one', async () => {
    const storage = memoryStorage();
    const server = fakeServer();
    server.network = 'down';
    const { box } = outbox({ send: server.send, storage });
    box.queue(studentResults(7), false);
    box.discard();
    expect(storage.items.has(KEY)).toBe(false);
    box.queue(studentResults(8), true);
    box.discard();
    expect(kept(storage)?.done).toBe(true);
  });
});

describe('what a page kept, read back', () => {
  const good = (): KeptPost => ({ id: 'AAAAAAAAAAAAAAAAAAAAAA', student: STUDENT, done: true, keptAt: 1, results: studentResults(1) });

  it('reads a kept post back as it was', () => {
    const storage = memoryStorage();
    storage.setItem(KEY, JSON.stringify(good()));
    const checked = validateResults(good().results);
    expect(checked.ok && readKept(storage, KEY, STUDENT)).toEqual({ ...good(), results: checked.ok && checked.results });
  });

  it.each([
    ['not JSON', '{"id":'],
    ['null', 'null'],
    ['another machine’s', JSON.stringify({ ...good(), student: 'machine-2' })],
    ['an id the server refuses', JSON.stringify({ ...good(), id: 'short' })],
    ['no done flag', JSON.stringify({ ...good(), done: 'yes' })],
    ['results that do not validate', JSON.stringify({ ...good(), results: { ...studentResults(1), runs: 'many' } })],
    ['results cut short', JSON.stringify(good()).slice(0, 200)],
  ])('drops %s and sends nothing', async (_, text) => {
    const storage = memoryStorage();
    storage.setItem(KEY, text);
    expect(readKept(storage, KEY, STUDENT)).toBeNull();
    expect(storage.items.has(KEY)).toBe(false);
    const send = vi.fn(async (): Promise<EntrySummary> => ({}) as EntrySummary);
    const { box } = outbox({ send, storage });
    box.resume();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(send).not.toHaveBeenCalled();
  });

  it('still sends when storage is disabled or full: the post waits in memory', async () => {
    const denied = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    for (const storage of [
      { getItem: denied, setItem: denied, removeItem: denied },
      { getItem: () => null, setItem: () => { throw new DOMException('full', 'QuotaExceededError'); }, removeItem: () => {} },
      null,
    ]) {
      const server = fakeServer();
      server.network = 'down';
      const { box } = outbox({ send: server.send, storage });
      box.resume();
      box.queue(studentResults(1) as Results, true);
      await vi.advanceTimersByTimeAsync(0);
      expect(box.waiting).toBe(true);
      server.network = 'up';
      box.retryNow();
      await vi.advanceTimersByTimeAsync(0);
      expect(box.delivered).toBe(true);
      expect(server.announced).toHaveLength(1);
    }
  });
});
