// The restart scenario: a class at the app's pace, its server killed with `kill -9` halfway
// through and started again on the same data and port. Every post the server acknowledged
// before it died is on the board after; the host's key (the teacher's link) is the same;
// the projector's and the students' streams come back by themselves; the students' tokens
// still work, so their posts go on.
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { POST_EVERY_MS } from '../../src/core/class/protocol.ts';
import { address, addressesOf, type Target } from './addresses.ts';
import { Device, sleep, type Stream } from './client.ts';
import { fmtMs, joinStudents, type ClassUnderTest } from './pace.ts';
import { planResults, startServer } from './server-process.ts';
import type { Row } from './report.ts';

/** How long after the restart the streams have to be back. */
const BACK_WITHIN_MS = 5000;

/** A stream that reopens itself (as a page's EventSource does) until `stop`; `back` is when it last connected. */
function resilientStream(device: Device, to: Target) {
  const state = { stream: null as Stream | null, back: 0, stopped: false };
  void (async () => {
    while (!state.stopped) {
      try {
        const stream = await device.stream(to);
        if (stream.status === 200) {
          state.stream = stream;
          state.back = performance.now();
          await stream.ended;
        } else stream.close();
      } catch {
        // the server is down: try again shortly, as a browser does
      }
      await sleep(200);
    }
  })();
  return { state, stop: () => ((state.stopped = true), state.stream?.close()) };
}

export async function restartScenario(students: number, seconds: number, log: (line: string) => void): Promise<Row[]> {
  const server = await startServer();
  try {
    const host = new Device();
    const started = await host.call(address(server.url, 'start'), { body: { plan: DEFAULT_CLASS_PLAN, size: students + 10 }, token: server.hostKey });
    const at = addressesOf(server.url, started.body.code);
    const klass: ClassUnderTest = { at, teacherToken: started.body.teacherToken, projector: null as unknown as Stream, students: [] };
    await joinStudents(klass, students, 'student');
    const projector = resilientStream(new Device(), at('events', { ticket: started.body.ticket }));
    const pages = klass.students.map((s) => resilientStream(s.device, at('events', { ticket: s.ticket })));
    const hostKey = server.hostKey;

    // Students post at pace; the last acknowledged post of each is what must survive.
    const acknowledged = new Map<string, number>();
    let refusedAfter = 0;
    let postsAfter = 0;
    let restarted = Infinity;
    let until = performance.now() + seconds * 1000;
    const document = JSON.stringify(planResults(1, DEFAULT_CLASS_PLAN, 1));
    const runs = klass.students.map(async (student) => {
      await sleep(Math.random() * POST_EVERY_MS);
      while (performance.now() < until) {
        const sent = performance.now();
        try {
          const answer = await student.device.call(at('results', { id: student.id, done: false }), { raw: document, token: student.token });
          if (answer.status === 200) acknowledged.set(student.id, answer.body.entry.updatedAt);
          if (sent > restarted) {
            postsAfter++;
            if (answer.status !== 200) refusedAfter++;
          }
        } catch {
          // the server is down: the page tries again at its next post
        }
        await sleep(Math.max(0, sent + POST_EVERY_MS - performance.now()));
      }
    });

    await sleep((seconds * 1000) / 2);
    log('kill -9, then a restart on the same data');
    await server.kill();
    const ackedAtKill = new Map(acknowledged);
    const restarting = performance.now();
    await server.restart();
    restarted = performance.now();
    // Posts go on for as long after the restart as they did before the kill, however long
    // the restart took (a busy machine starts a server slowly).
    until = Math.max(until, restarted + (seconds * 1000) / 2);
    await Promise.all(runs);
    const streams = [projector, ...pages];
    while (performance.now() < restarted + BACK_WITHIN_MS && !streams.every((p) => p.state.back > restarting)) await sleep(50);
    // Back: connected since the restart began; how long after the new server said it was listening.
    const backAt = streams.map((p) => (p.state.back > restarting ? Math.max(0, p.state.back - restarted) : -1));
    const board = (await host.call(at('board'))).body;
    const onBoard = new Map<string, number>(board.entries.map((e: { id: string; updatedAt: number }) => [e.id, e.updatedAt]));
    const lost = [...ackedAtKill].filter(([id, at]) => (onBoard.get(id) ?? -1) < at).length;
    for (const stream of streams) stream.stop();
    const slowest = Math.max(...backAt);
    return [
      { check: 'R acknowledged kept', did: `${students} students post; kill -9 at ${seconds / 2} s; restart`, measured: `${lost} of ${ackedAtKill.size} last acknowledged posts lost`, target: '0 lost', pass: lost === 0 && ackedAtKill.size === students },
      { check: 'R same host key', did: "the teacher's link after the restart", measured: server.hostKey === hostKey ? 'the same key' : 'a new key', target: 'the same key', pass: server.hostKey === hostKey },
      { check: 'R streams back', did: `the projector and ${pages.length} pages reconnect by themselves`, measured: `${backAt.filter((ms) => ms >= 0).length} of ${backAt.length} back; the last after ${fmtMs(slowest)}`, target: `all; <= ${fmtMs(BACK_WITHIN_MS)}`, pass: backAt.every((ms) => ms >= 0) && slowest <= BACK_WITHIN_MS },
      { check: 'R posts go on', did: 'students post with their tokens after the restart', measured: `${refusedAfter} of ${postsAfter} refused`, target: '0 refused', pass: postsAfter > 0 && refusedAfter === 0 },
    ];
  } finally {
    await server.stop();
  }
}
