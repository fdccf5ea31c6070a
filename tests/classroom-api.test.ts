// The class server's API against a real server process and a real SQLite file: who may
// do what, what hostile input gets back, rate limits, ended and closed classes, and that
// a class's event stream carries nothing of another class.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESULTS_BYTES } from '../src/core/results/io/limits.ts';
import { securityHeaders } from '../src/core/site/security-headers.ts';
import { DEFAULT_CLASS_PLAN } from '../src/core/class/plan.ts';
import { validateResults } from '../src/core/results/io/validate.ts';
import { BAD_TEXT } from './fixtures/bad-inputs.ts';
import { call, classWithStudents, follow, join, newDevice, postResults, startClass, startClassServer, studentResults, tempDirs, type ClassServer } from './fixtures/class-server.ts';
import { path } from '../src/core/class/protocol.ts';

const PRINTABLE = 'A nickname holds printable characters only (no invisible or direction-changing ones)';
import { unzip } from './fixtures/unzip.ts';

/** The status of a PUT that announces a body of `bytes` and sends none of it: a server that checks sizes first answers at once. */
function announcedSize(url: string, token: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const put = request(url, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'Content-Length': bytes, Authorization: `Bearer ${token}` } });
    put.on('response', (response) => {
      resolve(response.statusCode ?? 0);
      put.destroy();
    });
    put.on('error', reject);
    put.flushHeaders();
  });
}

let server: ClassServer;
beforeAll(async () => {
  server = await startClassServer(tempDirs());
});
afterAll(async () => {
  await server?.stop();
});

describe('class server', () => {
  it('answers the app probe, and sends the app’s security headers with the API, the app and the event stream', async () => {
    const probe = await call(`${server.url}/api/class`);
    expect(probe.body).toEqual({ app: 'blake3-lab-class', version: 3, joinOrigin: server.url });
    const { code } = await classWithStudents(server, 0);
    const page = await fetch(`${server.url}/`);
    expect(await page.text()).toContain('<title>BLAKE3 Lab</title>');
    const stream = follow(`${server.url}/api/classes/${code}/events`);
    const events = await stream.opened;
    stream.stop();
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    for (const headers of [probe.headers, page.headers, events.headers]) {
      for (const [name, value] of Object.entries(securityHeaders)) expect(headers.get(name), name).toBe(value);
    }
  });

  it('starts a class with the default plan, refuses a bad plan, and lets students join with a nickname only', async () => {
    const bad = await startClass(server, { plan: { contestants: ['fault-hangs'], sizes: [1024], rounds: 3 } });
    expect(bad).toMatchObject({ status: 400, body: { error: '"fault-hangs" is not a stage or library of this lab' } });
    const { code, base } = await classWithStudents(server, 0);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    const info = await call(base);
    expect(info.body).toMatchObject({ code, state: 'open', students: 0, plan: { sizes: [1024, 65536], rounds: 10 } });
    expect(info.body.plan.contestants).toEqual(DEFAULT_CLASS_PLAN.contestants);
    for (const [nickname, error] of [
      ['', 'Choose a nickname'],
      ['  ', 'Choose a nickname'],
      [42, 'Choose a nickname'],
      ['x'.repeat(41), 'A nickname has at most 40 characters'],
      ['é'.repeat(41), 'A nickname has at most 40 characters'],
      ['ab\u0007c', PRINTABLE],
      ['evil\u202egnp.exe', PRINTABLE],
      ['An\u200Ba', PRINTABLE],
      ['\u3164', PRINTABLE],
      ['Ana\u2066x', PRINTABLE],
      ['\u{F0000}', PRINTABLE],
      ['\u2800\u2800', 'A nickname needs at least one letter, digit or symbol you can see'],
      ['Ze\u0301\u0301\u0301\u0301\u0301', 'A nickname has at most 3 accents on one letter'],
      // One "character" as a reader counts it, of any length: 530 joined emoji, 600 Hangul jamo.
      [`${'\u{1F469}\u200D'.repeat(529)}\u{1F469}`, 'A nickname has at most 40 characters, and this is far longer'],
      ['\u1100'.repeat(300) + '\u1161'.repeat(300), 'A nickname cannot join that many symbols into one character'],
      ['\u1100'.repeat(15) + '\u1161'.repeat(15), 'A nickname cannot join that many symbols into one character'],
    ] as const) {
      expect(await join(base, nickname as string), String(nickname)).toMatchObject({ status: 400, body: { error } });
    }
    const joined = await join(base, '  <b>Zoé</b>   the  great ');
    expect(joined.status).toBe(201);
    expect(joined.body.nickname).toBe('<b>Zoé</b> the great');
    // Counted as a reader counts: 40 emoji of two code points each, and 40 accented letters, fit.
    expect((await join(base, '👩‍💻'.repeat(40))).status).toBe(201);
    expect((await join(base, 'e\u0301'.repeat(40))).body.nickname).toBe('é'.repeat(40));
    // NFKC: full-width letters are plain ones; a nickname is one per class, whatever its case,
    // accents, spaces or lookalike letters from other scripts.
    expect((await join(base, 'Ｊｏ')).body.nickname).toBe('Jo');
    for (const twin of ['jo', 'JO ', 'Jó', 'Јо', 'J o']) {
      expect(await join(base, twin), twin).toMatchObject({ status: 409, body: { error: expect.stringMatching(/already has a nickname like/) } });
    }
    expect((await join(base, 'Joe')).status).toBe(201);
    expect((await call(`${server.url}/api/classes/ZZZZZZ`)).status).toBe(404);
    expect((await call(`${server.url}/api/classes/abc%2F..`)).status).toBe(404);
  });

  it('refuses every hostile results document with the message an import shows, and stores only what passed', async () => {
    const cases = BAD_TEXT.filter((c) => c.text.length < 1_000_000);
    const { base, students } = await classWithStudents(server, Math.ceil(cases.length / 5) + 1);
    for (const [i, c] of cases.entries()) {
      const answer = await postResults(base, students[Math.floor(i / 5)], c.text);
      expect(answer.status, c.name).toBe(400);
      if (typeof c.error === 'string') expect(answer.body.error, c.name).toBe(c.error);
      else expect(answer.body.error, c.name).toMatch(c.error);
    }
    const last = students[students.length - 1];
    expect(await announcedSize(`${base}/students/${last.id}/results`, last.token, MAX_RESULTS_BYTES + 1)).toBe(413);
    // Every machine is on the board from its join, silent until a post passes.
    const before = (await call(`${base}/board`)).body.entries;
    expect(before.map((e: { silent: boolean }) => e.silent)).toEqual(students.map(() => true));
    const ok = await postResults(base, last, studentResults(0));
    expect(ok.status).toBe(200);
    expect(ok.body.entry).toMatchObject({ nickname: expect.any(String), engine: 'V8', os: 'Linux x86_64', done: true, hidden: false, silent: false, isolated: true });
    expect(ok.body.entry.throughput['01-read-words-full']['1024']).toBeCloseTo(50, 6);
    expect((await call(`${base}/board`)).body.entries.filter((e: { silent: boolean }) => !e.silent)).toHaveLength(1);
  });

  it('takes one browser’s run per machine: a document measured in two browsers is refused', async () => {
    const { base, students } = await classWithStudents(server, 1);
    const check = validateResults(studentResults(0));
    if (!check.ok) throw new Error(check.error);
    const one = check.results;
    const firefox = { ...one.runtimes![0], id: 'firefox', name: 'Firefox' };
    const two = { ...one, runtimes: [...one.runtimes!, firefox], runs: [...one.runs, ...one.runs.map((run) => ({ ...run, runtime: 'firefox' }))] };
    expect(validateResults(two).ok).toBe(true);
    expect(await postResults(base, students[0], two)).toMatchObject({ status: 400, body: { error: 'A class takes one browser’s run per machine; these results were measured in 2 browsers' } });
    expect((await postResults(base, students[0], one)).status).toBe(200);
  });

  it('marks a run its student cancelled as stopped, on the board and in the export', async () => {
    const { base, teacherToken, students } = await classWithStudents(server, 1);
    const cancelled = studentResults(0);
    cancelled.runs[5] = { ...cancelled.runs[5], status: 'cancelled', reason: 'cancelled after 1 of 3 samples', nsPerOp: cancelled.runs[5].nsPerOp.slice(0, 1) };
    const partial = await postResults(base, students[0], cancelled, false);
    expect(partial.body.entry).toMatchObject({ done: false, stopped: false });
    const last = await postResults(base, students[0], cancelled, true);
    expect(last.body.entry).toMatchObject({ done: true, stopped: true });
    expect((await call(`${base}/board`)).body.entries[0]).toMatchObject({ stopped: true });
    const csv = (await call(`${base}/export.csv`, { token: teacherToken })).body.trim().split('\r\n');
    // The "finished" column: a stopped run did not finish.
    expect(csv[1].split(',')[5]).toBe('false');
  });

  it('lets a student post only their own results, with their own token', async () => {
    const { base, students } = await classWithStudents(server, 2);
    const [ana, ben] = students;
    expect((await postResults(base, { id: ana.id, token: ben.token }, studentResults(1))).status).toBe(403);
    expect((await postResults(base, { id: ana.id, token: '' }, studentResults(1))).status).toBe(403);
    expect((await postResults(base, { id: 'nobody', token: ana.token }, studentResults(1))).status).toBe(404);
    const other = await classWithStudents(server, 0);
    expect((await postResults(other.base, ana, studentResults(1))).status).toBe(404);
    expect((await postResults(base, ana, studentResults(1))).status).toBe(200);
  });

  it('keeps the plan, hiding, closing and exporting for the teacher’s token alone', async () => {
    const { base, teacherToken, students } = await classWithStudents(server, 2);
    await postResults(base, students[0], studentResults(1));
    await postResults(base, students[1], studentResults(2));
    const plan = { contestants: ['blake3-wasm', '08-little-endian'], sizes: [65536], rounds: 2 };
    const wrong = [undefined, 'x', teacherToken.slice(0, -1) + (teacherToken.endsWith('A') ? 'B' : 'A'), students[0].token];
    for (const token of wrong) {
      expect((await call(`${base}/plan`, { method: 'PUT', body: { plan }, token })).status).toBe(403);
      expect((await call(`${base}/students/${students[0].id}/hidden`, { method: 'PUT', body: { hidden: true }, token })).status).toBe(403);
      expect((await call(`${base}/export.csv`, { token })).status).toBe(403);
      expect((await call(`${base}/export.zip`, { token })).status).toBe(403);
      expect((await call(`${base}/close`, { method: 'POST', token })).status).toBe(403);
    }
    const changed = await call(`${base}/plan`, { method: 'PUT', body: { plan }, token: teacherToken });
    // Stored in the registry's order, whatever order it came in.
    expect(changed.body.plan).toEqual({ contestants: ['08-little-endian', 'blake3-wasm'], sizes: [65536], rounds: 2 });

    const hid = await call(`${base}/students/${students[0].id}/hidden`, { method: 'PUT', body: { hidden: true }, token: teacherToken });
    expect(hid.status).toBe(200);
    expect((await call(`${base}/board`)).body.entries.map((e: { id: string }) => e.id)).toEqual([students[1].id]);
    const teacherBoard = (await call(`${base}/board`, { token: teacherToken })).body.entries;
    // Two students who posted in the same millisecond may come in either order: match by id.
    const hiddenById = Object.fromEntries(teacherBoard.map((e: { id: string; hidden: boolean }) => [e.id, e.hidden]));
    expect(hiddenById).toEqual({ [students[0].id]: true, [students[1].id]: false });

    const csv = await call(`${base}/export.csv`, { token: teacherToken });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('nickname,browser,engine,os,cores,finished,hidden,updated,8. Little-endian fast path at 64 KiB (MB/s),Rust → WASM (blake3-wasm) at 64 KiB (MB/s)');
    expect(lines[1]).toMatch(/^student 1,Chromium 156\.0\.8078\.73,V8,Linux x86_64,2,true,true,\d{4}-.*Z,,\d+(\.\d+)?$/);

    const zipped = await fetch(`${base}/export.zip`, { headers: { Authorization: `Bearer ${teacherToken}` } });
    const files = unzip(Buffer.from(await zipped.arrayBuffer()));
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^class-\w{6}\.csv$/), expect.stringMatching(/^001-blake3-lab-student-1-/), expect.stringMatching(/^002-blake3-lab-student-2-/)]);
    for (const file of files.slice(1)) {
      const check = validateResults(JSON.parse(file.data.toString('utf8')));
      expect(check.ok).toBe(true);
      if (check.ok) expect(check.results.env.label).toMatch(/^student \d$/);
    }

    expect((await call(`${base}/close`, { method: 'POST', token: teacherToken })).body).toEqual({ state: 'closed' });
    expect(await postResults(base, students[1], studentResults(3))).toMatchObject({ status: 410, body: { error: /closed this class/ } });
    expect((await join(base, 'late')).status).toBe(410);
    expect((await call(`${base}/board`)).body).toMatchObject({ state: 'closed', students: 2 });
  });

  it('CSV cells that start like a spreadsheet formula are written as text', async () => {
    const { base, teacherToken } = await classWithStudents(server, 0);
    const joined = await join(base, '=HYPERLINK("x","y")');
    await postResults(base, joined.body, studentResults(1));
    const csv = await call(`${base}/export.csv`, { token: teacherToken });
    expect(csv.body.split('\r\n')[1]).toMatch(/^"'=HYPERLINK\(""x"",""y""\)",/);
  });

  it('rate-limits one student’s posts and answers 429 with Retry-After; partial posts never use up the finished one', async () => {
    const { base, students } = await classWithStudents(server, 1);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await postResults(base, students[0], studentResults(i), false)).status);
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(statuses.slice(6)).toEqual([429, 429]);
    const limited = await postResults(base, students[0], studentResults(9), false);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await postResults(base, students[0], studentResults(9), true)).status).toBe(200);
  });

  it('stores a results post once however often its page sends it again (Idempotency-Key), and refuses a key that is not an id', async () => {
    const { base, students, teacherToken } = await classWithStudents(server, 1);
    const [student] = students;
    const post = (key: string, seed: number, done = false) =>
      call(`${base}/students/${student.id}/results?done=${done ? 1 : 0}`, { method: 'PUT', raw: JSON.stringify(studentResults(seed)), token: student.token, headers: { 'Idempotency-Key': key } });
    const stream = follow(`${base}/events`);
    await stream.opened;
    const key = 'Bx2hq7hGdlCMBRtNcVu0Dg';
    const first = await post(key, 1, true);
    expect(first.status).toBe(200);
    // The page lost the answer and sends it again, and again: more than the limit of finished runs allows.
    for (let i = 0; i < 8; i++) expect(await post(key, 1, true)).toMatchObject({ status: 200, body: { entry: first.body.entry } });
    await expect.poll(() => stream.events.length).toBe(1);
    // A repeat is answered from the board: a different body under an id already stored is not stored.
    expect((await post(key, 2, true)).body.entry).toEqual(first.body.entry);
    // A new document is stored and announced.
    const next = await post('Bx2hq7hGdlCMBRtNcVu0Dh', 3, false);
    expect(next.status).toBe(200);
    expect(next.body.entry.done).toBe(false);
    await expect.poll(() => stream.events.length).toBe(2);
    stream.stop();
    for (const bad of ['short', 'x'.repeat(65), 'has spaces in it, twenty-two+']) {
      expect(await post(bad, 4)).toMatchObject({ status: 400, body: { error: /^Idempotency-Key names a results document/ } });
    }
    // Acknowledged before the class closed, a repeat is still answered with its entry.
    await call(`${base}/close`, { method: 'POST', token: teacherToken });
    expect(await post('Bx2hq7hGdlCMBRtNcVu0Dh', 3, false)).toMatchObject({ status: 200, body: { entry: next.body.entry } });
    expect((await post('Bx2hq7hGdlCMBRtNcVu0Di', 3, false)).status).toBe(410);
  });

  it('a class’s event stream carries its own entries and never another class’s', async () => {
    const a = await classWithStudents(server, 1);
    const b = await classWithStudents(server, 1);
    const streamA = follow(`${a.base}/events`);
    const streamB = follow(`${b.base}/events`);
    await Promise.all([streamA.opened, streamB.opened]);
    await postResults(a.base, a.students[0], studentResults(1));
    await postResults(b.base, b.students[0], studentResults(2));
    await postResults(b.base, b.students[0], studentResults(3));
    await expect.poll(() => streamB.events.length).toBe(2);
    await expect.poll(() => streamA.events.length).toBe(1);
    streamA.stop();
    streamB.stop();
    expect(streamA.events[0]).toMatchObject({ event: 'entry', data: { id: a.students[0].id } });
    expect(streamB.events.every((e) => e.data.id === b.students[0].id)).toBe(true);
    // Hiding reaches the stream as an id only, without the hidden machine's figures.
    const streamAgain = follow(`${a.base}/events`);
    await streamAgain.opened;
    await call(`${a.base}/students/${a.students[0].id}/hidden`, { method: 'PUT', body: { hidden: true }, token: a.teacherToken });
    await expect.poll(() => streamAgain.events).toEqual([{ event: 'hide', data: { id: a.students[0].id } }]);
    streamAgain.stop();
    expect((await fetch(`${server.url}/api/classes/AAAAAA/events`)).status).toBe(404);
  });

  it('limits guessing codes per address, and a student who mistyped still reads that there is no such class', async () => {
    const guesser = newDevice();
    const code = (i: number) => `QQQQQ${'23456789'[i % 8]}`;
    // All at once, as a script would: the limit holds 20 and earns 5 back a second, so on
    // a busy machine a slow one-by-one loop would be let through again.
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => call(`${server.url}${path('info', { code: code(i) })}`, { from: guesser })));
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 404).length).toBeGreaterThanOrEqual(20);
    expect(refused.length).toBeGreaterThanOrEqual(10);
    expect(refused.length + answers.filter((a) => a.status === 404).length).toBe(40);
    answers.forEach((answer, i) => {
      if (answer.status === 404) expect(answer.body.error).toBe(`There is no class with the code “${code(i)}”: check it on the board`);
      else expect(answer.body.error).toMatch(new RegExp(`^There is no class with the code “${code(i)}”: check it on the board\\. Many wrong codes came from this network just now: wait \\d+ s`));
    });
    // Another network is not slowed by the guesser.
    expect(await call(`${server.url}${path('info', { code: 'QQQQQ3' })}`, { from: newDevice() })).toMatchObject({ status: 404 });
  });

  it('has a server-wide backstop for guessing from many addresses, whose answer still says there is no such class', async () => {
    const answers = await Promise.all(Array.from({ length: 260 }, (_, i) => call(`${server.url}${path('info', { code: `WWWW${'23456789'[i % 8]}${'ABCDEFGH'[i % 7]}` })}`, { from: newDevice() })));
    const backstopped = answers.filter((a) => a.status === 429);
    expect(backstopped.length).toBeGreaterThan(0);
    for (const answer of answers) expect(answer.body.error).toMatch(/^There is no class with the code “WWWW\w\w”: check it on the board/);
    expect(backstopped[0].body.error).toMatch(/Many wrong codes are being tried on this server just now: wait \d+ s/);
  });
});

describe('a class that has ended', () => {
  it('takes no more joins or results, and its board and export stay readable', async () => {
    const ended = await startClassServer({ ...tempDirs(), classMinutes: 0.02 });
    try {
      const { base, students, teacherToken } = await classWithStudents(ended, 1);
      expect((await postResults(base, students[0], studentResults(1))).status).toBe(200);
      await expect.poll(async () => (await call(base)).body.state, { timeout: 5000, interval: 200 }).toBe('ended');
      expect(await postResults(base, students[0], studentResults(2))).toMatchObject({ status: 410, body: { error: /has ended/ } });
      expect((await join(base, 'late')).status).toBe(410);
      expect((await call(`${base}/board`)).body.entries).toHaveLength(1);
      expect((await call(`${base}/export.csv`, { token: teacherToken })).status).toBe(200);
    } finally {
      await ended.stop();
    }
  });
});
