// Slow clients against the class server: hundreds of connections that send their heads, or
// their bodies, a byte at a time. While they try, the projector's stream connects and
// students join; every slow connection is closed within seconds (Node's time-outs, and the
// connection guard that makes the oldest waiting ones give way), and the server holds no
// more connections than its caps. A results body without the student's token is refused
// before it is read, and its connection closed.
import { connect } from 'node:net';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { path } from '../src/core/class/protocol.ts';
import { CONNECTION_CAPS, TIMEOUTS } from '../server/limits.ts';
import { slowAttack } from '../server/load/slow-clients.ts';
import { call, newDevice, startClass, startClassServer, tempDirs, type ClassServer } from './fixtures/class-server.ts';

const SLOW_EACH = 650;

let server: ClassServer;
beforeAll(async () => {
  server = await startClassServer(tempDirs());
});
afterAll(async () => {
  await server?.stop();
});

/** Open file descriptors of the server process (Linux). */
const serverFiles = () => readdirSync(`/proc/${server.process.pid}/fd`).length;

/** Opens an event stream; resolves with its status and how long the head took. */
function timedStream(url: string, from: string): Promise<{ status: number; ms: number; close(): void }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const get = request(url, { localAddress: from, agent: false }, (response) => {
      resolve({ status: response.statusCode ?? 0, ms: performance.now() - started, close: () => get.destroy() });
      response.resume();
    });
    get.on('error', reject);
    get.end();
  });
}

describe('class server, slow clients', () => {
  it('keeps the projector and joins going while 650 slow heads and 650 slow bodies try, and closes them all within seconds', { timeout: 60_000 }, async () => {
    const started = await startClass(server);
    const { code, ticket } = started.body;
    const base = `${server.url}${path('info', { code })}`;
    const url = new URL(server.url);
    const filesBefore = serverFiles();
    const attackStarted = performance.now();
    const slow = await slowAttack(server.url, code, SLOW_EACH);

    // Under the attack: the projector's stream connects long before the server cuts the
    // slow clients off (it does not wait behind them), students join. How fast is the load
    // test's to hold (npm run load:class), on a machine doing nothing else.
    const projector = await timedStream(`${base}/events?ticket=${encodeURIComponent(ticket)}`, newDevice());
    expect(projector.status).toBe(200);
    expect(projector.ms).toBeLessThan(TIMEOUTS.requestMs / 3);
    const joins = await Promise.all(Array.from({ length: 20 }, (_, i) => call(`${base}/students`, { body: { nickname: `student ${i}` }, from: newDevice() })));
    expect(joins.map((j) => j.status)).toEqual(Array(20).fill(201));
    // The server holds at most its cap of waiting connections, far under its open files.
    expect(serverFiles() - filesBefore).toBeLessThanOrEqual(CONNECTION_CAPS.waiting + 64);

    // Every slow connection is closed: heads within the head time-out, bodies within the request time-out.
    await expect.poll(() => slow.filter((s) => s.closedAt === null).length, { timeout: TIMEOUTS.requestMs + 5000, interval: 250 }).toBe(0);
    expect(performance.now() - attackStarted).toBeLessThan(TIMEOUTS.requestMs + 5000);
    // The projector's stream was never touched: it still hears the class.
    const board = await call(`${base}/board`);
    expect(board.body.students).toBe(20);
    projector.close();
  });

  it('refuses a results body without the student’s token before reading it, and closes its connection', async () => {
    const started = await startClass(server);
    const { code } = started.body;
    const student = (await call(`${server.url}${path('info', { code })}/students`, { body: { nickname: 'Ana' }, from: newDevice() })).body;
    const url = new URL(server.url);
    const socket = connect({ host: url.hostname, port: Number(url.port), localAddress: newDevice() });
    let answer = '';
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const sent = performance.now();
    // Half a megabyte announced, and not one byte of it sent.
    socket.write(`PUT ${path('results', { code, id: student.id })}?done=1 HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 500000\r\n\r\n`);
    const at = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toContain('Only the student who joined as this machine can post its results');
    expect(at - sent).toBeLessThan(2000);
  });
});
