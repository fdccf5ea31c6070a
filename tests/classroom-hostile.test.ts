// The class server against hostile and careless clients, one rule at a time: only the
// host starts classes, only JSON bodies from the class's own pages, a request without
// the right token costs a student nothing, one device cannot fill a class, the teacher
// can close joins and remove a machine, a class takes no more machines than its teacher
// allows whoever sends them, results must follow the plan, and pages that have not joined
// cannot take the teacher's or a joined machine's live board. The same rules under a full
// class's load are in server/load/ (`npm run load:class`; tests/classroom-load.test.ts runs a short version).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLASS_PLAN } from '../src/core/class/plan.ts';
import { path } from '../src/core/class/protocol.ts';
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
    const refused = await Promise.all(Array.from({ length: 60 }, (_, i) => call(`${server.url}/api/classes`, { body: {}, token: i % 2 ? 'wrong' : undefined })));
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

  it('takes as many machines as the teacher allows, from any one device; the teacher closes joins, and removing a machine gives its place back', async () => {
    const started = await startClass(server, { size: 5 });
    expect(started.body).toMatchObject({ size: 5, ticket: expect.stringMatching(/^teacher\./) });
    const base = `${server.url}${path('info', { code: started.body.code })}`;
    const teacherToken = started.body.teacherToken;
    const device = newDevice();
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await call(`${base}/students`, { body: { nickname: `bot ${i}` }, from: device }));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 409, 409]);
    // What a refused student reads is about the class, never a claim about their device.
    expect(answers[5].body).toEqual({ error: 'This class is full: it takes 5 machines. Ask your teacher to let you in; this page joins by itself when they do', reason: 'full' });

    const stream = follow(`${base}/events`);
    await stream.opened;
    expect((await call(`${base}/joins`, { method: 'PUT', body: { open: false } })).status).toBe(403);
    expect((await call(`${base}/joins`, { method: 'PUT', body: { open: false }, token: teacherToken })).body).toEqual({ joinsOpen: false });
    expect(await join(base, 'late')).toMatchObject({ status: 403, body: { reason: 'closed', error: 'The teacher has closed joins for now. This page joins by itself as soon as they open them again' } });
    expect((await call(base)).body).toMatchObject({ joinsOpen: false, students: 5, size: 5 });
    // Only the teacher's copy says who was turned away, and why.
    expect((await call(base)).body.teacher).toBeUndefined();
    expect((await call(base, { token: teacherToken })).body.teacher).toMatchObject({ joinCode: started.body.code, refused: { full: 2, closed: 1, 'old-code': 0, pace: 0, name: 0 } });
    await call(`${base}/joins`, { method: 'PUT', body: { open: true }, token: teacherToken });

    const [gone] = answers;
    expect((await call(`${base}/students/${gone.body.id}`, { method: 'DELETE', token: gone.body.token })).status).toBe(403);
    expect((await call(`${base}/students/${gone.body.id}`, { method: 'DELETE', token: teacherToken })).status).toBe(200);
    expect(await postResults(base, gone.body, studentResults(2))).toMatchObject({ status: 404, body: { error: /no longer in the class/ } });
    // Its place is free again, for the same device.
    const again = await call(`${base}/students`, { body: { nickname: 'Ana' }, from: device });
    expect(again.status).toBe(201);
    expect((await postResults(base, again.body, studentResults(1))).status).toBe(200);
    expect((await call(base)).body.students).toBe(5);
    const changes = () => stream.events.filter((e) => e.event !== 'refused');
    await expect.poll(() => changes().map((e) => e.event)).toEqual(['joins', 'joins', 'remove', 'join', 'entry']);
    expect(changes()[2].data).toEqual({ ids: [gone.body.id], students: 4 });
    // The teacher's board hears of refusals once a second at most, with the class's count.
    await expect.poll(() => stream.events.find((e) => e.event === 'refused')?.data).toEqual({ total: 3 });
    stream.stop();
  });

  it('takes only results that follow the class plan, within a small size', async () => {
    const { base, students } = await classWithStudents(server, 1);
    const [ana] = students;
    const plan = { contestants: ['08-little-endian', 'blake3-wasm'], sizes: [1024], rounds: 3 };
    const started = await startClass(server, { plan });
    const other = `${server.url}/api/classes/${started.body.code}`;
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

  it('keeps live places for the teacher and for each joined machine, whatever pages that have not joined hold', async () => {
    const started = await startClass(server, { size: 3 });
    const base = `${server.url}${path('info', { code: started.body.code })}`;
    const ana = (await join(base, 'Ana')).body;
    const device = newDevice();
    // Pages that have not joined share 2 x 3 + 20 places; one device may hold them all.
    const anonymous = [];
    for (let i = 0; i < 27; i++) anonymous.push(await openStream(`${base}/events`, device));
    expect(anonymous.map((s) => s.status)).toEqual([...Array(26).fill(200), 503]);
    // The teacher's projector and a joined machine still follow, from the same device too.
    const projector = await openStream(`${base}/events?ticket=${encodeURIComponent(started.body.ticket)}`, device);
    const student = await openStream(`${base}/events?ticket=${encodeURIComponent(ana.ticket)}`, device);
    expect([projector.status, student.status]).toEqual([200, 200]);
    // A ticket that does not match is no ticket: it queues with the others.
    const forged = await openStream(`${base}/events?ticket=${ana.id}.${'A'.repeat(22)}`, newDevice());
    expect(forged.status).toBe(503);
    // Each joined machine has four places, the teacher eight.
    const more = [];
    for (let i = 0; i < 4; i++) more.push(await openStream(`${base}/events?ticket=${encodeURIComponent(ana.ticket)}`, newDevice()));
    expect(more.map((s) => s.status)).toEqual([200, 200, 200, 503]);
    for (const stream of [...anonymous, projector, student, forged, ...more]) stream.close();
    // Closed streams are forgotten: the device may follow again.
    await expect.poll(async () => {
      const again = await openStream(`${base}/events`, device);
      again.close();
      return again.status;
    }).toBe(200);
  });
});
