// Slow clients: hundreds of connections that send their request heads, or their bodies,
// a byte every half second, to hold the server's connections. While they try, the
// projector's stream must connect and students must join; every slow connection must be
// closed within seconds, and the server must hold no more connections than its caps.
import { connect, type Socket } from 'node:net';
import { path, ROUTES } from '../../src/core/class/protocol.ts';
import { CONNECTION_CAPS, TIMEOUTS } from '../limits.ts';
import { address, addressesOf } from './addresses.ts';
import { Device, newAddress, percentile, pool, sleep } from './client.ts';
import { fmtMs } from './pace.ts';
import { startServer } from './server-process.ts';
import type { Row } from './report.ts';

export interface SlowClient {
  socket: Socket;
  /** When the server closed it (performance.now()), or null while open. */
  closedAt: number | null;
}

/** A connection from `from` that sends `head` at once, then one byte of `rest` every half second, for as long as the server keeps it. */
export function slowClient(url: URL, from: string, head: string, rest: string): Promise<SlowClient> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), localAddress: from });
    const slow: SlowClient = { socket, closedAt: null };
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < rest.length) socket.write(rest[sent++]);
    }, 500);
    socket.on('connect', () => {
      socket.write(head);
      resolve(slow);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      slow.closedAt = performance.now();
      clearInterval(drip);
      resolve(slow);
    });
    socket.resume();
  });
}

/** `count` slow heads from one address and `count` slow join bodies from another, against `code`'s class. */
export function slowAttack(serverUrl: string, code: string, count: number): Promise<SlowClient[]> {
  const url = new URL(serverUrl);
  const join = `${ROUTES.join.method} ${path('join', { code })} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
  return Promise.all([
    ...Array.from({ length: count }, () => slowClient(url, '127.66.0.1', `${ROUTES.board.method} ${path('board', { code })} HTTP/1.1\r\n`, `Host: ${url.host}\r\nX-Slow: ${'a'.repeat(100)}`)),
    ...Array.from({ length: count }, () => slowClient(url, '127.66.0.2', join, `{"nickname": "${'b'.repeat(180)}"}`)),
  ]);
}

export async function slowClientsScenario(count: number, log: (line: string) => void): Promise<Row[]> {
  const server = await startServer();
  try {
    const host = new Device();
    const started = await host.call(address(server.url, 'start'), { body: {}, token: server.hostKey });
    const { code, ticket } = started.body;
    const at = addressesOf(server.url, code);
    const filesBefore = server.openFiles();
    let filesPeak = filesBefore;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        filesPeak = Math.max(filesPeak, server.openFiles());
        await sleep(100);
      }
    })();

    log(`${count} slow heads and ${count} slow bodies`);
    const began = performance.now();
    const slow = await slowAttack(server.url, code, count);
    // With every slow connection open: how long the projector's stream takes to connect.
    const connecting = performance.now();
    const projector = await new Device().stream(at('events', { ticket }));
    const projectorMs = performance.now() - connecting;
    const joins = await pool(Array.from({ length: 20 }, (_, i) => i), 20, (i) => new Device(newAddress()).call(at('join'), { body: { nickname: `student ${i}` } }));
    const joined = joins.filter((j) => j.status === 201).length;
    const limit = TIMEOUTS.requestMs + 5000;
    while (slow.some((s) => s.closedAt === null) && performance.now() - began < limit) await sleep(250);
    watching = false;
    await watcher;
    const open = slow.filter((s) => s.closedAt === null).length;
    for (const s of slow) s.socket.destroy();
    const lastClosed = Math.max(...slow.map((s) => (s.closedAt ?? Infinity) - began));
    const held = filesPeak - filesBefore;
    projector.close();
    const joinP99 = percentile(joins.map((j) => j.ms), 0.99);
    return [
      {
        check: 'L slow clients',
        did: `${count} heads and ${count} bodies, a byte every 0.5 s`,
        measured: `${open} still open; the last closed after ${fmtMs(lastClosed)}; the server held ${held} more files at most`,
        target: `0; <= ${fmtMs(limit)}; <= ${CONNECTION_CAPS.waiting + 64}`,
        pass: open === 0 && held <= CONNECTION_CAPS.waiting + 64,
      },
      // Whether the projector and the students get in is held on any machine; how soon is a
      // time alone, which a machine busy with other tests can miss (see Row.speed).
      { check: 'L projector', did: 'the projector connects during the attack', measured: String(projector.status), target: '200', pass: projector.status === 200 },
      { check: 'L projector time', did: 'how soon it connected', measured: fmtMs(projectorMs), target: '<= 1 s', pass: projectorMs <= 1000, speed: true },
      { check: 'L joins', did: '20 students join during the attack', measured: `${joined} of 20`, target: 'all', pass: joined === 20 },
      { check: 'L joins time', did: 'how soon they joined', measured: `p99 ${fmtMs(joinP99)}`, target: 'p99 <= 1 s', pass: joinP99 <= 1000, speed: true },
    ];
  } finally {
    await server.stop();
  }
}
