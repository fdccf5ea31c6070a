// The reconnect storm: while a class posts at the app's pace, two hundred pages lose their
// stream again and again (a flaky Wi-Fi, a proxy restarting), and each time reconnect and
// reload the board, as src/app/class/live.svelte.ts does, with the ETag of the copy they hold
// (storm-pages.ts, in a process of its own). No read may fail, and once the class stops
// posting every page's copy must be answered 304. The projector's lag from a post to its
// screen must stay under 300 ms at p99.
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { spawn } from 'node:child_process';
import { address, addressesOf } from './addresses.ts';
import { Device, percentile, sleep, type Stream } from './client.ts';
import { fmtMs, joinStudents, studentRun, type ClassUnderTest, type Posted } from './pace.ts';
import { watchProjector } from './projector.ts';
import { startServer } from './server-process.ts';
import type { StormPlan, StormTally } from './storm-pages.ts';
import type { Row } from './report.ts';

const PAGES = 200;
const LAG_TARGET_MS = 300;

/** Runs the storm's pages in a process of their own until `seconds` are over; resolves with their tally. */
function stormPages(plan: StormPlan): Promise<StormTally> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/load/storm-pages.ts', JSON.stringify(plan)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(output) as StormTally) : reject(new Error(`the storm's pages exited with ${code}`))));
  });
}

export async function stormScenario(students: number, seconds: number, log: (line: string) => void): Promise<Row[]> {
  const server = await startServer();
  try {
    const host = new Device();
    // The teacher made room for every page of the storm, joined or not.
    const started = await host.call(address(server.url, 'start'), { body: { plan: DEFAULT_CLASS_PLAN, size: Math.max(students + 10, PAGES) }, token: server.hostKey });
    const at = addressesOf(server.url, started.body.code);
    // The projector times the storm from a process of its own; the class needs a stream of its own too.
    const projector = await watchProjector(at('events', { ticket: started.body.ticket }));
    const klass: ClassUnderTest = { at, teacherToken: started.body.teacherToken, projector: null as unknown as Stream, students: [] };
    await joinStudents(klass, students, 'student');

    log(`${PAGES} pages reconnect for ${seconds} s while ${students} students post`);
    const until = performance.now() + seconds * 1000;
    const posts = new Map<string, number>();
    const posted: Posted[] = [];
    // The joined students' own pages storm on their tickets; the rest are pages that have not joined.
    const storm = stormPages({ server: server.url, code: started.body.code, tickets: klass.students.map((s) => s.ticket), pages: PAGES, seconds });
    const runs = klass.students.map((student, i) => studentRun(klass, student, i, until, posts, posted));
    const [tally] = await Promise.all([storm, ...runs]);
    await sleep(1000);

    const arrivals = new Map((await projector.stop()).map((a) => [`${a.id} ${a.updatedAt}`, a.at]));
    const lags = posted.map((p) => (arrivals.get(`${p.id} ${p.updatedAt}`) ?? Infinity) - p.wall);
    const p99 = percentile(lags, 0.99);
    const refused = [...posts].filter(([key]) => !key.endsWith(' 200')).reduce((sum, [, n]) => sum + n, 0);
    return [
      {
        check: 'T reconnect storm',
        did: `${PAGES} pages drop and reconnect every 0.3-1.5 s for ${seconds} s, then twice more once the posts stop`,
        measured: `${tally.reconnects} reconnects, ${tally.reads} board reads (${tally.notModified} answered 304), ${tally.failed} failed; after the posts, ${tally.quietNotModified} of ${PAGES} copies answered 304`,
        target: `0 failed; ${PAGES} of ${PAGES}`,
        pass: tally.failed === 0 && tally.reads > PAGES && tally.quietNotModified === PAGES,
      },
      { check: 'T posts shown', did: `${posted.length} posts, each on the projector's screen`, measured: `${lags.filter((lag) => lag === Infinity).length} never shown`, target: '0', pass: lags.every((lag) => lag !== Infinity) },
      { check: 'T projector lag', did: `${posted.length} posts, from sending to the projector's screen`, measured: `p99 ${fmtMs(p99)}, max ${fmtMs(Math.max(...lags))}`, target: `p99 < ${LAG_TARGET_MS} ms`, pass: p99 < LAG_TARGET_MS, speed: true },
      { check: 'T posts in storm', did: `${students} students post at the app's pace`, measured: `${refused} of ${posted.length + refused} refused`, target: '0 refused', pass: refused === 0 && posted.length > 0 },
    ];
  } finally {
    await server.stop();
  }
}
