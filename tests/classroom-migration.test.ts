// A class database made by an older class server (tests/fixtures/classroom-v2.sqlite, from
// schema version 2, when a class was called a "session" in its tables) opens in this one:
// every class, machine, token, result, hidden flag and closed state is still there.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { path } from '../src/core/class/protocol.ts';
import { SCHEMA_VERSION } from '../server/store.ts';
import { call, postGuess, postResults, startClassServer, studentResults, tempDirs, type ClassServer } from './fixtures/class-server.ts';

const FIXTURE = new URL('./fixtures/classroom-v2.sqlite', import.meta.url).pathname;
const made = JSON.parse(readFileSync(new URL('./fixtures/classroom-v2.json', import.meta.url), 'utf8'));

const servers: ClassServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

/** The fixture copied into a fresh data folder, its classes' ends moved to an hour from now (as if class were still on). */
function oldDatabase(): { data: string; dist: string; file: string } {
  const dirs = tempDirs();
  mkdirSync(dirs.data, { recursive: true });
  const file = `${dirs.data}/classroom.sqlite`;
  copyFileSync(FIXTURE, file);
  const db = new Database(file);
  expect(db.pragma('user_version', { simple: true })).toBe(2);
  db.prepare('UPDATE sessions SET expires_at = ?').run(Date.now() + 3600_000);
  db.close();
  return { ...dirs, file };
}

describe('a class database from schema version 2', () => {
  it('is migrated in place: tables named for classes, every class, machine and token kept', async () => {
    const { file, ...dirs } = oldDatabase();
    const server = await startClassServer(dirs);
    servers.push(server);
    const a = `${server.url}${path('info', { code: made.a.code })}`;

    const info = await call(a);
    // A class from before class sizes keeps the server's old limit, so nobody is refused after the upgrade.
    expect(info.body).toMatchObject({ code: made.a.code, state: 'open', joinsOpen: false, students: 2, size: 500 });
    const [finished, hidden] = made.a.students;
    // The public board leaves out the hidden machine; the teacher's token still shows it.
    const stored = (await call(`${a}/board`)).body.entries;
    expect(stored.map((e: { id: string }) => e.id)).toEqual([finished.id]);
    // Stored before the board kept verdicts: its medians only, which the board says (tests/class-verdicts.test.ts).
    expect(Object.keys(stored[0].throughput).length).toBeGreaterThan(0);
    expect(stored[0].verdicts).toBeUndefined();
    const teacherBoard = (await call(`${a}/board`, { token: made.a.teacherToken })).body.entries;
    expect(teacherBoard.map((e: { id: string; hidden: boolean; done: boolean }) => [e.id, e.hidden, e.done])).toEqual([
      [finished.id, false, true],
      [hidden.id, true, false],
    ]);
    // Both kinds of token still work: a student posts again, the teacher opens joins.
    const posted = await postResults(a, finished, studentResults(3));
    expect(posted.status).toBe(200);
    expect(posted.body.entry.verdicts.steps.length).toBeGreaterThan(0);
    expect((await postResults(a, { ...finished, token: hidden.token }, studentResults(3))).status).toBe(403);
    expect((await call(`${a}/joins`, { method: 'PUT', body: { open: true }, token: made.a.teacherToken })).body).toEqual({ joinsOpen: true });
    expect((await call(`${server.url}${path('info', { code: made.b.code })}`)).body).toMatchObject({ state: 'closed', students: 1 });
    // Machines from before guesses can guess: kept on the board and in the file.
    expect((await postGuess(a, finished, { stage: 5, ratio: 2 })).body.entry).toMatchObject({ id: finished.id, done: true, guesses: { '5': 2 } });
    await server.stop();

    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).not.toContain('sessions');
    expect(tables).toContain('classes');
    const schema = db.prepare("SELECT group_concat(sql, ';') FROM sqlite_master").pluck().get() as string;
    expect(schema).not.toMatch(/session/i);
    expect(db.prepare('SELECT guesses FROM students WHERE id = ?').pluck().get(finished.id)).toBe('{"5":2}');
    // Deleting a class still takes its machines with it: the foreign key follows the rename.
    expect(db.pragma('foreign_key_list(students)')).toMatchObject([{ table: 'classes', from: 'class_id', on_delete: 'CASCADE' }]);
    db.close();
  });
});
