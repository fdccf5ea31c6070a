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

/** The students' posts at the app's pace, and what became of them around the restart. */
interface Posting {
  /** Each student's last acknowledged post (its updatedAt): what must survive. */
  acknowledged: Map<string, number>;
  postsAfter: number;
  refusedAfter: number;
  /** When the new server said it was listening; Infinity before. */
  restarted: number;
  /** When the students stop posting. */
  until: number;
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

    const posting: Posting = { acknowledged: new Map(), postsAfter: 0, refusedAfter: 0, restarted: Infinity, until: performance.now() + seconds * 1000 };
    const runs = postAtPace(klass, posting);
    await sleep((seconds * 1000) / 2);
    log('kill -9, then a restart on the same data');
    await server.kill();
    const ackedAtKill = new Map(posting.acknowledged);
    const restarting = performance.now();
    await server.restart();
    posting.restarted = performance.now();
    // Posts go on for as long after the restart as they did before the kill, however long
    // the restart took (a busy machine starts a server slowly).
    posting.until = Math.max(posting.until, posting.restarted + (seconds * 1000) / 2);
    await Promise.all(runs);
    const streams = [projector, ...pages];
    const backAt = await streamsBack(streams, restarting, posting.restarted);
    const lost = await lostPosts(host, at, ackedAtKill);
    for (const stream of streams) stream.stop();
    const slowest = Math.max(...backAt);
    return [
      { check: 'R acknowledged kept', did: `${students} students post; kill -9 at ${seconds / 2} s; restart`, measured: `${lost} of ${ackedAtKill.size} last acknowledged posts lost`, target: '0 lost', pass: lost === 0 && ackedAtKill.size === students },
      { check: 'R same host key', did: "the teacher's link after the restart", measured: server.hostKey === hostKey ? 'the same key' : 'a new key', target: 'the same key', pass: server.hostKey === hostKey },
      { check: 'R streams back', did: `the projector and ${pages.length} pages reconnect by themselves`, measured: `${backAt.filter((ms) => ms >= 0).length} of ${backAt.length} back; the last after ${fmtMs(slowest)}`, target: `all; <= ${fmtMs(BACK_WITHIN_MS)}`, pass: backAt.every((ms) => ms >= 0) && slowest <= BACK_WITHIN_MS },
      { check: 'R posts go on', did: 'students post with their tokens after the restart', measured: `${posting.refusedAfter} of ${posting.postsAfter} refused`, target: '0 refused', pass: posting.postsAfter > 0 && posting.refusedAfter === 0 },
    ];
  } finally {
    await server.stop();
  }
}

/** Every student posts one document at the app's pace until `posting.until`, counting what the server acknowledged and, after the restart, refused. */
function postAtPace(klass: ClassUnderTest, posting: Posting): Promise<void>[] {
  const document = JSON.stringify(planResults(1, DEFAULT_CLASS_PLAN, 1));
  return klass.students.map(async (student) => {
    await sleep(Math.random() * POST_EVERY_MS);
    while (performance.now() < posting.until) {
      const sent = performance.now();
      try {
        const answer = await student.device.call(klass.at('results', { id: student.id, done: false }), { raw: document, token: student.token });
        if (answer.status === 200) posting.acknowledged.set(student.id, answer.body.entry.updatedAt);
        if (sent > posting.restarted) {
          posting.postsAfter++;
          if (answer.status !== 200) posting.refusedAfter++;
        }
      } catch {
        // the server is down: the page tries again at its next post
      }
      await sleep(Math.max(0, sent + POST_EVERY_MS - performance.now()));
    }
  });
}

/**
 * Waits up to BACK_WITHIN_MS for every stream to be back: connected since the restart
 * began. Each one's time is how long after the new server said it was listening (-1: not back).
 */
async function streamsBack(streams: ReturnType<typeof resilientStream>[], restarting: number, restarted: number): Promise<number[]> {
  while (performance.now() < restarted + BACK_WITHIN_MS && !streams.every((p) => p.state.back > restarting)) await sleep(50);
  return streams.map((p) => (p.state.back > restarting ? Math.max(0, p.state.back - restarted) : -1));
}

/** How many of the posts acknowledged before the kill the board no longer holds. */
async function lostPosts(host: Device, at: ClassUnderTest['at'], ackedAtKill: Map<string, number>): Promise<number> {
  const board = (await host.call(at('board'))).body;
  const onBoard = new Map<string, number>(board.entries.map((e: { id: string; updatedAt: number }) => [e.id, e.updatedAt]));
  return [...ackedAtKill].filter(([id, at]) => (onBoard.get(id) ?? -1) < at).length;
}
