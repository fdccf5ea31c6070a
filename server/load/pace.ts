// The class at the app's own pace, under a flood: every student posts its results so far
// every 2.5 s (as src/app/class/student.svelte.ts does), then its finished document, while a
// hostile device sends token-less posts at ~200 a second and late students join. The
// projector's stream times each finished run from its post to the board.
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { Device, percentile, pool, sleep, type Stream } from './client.ts';
import { planResults } from './server-process.ts';
import type { Row } from './report.ts';
import { doneQuery, path, POST_EVERY_MS, ROUTES, type RouteName } from '../../src/core/class/protocol.ts';

export interface Joined {
  id: string;
  token: string;
  nickname: string;
  device: Device;
}

export interface ClassUnderTest {
  url: string;
  /** The full address of one of this class's routes (src/core/class/protocol.ts). */
  at: ClassAddress;
  teacherToken: string;
  projector: Stream;
  students: Joined[];
}

type ClassAddress = (route: RouteName, params?: { id?: string }) => string;

/** The addresses of one class on a server, built from the protocol's routes. */
export const addressesOf =
  (origin: string, code: string): ClassAddress =>
  (route, params = {}) =>
    `${origin}${path(route, { code, ...params })}`;

export async function joinStudents(klass: ClassUnderTest, count: number, prefix: string): Promise<number[]> {
  return pool(Array.from({ length: count }, (_, i) => i), 50, async (i) => {
    const device = new Device();
    const nickname = `${prefix} ${i + 1}`;
    const answer = await device.call(klass.at('join'), { body: { nickname } });
    if (answer.status === 201) klass.students.push({ ...answer.body, device });
    return answer.status;
  });
}

/** One student's run: partial posts every 2.5 s until `until`, then the finished document; the final's send time. */
async function studentRun(klass: ClassUnderTest, student: Joined, seed: number, until: number, tally: Map<string, number>) {
  const documents = [1, 2].map((samples) => JSON.stringify(planResults(seed, DEFAULT_CLASS_PLAN, samples)));
  await sleep(Math.random() * POST_EVERY_MS);
  const url = klass.at('results', { id: student.id });
  while (performance.now() + POST_EVERY_MS < until) {
    const started = performance.now();
    const answer = await student.device.call(`${url}${doneQuery(false)}`, { method: ROUTES.results.method, raw: documents[0], token: student.token });
    tally.set(`partial ${answer.status}`, (tally.get(`partial ${answer.status}`) ?? 0) + 1);
    await sleep(Math.max(0, started + POST_EVERY_MS - performance.now()));
  }
  const sent = performance.now();
  const answer = await student.device.call(`${url}${doneQuery(true)}`, { method: ROUTES.results.method, raw: documents[1], token: student.token });
  tally.set(`final ${answer.status}`, (tally.get(`final ${answer.status}`) ?? 0) + 1);
  return { id: student.id, sent, ok: answer.status === 200 };
}

/** Token-less posts to real students' results, ~`perSecond` a second, from a few devices, until `until`. */
async function flood(klass: ClassUnderTest, perSecond: number, until: number, tally: Map<number, number>) {
  const devices = Array.from({ length: 4 }, () => new Device());
  const body = JSON.stringify(planResults(0, DEFAULT_CLASS_PLAN));
  let n = 0;
  while (performance.now() < until) {
    const tick = performance.now();
    const batch = Array.from({ length: Math.round(perSecond / 10) }, () => {
      const target = klass.students[n++ % klass.students.length];
      return devices[n % devices.length]
        .call(`${klass.at('results', { id: target.id })}${doneQuery(true)}`, { method: ROUTES.results.method, raw: body })
        .then((answer) => tally.set(answer.status, (tally.get(answer.status) ?? 0) + 1))
        .catch(() => tally.set(0, (tally.get(0) ?? 0) + 1));
    });
    await Promise.all([Promise.all(batch), sleep(Math.max(0, tick + 100 - performance.now()))]);
  }
  for (const device of devices) device.close();
}

export async function classAtPace(klass: ClassUnderTest, seconds: number): Promise<Row[]> {
  const until = performance.now() + seconds * 1000;
  const posts = new Map<string, number>();
  const hostile = new Map<number, number>();
  const late: Promise<number[]>[] = [];
  const runs = Promise.all(klass.students.map((student, i) => studentRun(klass, student, i, until, posts)));
  const flooding = flood(klass, 200, until, hostile);
  // Late students join halfway through, during the flood.
  const lateCount = Math.max(5, Math.round(klass.students.length / 20));
  late.push(sleep((seconds * 1000) / 2).then(() => joinStudents(klass, lateCount, 'late')));
  const [finished] = await Promise.all([runs, flooding]);
  const lateStatuses = (await Promise.all(late)).flat();

  // The board's side: when the projector's stream carried each finished entry.
  await sleep(3000);
  const seen = new Map<string, number>();
  for (const e of klass.projector.events) if (e.event === 'entry' && e.data.done && !seen.has(e.data.id)) seen.set(e.data.id, e.at);
  const delays = finished.map((f) => (seen.has(f.id) ? seen.get(f.id)! - f.sent : Infinity));
  const p99 = percentile(delays, 0.99);
  const partials = [...posts].filter(([k]) => k.startsWith('partial')).reduce((sum, [, v]) => sum + v, 0);
  const partial429 = posts.get('partial 429') ?? 0;
  const finalRefused = finished.filter((f) => !f.ok).length;
  const floodCount = [...hostile.values()].reduce((a, b) => a + b, 0);
  const floodPassed = [...hostile].filter(([status]) => status === 200).reduce((sum, [, v]) => sum + v, 0);
  const lateOk = lateStatuses.filter((s) => s === 201).length;
  const n = klass.students.length - lateOk;
  return [
    { check: '1 pace: partial posts', did: `${n} students post every 2.5 s for ${seconds} s`, measured: `${partial429} of ${partials} refused (429)`, target: '0 refused', pass: partial429 === 0 && partials > 0 },
    { check: '1 pace: finished runs', did: `${n} finished documents`, measured: `${finalRefused} refused`, target: '0 refused', pass: finalRefused === 0 },
    { check: '1 pace: final -> board', did: 'post to projector stream', measured: `p99 ${fmtMs(p99)}, max ${fmtMs(Math.max(...delays))}`, target: 'p99 <= 3 s', pass: p99 <= 3000 },
    { check: '2 token-less flood', did: `${floodCount} posts without a token (~200/s) during the class`, measured: `${floodPassed} accepted; students refused: ${partial429 + finalRefused}`, target: '0 accepted, 0 refused', pass: floodPassed === 0 && floodCount > 0 && partial429 + finalRefused === 0 },
    { check: '2 joins during flood', did: `${lateStatuses.length} late students join mid-flood`, measured: `${lateOk} of ${lateStatuses.length} joined`, target: 'all', pass: lateOk === lateStatuses.length },
  ];
}

export const fmtMs = (ms: number) => (Number.isFinite(ms) ? (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`) : 'never');
