// The class server against hostile and careless clients, one rule at a time: only the
// host starts classes, only JSON bodies from the class's own pages, a request without
// the right token costs a student nothing, one device cannot fill a class, the teacher
// can close joins and remove a machine, results must follow the plan, and one device
// cannot hold every board stream. The same rules under a full class's load are in
// server/load/main.ts, `npm run load:class` (tests/classroom-load.test.ts runs a short version of it).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLASS_PLAN } from '../src/core/class/plan.ts';
import { call, classWithStudents, follow, join, newDevice, postResults, startClass, startClassServer, studentResults, tempDirs, type ClassServer } from './fixtures/class-server.ts';

let server: ClassServer;
beforeAll(async () => {
  server = await startClassServer(tempDirs());
});
afterAll(async () => {
  await server?.stop();
});

/** Opens an event stream from `from` and resolves with its status once the answer's head arrives; `close` ends it. */
function openStream(url: string, from: string): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const get = request(url, { localAddress: from, agent: false }, (response) => {
      resolve({ status: response.statusCode ?? 0, close: () => get.destroy() });
      response.resume();
    });
    get.on('error', reject);
    get.end();
  });
}

describe('class server, hostile clients', () => {
  it('starts a class only with the host’s key, and no number of refused starts blocks the host', async () => {
    const refused = await Promise.all(Array.from({ length: 60 }, (_, i) => call(`${server.url}/api/class/sessions`, { body: {}, token: i % 2 ? 'wrong' : undefined })));
    expect(new Set(refused.map((r) => r.status))).toEqual(new Set([403]));
    expect(refused[0].body.error).toMatch(/teacher’s link/);
    expect((await startClass(server)).status).toBe(201);
  });

  it('takes JSON only, from the class’s own pages, and says when the JSON is broken', async () => {
    const { base } = await classWithStudents(server, 0);
    const plain = await call(`${base}/students`, { raw: JSON.stringify({ nickname: 'Ana' }), type: 'text/plain', from: newDevice() });
    expect(plain).toMatchObject({ status: 415, body: { error: 'The class API takes JSON bodies only (Content-Type: application/json)' } });
    expect((await call(`${base}/students`, { raw: 'nickname=Ana', type: 'application/x-www-form-urlencoded', from: newDevice() })).status).toBe(415);
    const broken = await call(`${base}/students`, { raw: '{"nickname": "Ana"', from: newDevice() });
    expect(broken).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^The request body is not valid JSON/) } });
    const crossSite = await fetch(`${base}/students`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' }, body: '{"nickname":"Ana"}' });
    expect(crossSite.status).toBe(403);
    expect((await join(base, 'Ana')).status).toBe(201);
  });

  it('checks the student’s token before any limit: a token-less flood costs the student nothing', async () => {
    const { base, students } = await classWithStudents(server, 1);
    const [ana] = students;
    const flood = await Promise.all(Array.from({ length: 100 }, () => postResults(base, { id: ana.id, token: '' }, studentResults(0), false)));
    expect(new Set(flood.map((r) => r.status))).toEqual(new Set([403]));
    const real = [];
    for (let i = 0; i < 6; i++) real.push((await postResults(base, ana, studentResults(i), false)).status);
    expect(real).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await join(base, 'Ben')).status).toBe(201);
  });

  it('lets one device add at most 12 machines; the teacher closes joins and removes a machine', async () => {
    const { base, teacherToken } = await classWithStudents(server, 0);
    const device = newDevice();
    const statuses = [];
    for (let i = 0; i < 14; i++) statuses.push((await call(`${base}/students`, { body: { nickname: `bot ${i}` }, from: device })).status);
    expect(statuses).toEqual([...Array(12).fill(201), 403, 403]);

    const stream = follow(`${base}/events`);
    await stream.opened;
    expect((await call(`${base}/joins`, { method: 'PUT', body: { open: false } })).status).toBe(403);
    expect((await call(`${base}/joins`, { method: 'PUT', body: { open: false }, token: teacherToken })).body).toEqual({ joinsOpen: false });
    expect(await join(base, 'late')).toMatchObject({ status: 403, body: { error: 'The teacher has closed this class to new machines' } });
    expect((await call(base)).body).toMatchObject({ joinsOpen: false, students: 12 });
    await call(`${base}/joins`, { method: 'PUT', body: { open: true }, token: teacherToken });
    const ana = (await join(base, 'Ana')).body;
    expect((await postResults(base, ana, studentResults(1))).status).toBe(200);

    expect((await call(`${base}/students/${ana.id}`, { method: 'DELETE', token: ana.token })).status).toBe(403);
    expect((await call(`${base}/students/${ana.id}`, { method: 'DELETE', token: teacherToken })).status).toBe(200);
    expect(await postResults(base, ana, studentResults(2))).toMatchObject({ status: 404, body: { error: /no longer in the class/ } });
    expect((await call(`${base}/board`, { token: teacherToken })).body.entries).toEqual([]);
    expect((await call(base)).body.students).toBe(12);
    await expect.poll(() => stream.events.map((e) => e.event)).toEqual(['joins', 'joins', 'entry', 'remove']);
    stream.stop();
  });

  it('takes only results that follow the class plan, within a small size', async () => {
    const { base, students } = await classWithStudents(server, 1);
    const [ana] = students;
    const plan = { contestants: ['08-little-endian', 'blake3-wasm'], sizes: [1024], rounds: 3 };
    const started = await startClass(server, { plan });
    const other = `${server.url}/api/class/sessions/${started.body.code}`;
    const bob = (await join(other, 'Bob')).body;
    expect(await postResults(other, bob, studentResults(0))).toMatchObject({ status: 400, body: { error: /“01-read-words-full”, which the class plan does not/ } });
    const fits = studentResults(0, plan.contestants, plan.sizes);
    expect((await postResults(other, bob, fits)).status).toBe(200);
    const tooLong = studentResults(0, plan.contestants, plan.sizes);
    tooLong.runs[0].nsPerOp.push(...tooLong.runs[0].nsPerOp);
    expect(await postResults(other, bob, tooLong)).toMatchObject({ status: 400, body: { error: /more samples than the class plan's 3 rounds/ } });
    // A document past the class's size cap is refused before it is read.
    const huge = studentResults(0, DEFAULT_CLASS_PLAN.contestants, DEFAULT_CLASS_PLAN.sizes);
    huge.env.userAgent = huge.env.userAgent.padEnd(500, ' ');
    const padded = JSON.stringify(huge).replace('{', `{${' '.repeat(600 * 1024)}`);
    expect((await postResults(base, ana, padded)).status).toBe(413);
  });

  it('lets one device follow at most 8 boards, and another device still follows the class', async () => {
    const { base } = await classWithStudents(server, 0);
    const device = newDevice();
    const streams = [];
    for (let i = 0; i < 9; i++) streams.push(await openStream(`${base}/events`, device));
    expect(streams.map((s) => s.status)).toEqual([...Array(8).fill(200), 503]);
    const other = await openStream(`${base}/events`, newDevice());
    expect(other.status).toBe(200);
    for (const stream of [...streams, other]) stream.close();
    // Closed streams are forgotten: the device may follow again.
    await expect.poll(async () => {
      const again = await openStream(`${base}/events`, device);
      again.close();
      return again.status;
    }).toBe(200);
  });
});
