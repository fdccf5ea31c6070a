// A whole class at once: 200 simulated students join and post a full default-plan run
// within 10 seconds to a server on 127.0.0.1, then every result must be stored, the
// board must count 200 machines and the live stream must have carried all 200. The loop
// is bounded: it stops at 200 students or at the deadline, whichever comes first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLASS_PLAN } from '../src/class/plan.ts';
import { call, follow, postResults, startClassServer, studentResults, tempDirs, type ClassServer } from './fixtures/class-server.ts';

const STUDENTS = 200;
const DEADLINE_MS = 10_000;
/** Students in flight at once: a class pressing "Run" within the same few seconds. */
const CONCURRENCY = 25;

let server: ClassServer;
beforeAll(async () => {
  server = await startClassServer(tempDirs());
});
afterAll(async () => {
  await server?.stop();
});

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

describe('class server under a class-sized load', () => {
  it(`stores results from ${STUDENTS} students posting within ${DEADLINE_MS / 1000} s, and the board counts them all`, async () => {
    const started = await call(`${server.url}/api/class/sessions`, { body: {} });
    const base = `${server.url}/api/class/sessions/${started.body.code}`;
    const stream = follow(`${base}/events`);
    await stream.opened;
    // The same shape as a real run of the default plan: every stage and blake3-wasm at 2 sizes.
    const documents = Array.from({ length: 7 }, (_, seed) => JSON.stringify(studentResults(seed, DEFAULT_CLASS_PLAN.contestants, DEFAULT_CLASS_PLAN.sizes)));

    const latencies: number[] = [];
    const failures: string[] = [];
    let next = 0;
    const t0 = performance.now();
    const deadline = t0 + DEADLINE_MS;
    async function student() {
      while (next < STUDENTS && performance.now() < deadline) {
        const n = next++;
        const joined = await call(`${base}/students`, { body: { nickname: `student ${n + 1}` } });
        if (joined.status !== 201) {
          failures.push(`join ${n}: ${joined.status} ${JSON.stringify(joined.body)}`);
          continue;
        }
        const before = performance.now();
        const posted = await postResults(base, joined.body, documents[n % documents.length]);
        latencies.push(performance.now() - before);
        if (posted.status !== 200) failures.push(`post ${n}: ${posted.status} ${JSON.stringify(posted.body)}`);
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, student));
    const elapsed = performance.now() - t0;

    expect(failures).toEqual([]);
    expect(latencies).toHaveLength(STUDENTS);
    expect(elapsed).toBeLessThan(DEADLINE_MS);
    const sorted = [...latencies].sort((a, b) => a - b);
    const figures = {
      students: STUDENTS,
      seconds: Number((elapsed / 1000).toFixed(2)),
      postsPerSecond: Math.round(STUDENTS / (elapsed / 1000)),
      requestsPerSecond: Math.round((2 * STUDENTS) / (elapsed / 1000)),
      p50Ms: Number(percentile(sorted, 0.5).toFixed(1)),
      p95Ms: Number(percentile(sorted, 0.95).toFixed(1)),
      maxMs: Number(sorted[sorted.length - 1].toFixed(1)),
    };
    console.log(`class load: ${JSON.stringify(figures)}`);

    const board = await call(`${base}/board`);
    expect(board.body.students).toBe(STUDENTS);
    expect(board.body.entries).toHaveLength(STUDENTS);
    expect(new Set(board.body.entries.map((e: { nickname: string }) => e.nickname)).size).toBe(STUDENTS);
    expect(board.body.entries.every((e: { done: boolean; throughput: object }) => e.done && Object.keys(e.throughput).length === DEFAULT_CLASS_PLAN.contestants.length)).toBe(true);
    await expect.poll(() => new Set(stream.events.map((e) => e.data.id)).size, { timeout: 5000 }).toBe(STUDENTS);
    stream.stop();
  });
});
