// The class at the app's own pace, under a flood: every student posts its results so far
// every 2.5 s (as src/app/class/student.svelte.ts does), then its finished document, while a
// hostile device sends token-less posts at ~200 a second and late students join. The
// projector's stream times each post from its sending to the board. A class behind one
// address (a school) has every device, the flood's too, on that address.
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { POST_EVERY_MS } from '../../src/core/class/protocol.ts';
import type { At } from './addresses.ts';
import { Device, percentile, pool, sleep, type Stream } from './client.ts';
import { planResults } from './server-process.ts';
import type { Row } from './report.ts';

export interface Joined {
  id: string;
  token: string;
  nickname: string;
  ticket: string;
  device: Device;
}

export interface ClassUnderTest {
  /** The class's routes. */
  at: At;
  teacherToken: string;
  projector: Stream;
  students: Joined[];
  /** The one address every device of the class shares (a school's), or none: each device has its own. */
  address?: string;
}

/** A device of the class: on the class's one address, or on one of its own. */
export const deviceOf = (klass: ClassUnderTest) => new Device(klass.address);

export async function joinStudents(klass: ClassUnderTest, count: number, prefix: string): Promise<number[]> {
  return pool(Array.from({ length: count }, (_, i) => i), 50, async (i) => {
    const device = deviceOf(klass);
    const nickname = `${prefix} ${i + 1}`;
    const answer = await device.call(klass.at('join'), { body: { nickname } });
    if (answer.status === 201) klass.students.push({ ...answer.body, device });
    return answer.status;
  });
}

/** Every post of a run: when it was sent, and the entry it made (its id and time), to find it on the projector's stream. */
export interface Posted {
  /** performance.now() when it was sent. */
  sent: number;
  /** Date.now() when it was sent: comparable with another process's clock. */
  wall: number;
  id: string;
  updatedAt: number;
  done: boolean;
}

/** One student's run: partial posts every 2.5 s until `until`, then the finished document; each answer's status tallied. */
export async function studentRun(klass: ClassUnderTest, student: Joined, seed: number, until: number, tally: Map<string, number>, posted: Posted[]) {
  const documents = [1, 2].map((samples) => JSON.stringify(planResults(seed, DEFAULT_CLASS_PLAN, samples)));
  await sleep(Math.random() * POST_EVERY_MS);
  const post = async (done: boolean) => {
    const sent = performance.now();
    const wall = Date.now();
    const answer = await student.device.call(klass.at('results', { id: student.id, done }), { raw: documents[done ? 1 : 0], token: student.token });
    const key = `${done ? 'final' : 'partial'} ${answer.status}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    if (answer.status === 200) posted.push({ sent, wall, id: student.id, updatedAt: answer.body.entry.updatedAt, done });
    return { sent, ok: answer.status === 200 };
  };
  while (performance.now() + POST_EVERY_MS < until) {
    const { sent } = await post(false);
    await sleep(Math.max(0, sent + POST_EVERY_MS - performance.now()));
  }
  const final = await post(true);
  return { id: student.id, ...final };
}

/** When the projector's stream carried each post, from its sending: ms, Infinity for a post it never showed. */
export function projectorLags(projector: Stream, posted: Posted[]): number[] {
  const seen = new Map<string, number>();
  for (const e of projector.events) if (e.event === 'entry') seen.set(`${e.data.id} ${e.data.updatedAt}`, e.at);
  return posted.map((p) => (seen.get(`${p.id} ${p.updatedAt}`) ?? Infinity) - p.sent);
}

/** Token-less posts to real students' results, ~`perSecond` a second, from a few devices, until `until`. */
async function flood(klass: ClassUnderTest, perSecond: number, until: number, tally: Map<number, number>) {
  const devices = Array.from({ length: 4 }, () => deviceOf(klass));
  const body = JSON.stringify(planResults(0, DEFAULT_CLASS_PLAN));
  let n = 0;
  while (performance.now() < until) {
    const tick = performance.now();
    const batch = Array.from({ length: Math.round(perSecond / 10) }, () => {
      const target = klass.students[n++ % klass.students.length];
      return devices[n % devices.length]
        .call(klass.at('results', { id: target.id, done: true }), { raw: body })
        .then((answer) => tally.set(answer.status, (tally.get(answer.status) ?? 0) + 1))
        .catch(() => tally.set(0, (tally.get(0) ?? 0) + 1));
    });
    await Promise.all([Promise.all(batch), sleep(Math.max(0, tick + 100 - performance.now()))]);
  }
  for (const device of devices) device.close();
}

/** Late students who join halfway through a class of `students`. */
export const lateStudents = (students: number) => Math.max(5, Math.round(students / 20));

/** The class at pace under a flood; rows labelled `label` ("1", or "S" for a school). */
export async function classAtPace(klass: ClassUnderTest, seconds: number, label = '1', floodLabel = '2'): Promise<Row[]> {
  const until = performance.now() + seconds * 1000;
  const posts = new Map<string, number>();
  const posted: Posted[] = [];
  const hostile = new Map<number, number>();
  const runs = Promise.all(klass.students.map((student, i) => studentRun(klass, student, i, until, posts, posted)));
  const flooding = flood(klass, 200, until, hostile);
  // Late students join halfway through, during the flood, and post what they measured at once.
  const late = sleep((seconds * 1000) / 2).then(async () => {
    const before = klass.students.length;
    const statuses = await joinStudents(klass, lateStudents(before), 'late');
    const document = JSON.stringify(planResults(0, DEFAULT_CLASS_PLAN, 1));
    await Promise.all(klass.students.slice(before).map((s) => s.device.call(klass.at('results', { id: s.id, done: false }), { raw: document, token: s.token })));
    return statuses;
  });
  const [finished] = await Promise.all([runs, flooding]);
  const lateStatuses = await late;

  // The board's side: when the projector's stream carried each finished entry.
  await sleep(3000);
  const delays = projectorLags(klass.projector, posted.filter((p) => p.done));
  const finalLost = finished.length - delays.length;
  const p99 = percentile([...delays, ...Array(finalLost).fill(Infinity)], 0.99);
  const partials = [...posts].filter(([k]) => k.startsWith('partial')).reduce((sum, [, v]) => sum + v, 0);
  const partial429 = posts.get('partial 429') ?? 0;
  const finalRefused = finished.filter((f) => !f.ok).length;
  const floodCount = [...hostile.values()].reduce((a, b) => a + b, 0);
  const floodPassed = [...hostile].filter(([status]) => status === 200).reduce((sum, [, v]) => sum + v, 0);
  const lateOk = lateStatuses.filter((s) => s === 201).length;
  const n = finished.length;
  return [
    { check: `${label} pace: partial posts`, did: `${n} students post every 2.5 s for ${seconds} s`, measured: `${partial429} of ${partials} refused (429)`, target: '0 refused', pass: partial429 === 0 && partials > 0 },
    { check: `${label} pace: finished runs`, did: `${n} finished documents`, measured: `${finalRefused} refused`, target: '0 refused', pass: finalRefused === 0 },
    { check: `${label} pace: final -> board`, did: 'post to projector stream', measured: `p99 ${fmtMs(p99)}, max ${fmtMs(Math.max(...delays, 0))}`, target: 'p99 <= 3 s', pass: p99 <= 3000 },
    { check: `${floodLabel} token-less flood`, did: `${floodCount} posts without a token (~200/s) during the class`, measured: `${floodPassed} accepted; students refused: ${partial429 + finalRefused}`, target: '0 accepted, 0 refused', pass: floodPassed === 0 && floodCount > 0 && partial429 + finalRefused === 0 },
    { check: `${floodLabel} joins during flood`, did: `${lateStatuses.length} late students join mid-flood`, measured: `${lateOk} of ${lateStatuses.length} joined`, target: 'all', pass: lateOk === lateStatuses.length },
  ];
}

export const fmtMs = (ms: number) => (Number.isFinite(ms) ? (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`) : 'never');
