// `--scenario school`: a class behind one address, as a class server outside a school's
// network (or behind its proxy) sees it. Every student, the projector, the token-less
// flood and a hostile script share 127.9.0.1. The teacher sets the class size; every
// student joins and follows the board, posts at the app's pace with none refused; the
// script gets the places left and no more, each refusal is counted on the teacher's board,
// and removing the script's silent machines gives their places back.
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { address, addressesOf } from './addresses.ts';
import { Device, pool } from './client.ts';
import { classAtPace, joinStudents, lateStudents, type ClassUnderTest } from './pace.ts';
import { startServer } from './server-process.ts';
import type { Row } from './report.ts';

/** The school's one address. */
const SCHOOL = '127.9.0.1';
/** Places the teacher leaves beyond the class and its late students. */
const SPARE_PLACES = 10;
const SCRIPT_JOINS = 500;

export async function schoolScenario(students: number, seconds: number, log: (line: string) => void): Promise<Row[]> {
  const server = await startServer();
  try {
    const teacher = new Device(SCHOOL);
    const size = students + lateStudents(students) + SPARE_PLACES;
    const started = await teacher.call(address(server.url, 'start'), { body: { plan: DEFAULT_CLASS_PLAN, size }, token: server.hostKey });
    if (started.status !== 201) throw new Error(`starting the class: ${started.status} ${JSON.stringify(started.body)}`);
    const at = addressesOf(server.url, started.body.code);
    const t = { token: started.body.teacherToken as string };
    const projector = await new Device(SCHOOL).stream(at('events', { ticket: started.body.ticket }));
    const klass: ClassUnderTest = { at, teacherToken: t.token, projector, students: [], address: SCHOOL };
    const rows: Row[] = [];

    log(`${students} students join from one address`);
    const joined = await joinStudents(klass, students, 'student');
    const joinedOk = joined.filter((s) => s === 201).length;
    rows.push({ check: 'S join', did: `${students} students join from one address (class of ${size})`, measured: `${joinedOk} joined; ${students - joinedOk} refused`, target: 'all; 0', pass: joinedOk === students });

    // Every page follows the board on its machine's ticket, from the same address as the projector.
    const pages = await pool(klass.students, 50, (student) => student.device.stream(at('events', { ticket: student.ticket })));
    const live = [projector, ...pages].filter((s) => s.status === 200).length;
    rows.push({ check: 'S live boards', did: `${pages.length} pages and the projector follow the board from that address`, measured: `${live} of ${pages.length + 1} live`, target: 'all', pass: live === pages.length + 1 });

    log(`the class at the app's pace for ${seconds} s, a flood from the same address`);
    rows.push(...(await classAtPace(klass, seconds, 'S', 'S')));

    log('a script on the same network tries to fill the class');
    const script = new Device(SCHOOL);
    const left = size - (await teacher.call(at('info'))).body.students;
    const answers = await pool(Array.from({ length: SCRIPT_JOINS }, (_, i) => i), 20, (i) => script.call(at('join'), { body: { nickname: `bot ${i}` } }));
    const taken = answers.filter((a) => a.status === 201).length;
    const full = answers.filter((a) => a.body?.reason === 'full' && /^This class is full: it takes \d+ machines\. Ask your teacher/.test(a.body.error)).length;
    rows.push({ check: 'S script fills', did: `${SCRIPT_JOINS} joins from a script at the school's address (${left} places left)`, measured: `${taken} joined; ${full} told "class full, ask your teacher"`, target: `<= ${left}; the rest`, pass: taken <= left && taken + full === SCRIPT_JOINS });

    const board = (await teacher.call(at('board'), t)).body;
    const silent = board.entries.filter((e: { silent: boolean }) => e.silent).length;
    rows.push({ check: 'S teacher sees', did: "the teacher's board after the script", measured: `${board.teacher.refused.full} refusals "class full"; ${silent} silent machines listed`, target: `${full}; ${taken}`, pass: board.teacher.refused.full === full && silent === taken });

    const removed = (await teacher.call(at('removeSilent'), t)).body.removed;
    const after = await joinStudents(klass, Math.min(taken, 3), 'after');
    const placesBack = after.every((s) => s === 201);
    rows.push({ check: 'S places back', did: 'teacher removes the silent machines; students join again', measured: `${removed} removed; ${after.filter((s) => s === 201).length} of ${after.length} joined`, target: `${taken}; all`, pass: removed === taken && placesBack });

    for (const stream of [projector, ...pages]) stream.close();
    for (const student of klass.students) student.device.close();
    return rows;
  } finally {
    await server.stop();
  }
}
