// The default class: students from devices of their own guess every step of the plan,
// then post at the app's pace under a token-less flood, then every hostile check one at a
// time: nicknames, one device trying to fill the class, the teacher's controls, the host's
// key, streams, results documents, the board and the export.
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { address, addressesOf } from './addresses.ts';
import { Device } from './client.ts';
import { classGuesses } from './guesses.ts';
import { boardReads, exportWhileServing, offPlanAndLarge } from './documents.ts';
import { hiddenLeavesBoards, hostOnly, nicknames, oneDeviceFills, teacherControls } from './hostile.ts';
import { classAtPace, joinStudents, lateStudents, type ClassUnderTest } from './pace.ts';
import { startServer } from './server-process.ts';
import { manyStreams, slowReaders } from './streams.ts';
import type { Row } from './report.ts';

/** Places the teacher leaves beyond the class and its late students: what a script from one device could take. */
const SPARE_PLACES = 20;

export async function classScenario(students: number, seconds: number, log: (line: string) => void): Promise<Row[]> {
  const server = await startServer();
  try {
    const host = new Device();
    const size = students + lateStudents(students) + SPARE_PLACES;
    const started = await host.call(address(server.url, 'start'), { body: { plan: DEFAULT_CLASS_PLAN, size }, token: server.hostKey });
    if (started.status !== 201) throw new Error(`starting the class: ${started.status} ${JSON.stringify(started.body)}`);
    const at = addressesOf(server.url, started.body.code);
    const projector = await new Device().stream(at('events', { ticket: started.body.ticket }));
    const klass: ClassUnderTest = { at, teacherToken: started.body.teacherToken, projector, students: [] };
    const rows: Row[] = [];
    log(`${students} students join`);
    const joined = await joinStudents(klass, students, 'student');
    const joinedOk = joined.filter((s) => s === 201).length;
    rows.push({ check: '0 join', did: `${students} students join from their own devices`, measured: `${joinedOk} joined`, target: 'all', pass: joinedOk === students });
    log('every student guesses every step of the plan');
    rows.push(await classGuesses(klass));
    log(`class at the app's pace for ${seconds} s, under a token-less flood`);
    rows.push(...(await classAtPace(klass, seconds)));
    log('nicknames, one device filling the class, the teacher’s controls, the host’s key');
    rows.push(...(await nicknames(klass)));
    rows.push(...(await oneDeviceFills(klass, size)));
    rows.push(await teacherControls(klass));
    rows.push(await hostOnly(server.url, server.hostKey));
    log('event streams');
    rows.push(await manyStreams(klass, 600, size, started.body.ticket));
    rows.push(await slowReaders(server, 20, 30));
    log('results documents, the board, the export');
    rows.push(await offPlanAndLarge(klass));
    rows.push(await boardReads(klass, 100));
    rows.push(...(await exportWhileServing(klass)));
    rows.push(await hiddenLeavesBoards(klass));
    projector.close();
    return rows;
  } finally {
    await server.stop();
  }
}
