// A school's class behind one address (its network's, as a server outside the school sees
// it): sixty students, the projector and a hostile script all come from 127.0.0.1's
// neighbour 127.77.0.1. Every student joins and follows the board; the script fills the
// class no further than its size; every refusal is on the teacher's board with its reason;
// removing the script's silent machines gives their places back; "Let them in" admits the
// pages that waited; a new code keeps out the old one's holders but not those who joined.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { path } from '../src/core/class/protocol.ts';
import { call, postResults, startClass, startClassServer, studentResults, tempDirs, type ClassServer } from './fixtures/class-server.ts';

/** The school's one address. */
const SCHOOL = '127.77.0.1';
const STUDENTS = 60;

let server: ClassServer;
beforeAll(async () => {
  server = await startClassServer(tempDirs());
});
afterAll(async () => {
  await server?.stop();
});

/** An event stream from the school's address; resolves with its status once the answer's head is in. */
function stream(url: string): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const get = request(url, { localAddress: SCHOOL, agent: false }, (response) => {
      resolve({ status: response.statusCode ?? 0, close: () => get.destroy() });
      response.resume();
    });
    get.on('error', reject);
    get.end();
  });
}

const fromSchool = (url: string, init: Parameters<typeof call>[1] = {}) => call(url, { ...init, from: SCHOOL });

describe('a class behind one address', () => {
  it('lets sixty students, the projector and a script share it: the class size holds, and the teacher sees and lifts every refusal', async () => {
    const started = await startClass(server, { size: STUDENTS + 5 });
    expect(started.status).toBe(201);
    const { code, teacherToken, ticket } = started.body;
    const base = `${server.url}${path('info', { code })}`;
    const teacher = { token: teacherToken };
    const projector = await stream(`${base}/events?ticket=${encodeURIComponent(ticket)}`);
    expect(projector.status).toBe(200);

    // Each student's page follows the board before joining, joins, then follows on its ticket.
    const before = await Promise.all(Array.from({ length: STUDENTS }, () => stream(`${base}/events`)));
    const joins = await Promise.all(Array.from({ length: STUDENTS }, (_, i) => fromSchool(`${base}/students`, { body: { nickname: `student ${i + 1}`, attempt: `page-${i}-xxxxx` } })));
    expect(joins.map((j) => j.status)).toEqual(Array(STUDENTS).fill(201));
    const students = joins.map((j) => j.body);
    const after = await Promise.all(students.map((s) => stream(`${base}/events?ticket=${encodeURIComponent(s.ticket)}`)));
    expect([...before, ...after].filter((s) => s.status !== 200)).toEqual([]);
    for (const s of before) s.close();
    const posts = await Promise.all(students.map((s, i) => postResults(base, s, studentResults(i), false)));
    expect(posts.filter((p) => p.status !== 200)).toEqual([]);

    // A script on the same network takes the five places left, and no more.
    const script = [];
    for (let i = 0; i < 40; i++) script.push(await fromSchool(`${base}/students`, { body: { nickname: `bot ${i}` } }));
    expect(script.filter((s) => s.status === 201)).toHaveLength(5);
    expect(new Set(script.slice(5).map((s) => s.body.error))).toEqual(new Set([`This class is full: it takes ${STUDENTS + 5} machines. Ask your teacher to let you in; this page joins by itself when they do`]));
    // Two real students come late and wait.
    const late = await Promise.all(['Zoé', 'Yann'].map((nickname, i) => fromSchool(`${base}/students`, { body: { nickname, attempt: `late-${i}-xxxxxxx` } })));
    expect(late.map((l) => l.body.reason)).toEqual(['full', 'full']);

    // The teacher's board: every machine from its join, the script's marked silent, every refusal counted.
    let board = (await fromSchool(`${base}/board`, teacher)).body;
    expect(board.entries).toHaveLength(STUDENTS + 5);
    expect(board.entries.filter((e: { silent: boolean }) => e.silent).map((e: { nickname: string }) => e.nickname)).toEqual(['bot 0', 'bot 1', 'bot 2', 'bot 3', 'bot 4']);
    expect(board.teacher).toMatchObject({ refused: { full: 37 }, waiting: 2 });

    // Removing the silent machines gives their places back; the waiting pages get in when they try again.
    expect((await fromSchool(`${base}/students`, { method: 'DELETE', ...teacher })).body).toEqual({ removed: 5 });
    expect((await fromSchool(base)).body).toMatchObject({ students: STUDENTS, size: STUDENTS + 5 });
    const retried = await Promise.all(['Zoé', 'Yann'].map((nickname, i) => fromSchool(`${base}/students`, { body: { nickname, attempt: `late-${i}-xxxxxxx` } })));
    expect(retried.map((r) => r.status)).toEqual([201, 201]);
    expect((await fromSchool(base, teacher)).body.teacher.waiting).toBe(0);

    // Closed joins turn a student away; "Let them in" opens them with room for everyone waiting.
    await fromSchool(`${base}/size`, { method: 'PUT', body: { size: STUDENTS + 2 }, ...teacher });
    await fromSchool(`${base}/joins`, { method: 'PUT', body: { open: false }, ...teacher });
    const closed = await Promise.all(['Xu', 'Wil', 'Val'].map((nickname, i) => fromSchool(`${base}/students`, { body: { nickname, attempt: `closed-${i}-xxxx` } })));
    expect(closed.map((c) => c.body.reason)).toEqual(['closed', 'closed', 'closed']);
    board = (await fromSchool(`${base}/board`, teacher)).body;
    expect(board.teacher).toMatchObject({ refused: { full: 37, closed: 3 }, waiting: 3 });
    expect((await fromSchool(`${base}/admit`, { method: 'POST', ...teacher })).body).toEqual({ size: STUDENTS + 5, joinsOpen: true });
    const admitted = await Promise.all(['Xu', 'Wil', 'Val'].map((nickname, i) => fromSchool(`${base}/students`, { body: { nickname, attempt: `closed-${i}-xxxx` } })));
    expect(admitted.map((a) => a.status)).toEqual([201, 201, 201]);

    // A new code: the old one lets nobody new in, and says so; those who joined with it go on.
    const { code: fresh } = (await fromSchool(`${base}/code`, { method: 'POST', ...teacher })).body;
    expect(fresh).not.toBe(code);
    await fromSchool(`${base}/size`, { method: 'PUT', body: { size: STUDENTS + 10 }, ...teacher });
    expect(await fromSchool(`${base}/students`, { body: { nickname: 'Uma' } })).toMatchObject({
      status: 403,
      body: { reason: 'old-code', error: 'This class has a new code, so its old one lets nobody new in: type the code the board shows now' },
    });
    expect((await postResults(base, students[0], studentResults(0), true)).status).toBe(200);
    const freshBase = `${server.url}${path('info', { code: fresh })}`;
    expect((await fromSchool(`${freshBase}/students`, { body: { nickname: 'Uma' } })).status).toBe(201);
    // Nobody but the teacher learns the new code from the old one.
    expect((await fromSchool(base)).body).toMatchObject({ code, students: STUDENTS + 6 });
    expect(JSON.stringify((await fromSchool(`${base}/board`)).body)).not.toContain(fresh);
    expect((await fromSchool(base, teacher)).body.teacher).toMatchObject({ joinCode: fresh, refused: { 'old-code': 1 } });

    for (const s of [projector, ...after]) s.close();
  });

  it('serves the board with an ETag: a page whose copy is current gets a 304, a change gets the new board', async () => {
    const started = await startClass(server);
    const base = `${server.url}${path('info', { code: started.body.code })}`;
    const ana = (await fromSchool(`${base}/students`, { body: { nickname: 'Ana' } })).body;
    const first = await fromSchool(`${base}/board`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await new Promise<number>((resolve, reject) => {
      const get = request(`${base}/board`, { localAddress: SCHOOL, headers: { 'If-None-Match': etag! } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      get.on('error', reject);
      get.end();
    });
    expect(again).toBe(304);
    // Two hundred pages reloading at once read the same board.
    const storm = await Promise.all(Array.from({ length: 200 }, () => fromSchool(`${base}/board`)));
    expect(new Set(storm.map((s) => s.headers.get('etag')))).toEqual(new Set([etag]));
    expect((await postResults(base, ana, studentResults(1))).status).toBe(200);
    const changed = await fromSchool(`${base}/board`);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.entries[0]).toMatchObject({ nickname: 'Ana', silent: false, done: true });
    // The teacher's copy is another board, with its own tag.
    expect((await fromSchool(`${base}/board`, { token: started.body.teacherToken })).headers.get('etag')).not.toBe(changed.headers.get('etag'));
  });
});
