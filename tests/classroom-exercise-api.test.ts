// Exercise attempts on the class server, against a real server process and a real SQLite
// file: a plan names the exercise, a student's attempts come in and show on the board
// (its ETag moves), garbage is refused with one sentence and stores nothing, attempts at
// another exercise or in a class without one are refused, and everything survives
// `kill -9` and a restart, the export included.
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLASS_PLAN } from '../src/core/class/plan.ts';
import { call, join, startClass, startClassServer, tempDirs, type ClassServer } from './fixtures/class-server.ts';
import { path } from '../src/core/class/protocol.ts';

const servers: ClassServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const met = {
  exercise: 2,
  passed: true,
  status: 'met',
  sizes: [
    { size: 1024, draft: { ratio: 1.31, range: [1.25, 1.38] }, reference: 1.35 },
    { size: 65536, draft: { ratio: 1.29, range: [1.2, 1.33] }, reference: 1.33 },
  ],
};
const failedCheck = { exercise: 2, passed: false, status: null, sizes: [] };

function postExercise(base: string, student: { id: string; token: string }, body: unknown, init: { raw?: string; token?: string } = {}) {
  return call(`${base}/students/${student.id}/exercise`, { method: 'POST', body: init.raw === undefined ? body : undefined, raw: init.raw, token: init.token ?? student.token });
}

async function startedWith(server: ClassServer, plan: object) {
  const started = await startClass(server, { plan });
  expect(started.status).toBe(201);
  return { code: started.body.code as string, teacherToken: started.body.teacherToken as string, base: `${server.url}${path('info', { code: started.body.code })}` };
}

describe('exercise attempts in a class', () => {
  it('counts each machine’s attempts, refuses garbage with one sentence and stores nothing of it, and keeps it all through kill -9', async () => {
    const dirs = tempDirs();
    const first = await startClassServer(dirs);
    servers.push(first);
    expect((await startClass(first, { plan: { ...DEFAULT_CLASS_PLAN, exercise: 12 } })).body).toEqual({ error: 'The exercise must be a whole number from 1 to 11, or left out' });
    const { code, teacherToken, base } = await startedWith(first, { ...DEFAULT_CLASS_PLAN, exercise: 2 });
    expect((await call(base)).body.plan.exercise).toBe(2);
    const [ana, ben, chloe] = await Promise.all(['Ana', 'Ben', 'Chloé'].map(async (nickname) => (await join(base, nickname)).body));

    const before = await call(`${base}/board`);
    for (const [body, error] of [
      [{ ...met, code: 'export function compress() {}' }, 'code is not a field of an exercise outcome'],
      [{ ...met, status: 'solved' }, 'status is the text "solved": expected one of "met", "short", "unclear"'],
      [{ ...met, sizes: [{ ...met.sizes[0], reference: -1 }] }, 'sizes[0].reference is -1: a speedup is a number above 0 and at most 1000000'],
      [{ ...met, sizes: [{ ...met.sizes[0], size: 3 }] }, "sizes[0].size is 3: expected one of the bench's sizes in bytes (96, 512, 1024, 32768, 65536, 262144, 1048576)"],
      [{ ...met, exercise: 3 }, 'The class plan names exercise 2, not exercise 3: its board takes only that one'],
      [{ ...met, exercise: 0 }, 'exercise is 0: exercises are numbered 1 to 11'],
    ] as const) {
      expect(await postExercise(base, chloe, body)).toMatchObject({ status: 400, body: { error } });
    }
    expect(await postExercise(base, chloe, null, { raw: '{"exercise": 2,' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^The request body is not valid JSON/) } });
    expect(await postExercise(base, ana, met, { token: ben.token })).toMatchObject({ status: 403 });
    // Each refused post was one of Chloé's attempts (a script flooding garbage spends its own machine's budget): past six, a 429.
    expect(await postExercise(base, chloe, met)).toMatchObject({ status: 429, body: { error: expect.stringMatching(/^Too many exercise attempts from this machine; try again in \d+ s$/) } });
    // Nothing of the refused posts was stored: the board is the same bytes, under the same ETag.
    const unchanged = await call(`${base}/board`, { headers: { 'If-None-Match': before.headers.get('etag')! } });
    expect(unchanged.status).toBe(304);

    const anaFirst = await postExercise(base, ana, failedCheck);
    expect(anaFirst.status).toBe(200);
    expect(anaFirst.body.entry.exercises).toEqual({ '2': { attempts: 1, solved: 0, latest: failedCheck, at: expect.any(Number) } });
    const anaSecond = await postExercise(base, ana, met);
    expect(anaSecond.body.entry.exercises['2']).toMatchObject({ attempts: 2, solved: 1, latest: met });
    expect((await postExercise(base, ben, { ...met, status: 'short' })).status).toBe(200);
    const board = await call(`${base}/board`, { headers: { 'If-None-Match': before.headers.get('etag')! } });
    expect(board.status).toBe(200);
    expect(board.body.entries.map((e: { nickname: string; exercises?: object }) => [e.nickname, e.exercises ? Object.keys(e.exercises) : []])).toEqual([
      ['Ana', ['2']],
      ['Ben', ['2']],
      ['Chloé', []],
    ]);
    // A machine that only did the exercise is not silent to "Remove silent": only Chloé, whose posts were all refused, goes.
    expect((await call(`${base}/students`, { method: 'DELETE', token: teacherToken })).body).toEqual({ removed: 1 });

    await first.stop('SIGKILL');
    const second = await startClassServer(dirs);
    servers.push(second);
    const again = `${second.url}${path('info', { code })}`;
    const kept = await call(`${again}/board`);
    expect(kept.body.entries.map((e: { exercises: object }) => e.exercises)).toEqual([anaSecond.body.entry.exercises, expect.objectContaining({ '2': expect.objectContaining({ attempts: 1, solved: 0 }) })]);
    const csv = await call(`${again}/export.csv`, { token: teacherToken });
    const [header, anaRow] = (csv.body as string).trim().split('\r\n').map((line) => line.split(','));
    expect(header).toContain('exercise 2 latest draft at 64 KiB (x stage 1)');
    expect(anaRow.slice(header.indexOf('exercise 2 attempts'))).toEqual(['2', '1', 'met', '1.31', '1.29']);
    // The student's token still works after the restart, and the count goes on.
    expect((await postExercise(again, ana, met)).body.entry.exercises['2']).toMatchObject({ attempts: 3, solved: 2 });
  });

  it('refuses attempts in a class whose plan names no exercise', async () => {
    const server = await startClassServer(tempDirs());
    servers.push(server);
    const { base } = await startedWith(server, DEFAULT_CLASS_PLAN);
    const student = (await join(base, 'Dana')).body;
    expect(await postExercise(base, student, met)).toMatchObject({ status: 400, body: { error: 'The class plan names no exercise: this class takes no exercise attempts' } });
    expect((await call(`${base}/board`)).body.entries[0].exercises).toBeUndefined();
  });
});
