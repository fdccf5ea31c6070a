// The class against hostile and careless clients, and the teacher's controls: one device
// trying to fill the class, closing joins, removing and hiding a machine, starting classes
// without the host's key, nicknames that hide or impersonate, bodies another site's page
// could send.
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { address } from './addresses.ts';
import { Device, pool } from './client.ts';
import { deviceOf, type ClassUnderTest } from './pace.ts';
import { planResults } from './server-process.ts';
import type { Row } from './report.ts';

/** One device sends 500 joins: it gets the places left and no more, each refusal says the class is full, and the teacher's board counts them. */
export async function oneDeviceFills(klass: ClassUnderTest, size: number): Promise<Row[]> {
  const device = deviceOf(klass);
  const teacher = new Device();
  const refusedBefore = (await teacher.call(klass.at('board'), { token: klass.teacherToken })).body.teacher.refused.full;
  const left = size - (await teacher.call(klass.at('info'))).body.students;
  const started = performance.now();
  const answers = await pool(Array.from({ length: 500 }, (_, i) => i), 20, (i) => device.call(klass.at('join'), { body: { nickname: `bot ${i}` } }));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const accepted = answers.filter((a) => a.status === 201);
  const truthful = answers.filter((a) => a.status === 409).every((a) => a.body.reason === 'full' && /^This class is full/.test(a.body.error));
  const counted = (await teacher.call(klass.at('board'), { token: klass.teacherToken })).body.teacher.refused.full - refusedBefore;
  // The teacher removes every machine that sent nothing: the bots' places are free again.
  const removed = (await teacher.call(klass.at('removeSilent'), { token: klass.teacherToken })).body.removed;
  const after = await deviceOf(klass).call(klass.at('join'), { body: { nickname: 'after the bots' } });
  if (after.status === 201) await teacher.call(klass.at('remove', { id: after.body.id }), { token: klass.teacherToken });
  device.close();
  return [
    {
      check: '3 one device fills',
      did: `500 joins from one device in ${seconds} s (${left} places left)`,
      measured: `${accepted.length} joined; ${answers.length - accepted.length} told "class full"; ${counted} counted on the teacher's board`,
      target: `<= ${left}; all; all`,
      pass: accepted.length <= left && truthful && counted === answers.length - accepted.length,
    },
    { check: '3 silent removed', did: 'teacher removes every machine that sent nothing', measured: `${removed} removed; a new join: ${after.status}`, target: `${accepted.length}; 201`, pass: removed === accepted.length && after.status === 201 },
  ];
}

export async function teacherControls(klass: ClassUnderTest): Promise<Row> {
  const teacher = new Device();
  const t = { token: klass.teacherToken };
  const closed = await teacher.call(klass.at('joins'), { body: { open: false }, ...t });
  const refused = await new Device().call(klass.at('join'), { body: { nickname: 'while closed' } });
  await teacher.call(klass.at('joins'), { body: { open: true }, ...t });
  const victim = klass.students[0];
  const removed = await teacher.call(klass.at('remove', { id: victim.id }), t);
  const after = await victim.device.call(klass.at('results', { id: victim.id, done: true }), { raw: JSON.stringify(planResults(0, DEFAULT_CLASS_PLAN)), token: victim.token });
  const board = await teacher.call(klass.at('board'), t);
  const gone = !board.body.entries.some((e: { id: string }) => e.id === victim.id);
  klass.students.shift();
  const pass = closed.status === 200 && refused.status === 403 && removed.status === 200 && after.status === 404 && gone;
  return {
    check: '3 close joins, remove',
    did: 'teacher closes joins, removes a machine',
    measured: `join while closed ${refused.status}; removed machine's post ${after.status}; on board: ${gone ? 'no' : 'yes'}`,
    target: '403; 404; no',
    pass,
  };
}

export async function hostOnly(url: string, hostKey: string): Promise<Row> {
  const stranger = new Device();
  const statuses = await pool(Array.from({ length: 200 }, (_, i) => i), 20, (i) =>
    stranger.call(address(url, 'start'), { body: {}, token: i % 2 ? 'not-the-host-key' : undefined }).then((a) => a.status),
  );
  const started = statuses.filter((s) => s === 201).length;
  const host = await new Device().call(address(url, 'start'), { body: {}, token: hostKey });
  stranger.close();
  return { check: '4 host\'s key', did: '200 starts without the key, then the host', measured: `${started} started; host: ${host.status}`, target: '0; 201', pass: started === 0 && host.status === 201 };
}

export async function hiddenLeavesBoards(klass: ClassUnderTest): Promise<Row> {
  const teacher = new Device();
  const target = klass.students[0];
  await teacher.call(klass.at('hidden', { id: target.id }), { body: { hidden: true }, token: klass.teacherToken });
  const publicBoard = await new Device().call(klass.at('board'));
  const teacherBoard = await teacher.call(klass.at('board'), { token: klass.teacherToken });
  const onPublic = publicBoard.body.entries.some((e: { id: string }) => e.id === target.id);
  const flagged = teacherBoard.body.entries.find((e: { id: string }) => e.id === target.id)?.hidden === true;
  await teacher.call(klass.at('hidden', { id: target.id }), { body: { hidden: false }, token: klass.teacherToken });
  return { check: '7 hidden', did: 'teacher hides a machine', measured: `public board: ${onPublic ? 'shows it' : 'gone'}; teacher's copy flags it: ${flagged}`, target: 'gone; true (the page leaves it out)', pass: !onPublic && flagged };
}

const HOSTILE_NICKNAMES = ['\u202Eevil', 'An\u200Ba', '\u3164', '\u2800\u2800\u2800', '   ', 'a\u0301\u0301\u0301\u0301\u0301', 'x'.repeat(41), '👍'.repeat(41), 'Ana\u2066', '\u{E0041}\u{E0042}', '\uDC00x', 'tab\u0007'];
const TWINS = ['student 2', 'STUDENT 2', 'Student 2 ', 'ѕtudent 2', 'stüdent 2', 'ｓｔｕｄｅｎｔ　２'];

export async function nicknames(klass: ClassUnderTest): Promise<Row[]> {
  const device = () => new Device();
  const hostile = await Promise.all(HOSTILE_NICKNAMES.map((nickname) => device().call(klass.at('join'), { body: { nickname } })));
  const twins = await Promise.all(TWINS.map((nickname) => device().call(klass.at('join'), { body: { nickname } })));
  const plain = await device().call(klass.at('join'), { raw: '{"nickname":"plain"}', type: 'text/plain' });
  const broken = await device().call(klass.at('join'), { raw: '{"nickname":"broken"' });
  const hostileRefused = hostile.filter((a) => a.status === 400).length;
  const twinsRefused = twins.filter((a) => a.status === 409).length;
  return [
    { check: '8 nicknames', did: `${hostile.length} invisible, bidi, blank, stacked or long; ${twins.length} lookalikes of "student 2"`, measured: `${hostileRefused}/${hostile.length} refused (400); ${twinsRefused}/${twins.length} refused (409)`, target: 'all; all', pass: hostileRefused === hostile.length && twinsRefused === twins.length },
    {
      check: '8 bodies',
      did: 'join as text/plain; join with broken JSON',
      measured: `${plain.status}; ${broken.status} "${String(broken.body?.error ?? '').slice(0, 34)}…"`,
      target: '415; 400 saying so',
      pass: plain.status === 415 && broken.status === 400 && /not valid JSON/.test(broken.body?.error ?? ''),
    },
  ];
}
