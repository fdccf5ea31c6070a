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
    for (const [i, student] of students.entries()) {
      const posted = await postResults(`${first.url}/api/classes/${code}`, student, studentResults(i), i < 2);
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
    // The tokens still work: the teacher exports, a student posts a rerun.
    expect((await call(`${base}/export.csv`, { token: teacherToken })).status).toBe(200);
    expect((await postResults(base, students[2], studentResults(5))).status).toBe(200);
    expect((await call(`${base}/board`)).body.entries[2].done).toBe(true);
  });
});
