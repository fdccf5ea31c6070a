// The class server against hostile and careless clients, one rule at a time: only the
// host starts classes, only JSON bodies from the class's own pages, a request without
// the right token costs a student nothing, one device cannot fill a class, the teacher
// can close joins and remove a machine, a class takes no more machines than its teacher
// allows whoever sends them, results must follow the plan, and pages that have not joined
// cannot take the teacher's or a joined machine's live board; guesses follow the same
// rules as results, with limits of their own. The same rules under a full
// class's load are in server/load/ (`npm run load:class`; tests/classroom-load.test.ts runs a short version).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLASS_PLAN } from '../src/core/class/plan.ts';
import { REFUSED_EVENT_MS } from '../server/joins.ts';
import { path } from '../src/core/class/protocol.ts';
import { call, classWithStudents, follow, join, newDevice, postGuess, postResults, startClass, startClassServer, studentResults, tempDirs, type ClassServer } from './fixtures/class-server.ts';

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
    // The teacher's board hears of refusals once a second at most, with the class's count:
    // the last word it heard counts all three. Polled for longer than that second, which a
    // busy machine stretches.
    const refused = () => stream.events.filter((e) => e.event === 'refused').at(-1)?.data;
    await expect.poll(refused, { timeout: REFUSED_EVENT_MS + 5000 }).toEqual({ total: 3 });
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

  it('computes each verdict from samples it checked: a document carrying its own verdicts, or samples that are not finite, is refused', async () => {
    const plan = { contestants: ['07-reuse-buffers', '08-little-endian', '09-simd-wasm', 'blake3-wasm'], sizes: [1024], rounds: 6 };
    const started = await startClass(server, { plan });
    const base = `${server.url}/api/classes/${started.body.code}`;
    const bob = (await join(base, 'Bob')).body;
    const good = studentResults(0, plan.contestants, plan.sizes);
    // A page that claims its own verdict: the document has no such field, and the board takes none from it.
    const claimed = { ...good, verdicts: { steps: [{ id: '08-little-endian', against: '07-reuse-buffers', size: 1024, ratio: 99, range: [98, 100], p: 0, sure: true, n: 30 }], title: [] } };
    expect(await postResults(base, bob, claimed)).toMatchObject({ status: 400, body: { error: /verdicts is not a field of version 1 results/ } });
    for (const [bad, why] of [
      ['1e999', /samples must be finite/],
      ['-5', /samples must be positive/],
      ['"12"', /samples must be numbers of nanoseconds/],
      ['1e13', /not a plausible sample/],
    ] as const) {
      const text = JSON.stringify(good).replace(/"nsPerOp":\[[^\]]*\]/, `"nsPerOp":[${bad},${bad},${bad}]`);
      expect(await postResults(base, bob, text), bad).toMatchObject({ status: 400, body: { error: why } });
    }
    expect((await call(`${base}/board`)).body.entries[0].silent).toBe(true);
    // Every sample the same (ties everywhere) and the widest allowed samples: verdicts stay finite, and cannot tell.
    const ties = studentResults(0, plan.contestants, plan.sizes);
    for (const run of ties.runs) run.nsPerOp = Array(6).fill(run.contestant === 'blake3-wasm' ? 1e12 : 1000);
    const entry = (await postResults(base, bob, ties)).body.entry;
    expect(entry.verdicts.steps).toHaveLength(2);
    expect(entry.verdicts.title).toHaveLength(1);
    for (const v of [...entry.verdicts.steps, ...entry.verdicts.title]) {
      expect([v.ratio, v.p, v.n, ...(v.range ?? [])].every(Number.isFinite), JSON.stringify(v)).toBe(true);
    }
    expect(entry.verdicts.steps.map((v: { ratio: number; sure: boolean }) => [v.ratio, v.sure])).toEqual([[1, false], [1, false]]);
    // A board entry is a few kilobytes whatever the document: the verdicts are one per step and size, not per sample.
    expect(JSON.stringify(entry).length).toBeLessThan(4096);
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

describe('class server, guesses', () => {
  it('checks the student’s token first, takes a whole plan’s guesses at once, then one every 2 s', async () => {
    const { base, students, teacherToken } = await classWithStudents(server, 2);
    const [ana, ben] = students;
    const flood = await Promise.all(Array.from({ length: 100 }, () => postGuess(base, { id: ana.id, token: '' }, { stage: 5, ratio: 2 })));
    expect(new Set(flood.map((r) => r.status))).toEqual(new Set([403]));
    expect((await postGuess(base, { id: ana.id, token: ben.token }, { stage: 5, ratio: 2 })).status).toBe(403);
    expect((await postGuess(base, { id: 'nobody', token: ana.token }, { stage: 5, ratio: 2 })).status).toBe(404);
    const stream = follow(`${base}/events`);
    await stream.opened;
    // Every stage of the default plan, at once: what the class page sends on joining.
    const statuses = [];
    for (let stage = 0; stage < 12; stage++) statuses.push((await postGuess(base, ana, { stage, ratio: stage === 0 ? 0.001 : 1.5 })).status);
    expect(statuses).toEqual(Array(12).fill(200));
    const limited = await postGuess(base, ana, { stage: 5, ratio: 3 });
    expect(limited).toMatchObject({ status: 429, body: { error: expect.stringMatching(/^Too many guesses from this machine; try again in \d+ s$/) } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Guesses never use up a machine's results posts.
    expect((await postResults(base, ana, studentResults(0), false)).status).toBe(200);
    const row = (await call(`${base}/board`)).body.entries.find((e: { id: string }) => e.id === ana.id);
    expect(row.guesses).toEqual({ '0': 0.001, ...Object.fromEntries(Array.from({ length: 11 }, (_, i) => [String(i + 1), 1.5])) });
    // The export has a column per stage guessed, after the figures.
    const csv = (await call(`${base}/export.csv`, { token: teacherToken })).body.trim().split('\r\n');
    expect(csv[0]).toMatch(/,guess for stage 0 \(x Rust WASM\),guess for stage 1 \(x stage 0\),.*,guess for stage 11 \(x stage 10\)$/);
    expect(csv[1]).toMatch(/,0\.001(,1\.5){11}$/);
    // A machine that guessed and posted nothing stays silent on the board, its guesses with it.
    expect((await postGuess(base, ben, { stage: 5, ratio: 2 })).body.entry).toMatchObject({ id: ben.id, silent: true, guesses: { '5': 2 } });
    await expect.poll(() => stream.events.filter((e) => e.event === 'entry').length).toBe(14);
    expect(stream.events.at(-1)).toMatchObject({ event: 'entry', data: { id: ben.id, guesses: { '5': 2 } } });
    stream.stop();
  });

  it('refuses every malformed guess with one sentence, a body past the small limit unread, and stores only what passed', async () => {
    const { base, students } = await classWithStudents(server, 1);
    const [ana] = students;
    expect(await postGuess(base, ana, null, { raw: 'stage=5&ratio=2', type: 'application/x-www-form-urlencoded' })).toMatchObject({ status: 415 });
    expect(await postGuess(base, ana, null, { raw: '{"stage": 5' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^The request body is not valid JSON/) } });
    expect(await postGuess(base, ana, null, { raw: '[5, 2]' })).toMatchObject({ status: 400, body: { error: 'The request body must be a JSON object' } });
    for (const [body, error] of [
      [{ stage: 5, ratio: 2.5 }, /^A guess for stage 5 is one of the ratios/],
      [{ stage: 12, ratio: 2 }, 'A guess names a stage from 0 to 11'],
      [{ stage: '5', ratio: 2 }, 'A guess names a stage from 0 to 11'],
      [{ stage: 5 }, /^A guess for stage 5 is one of/],
      [{ stage: 5, ratio: 2, note: '<script>' }, 'A guess has a field "note" that guesses do not have'],
      [{ stage: 0, ratio: 2 }, /^A guess for stage 0 is one of the ratios 0\.0001 \(10,000x slower\)/],
    ] as const) {
      const answer = await postGuess(base, ana, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatch(error);
    }
    const padded = JSON.stringify({ stage: 5, ratio: 2 }).replace('{', `{${' '.repeat(17 * 1024)}`);
    expect((await postGuess(base, ana, null, { raw: padded })).status).toBe(413);
    expect((await call(`${base}/board`)).body.entries[0].guesses).toBeUndefined();
    expect((await postGuess(base, ana, { stage: 5, ratio: 2 })).status).toBe(200);
    expect((await postGuess(base, ana, { stage: 5, ratio: 0.8 })).body.entry.guesses).toEqual({ '5': 0.8 });
  });

  it('takes guesses only for steps the class plan measures, only while the class is open, and hides a hidden machine’s', async () => {
    const plan = { contestants: ['04-state-locals', '05-no-copies', '08-little-endian'], sizes: [1024], rounds: 3 };
    const started = await startClass(server, { plan });
    const base = `${server.url}${path('info', { code: started.body.code })}`;
    const ana = (await join(base, 'Ana')).body;
    expect((await postGuess(base, ana, { stage: 5, ratio: 2 })).status).toBe(200);
    expect(await postGuess(base, ana, { stage: 8, ratio: 2 })).toMatchObject({ status: 400, body: { error: 'The class plan does not measure stage 8 against stage 7: reload the class page and guess again' } });
    expect(await postGuess(base, ana, { stage: 0, ratio: 0.001 })).toMatchObject({ status: 400, body: { error: /does not measure stage 0 against Rust WASM/ } });
    // A hidden machine's guess reaches the streams as its id only.
    const stream = follow(`${base}/events`);
    await stream.opened;
    await call(`${base}/students/${ana.id}/hidden`, { method: 'PUT', body: { hidden: true }, token: started.body.teacherToken });
    expect((await postGuess(base, ana, { stage: 5, ratio: 3 })).status).toBe(200);
    await expect.poll(() => stream.events).toEqual([{ event: 'hide', data: { id: ana.id } }, { event: 'hide', data: { id: ana.id } }]);
    stream.stop();
    expect((await call(`${base}/close`, { method: 'POST', token: started.body.teacherToken })).status).toBe(200);
    expect(await postGuess(base, ana, { stage: 5, ratio: 2 })).toMatchObject({ status: 410, body: { error: /closed this class/ } });
  });
});
