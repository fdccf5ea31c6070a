// What the server acknowledged survives `kill -9`: results posted, the class, the
// teacher's and the students' tokens all work again after a restart on the same data.
import { afterAll, describe, expect, it } from 'vitest';
import { call, classWithStudents, postResults, startClassServer, studentResults, tempDirs, type ClassServer } from './fixtures/class-server.ts';

const servers: ClassServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe('class server killed and restarted', () => {
  it('keeps every acknowledged result and every token after kill -9', async () => {
    const dirs = tempDirs();
    const first = await startClassServer(dirs);
    servers.push(first);
    const { code, teacherToken, students } = await classWithStudents(first, 3);
    const acknowledged = [];
    const keyed = (student: { id: string; token: string }, base: string) =>
      call(`${base}/students/${student.id}/results?done=1`, { method: 'PUT', raw: JSON.stringify(studentResults(9)), token: student.token, headers: { 'Idempotency-Key': 'kept-through-a-restart-0' } });
    for (const [i, student] of students.entries()) {
      const posted = i === 0 ? await keyed(student, `${first.url}/api/classes/${code}`) : await postResults(`${first.url}/api/classes/${code}`, student, studentResults(i), i < 2);
      expect(posted.status).toBe(200);
      acknowledged.push(posted.body.entry);
    }
    await first.stop('SIGKILL');
    expect(first.process.signalCode).toBe('SIGKILL');

    const second = await startClassServer(dirs);
    servers.push(second);
    const base = `${second.url}/api/classes/${code}`;
    const board = await call(`${base}/board`);
    expect(board.body).toMatchObject({ code, state: 'open', students: 3 });
    expect(board.body.entries).toEqual(acknowledged);
    // A page that lost the answer before the kill sends its post again: it is not stored twice.
    expect((await keyed(students[0], base)).body.entry).toEqual(acknowledged[0]);
    // The tokens still work: the teacher exports, a student posts a rerun.
    expect((await call(`${base}/export.csv`, { token: teacherToken })).status).toBe(200);
    expect((await postResults(base, students[2], studentResults(5))).status).toBe(200);
    expect((await call(`${base}/board`)).body.entries[2].done).toBe(true);
  });
});
