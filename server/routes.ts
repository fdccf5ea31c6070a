// The class API. Who may do what:
//   anyone with the join code: read the class and its board, follow its live events, join;
//   a student (the token they got on joining): post their own results;
//   the teacher (the token they got on starting the class): change the plan, hide an
//   entry, close the class, export it.
// Every answer is JSON; every refusal is { error: "<one sentence>" } with its status.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkClassPlan, DEFAULT_CLASS_PLAN, type ClassPlan } from '../src/class/plan.ts';
import { summarize, type EntrySummary } from '../src/class/summary.ts';
import { MAX_RESULTS_BYTES } from '../src/results/io/limits.ts';
import { parseResultsJson } from '../src/results/io/validate.ts';
import type { EventHub } from './events.ts';
import { classCsv, classZip, type ExportEntry } from './export.ts';
import * as limits from './limits.ts';
import { bearer, CODE_PATTERN, hashToken, newJoinCode, newStudentId, newToken, tokenMatches } from './secrets.ts';
import type { SessionRow, Store, StudentRow } from './store.ts';

export interface ClassContext {
  store: Store;
  hub: EventHub;
  limits: limits.RateLimits;
  /** How long a new class stays open for joining and posting, ms. */
  sessionMs: number;
  /** The address students should open (the server's address on the local network). */
  joinOrigin: () => string;
  now: () => number;
}

export type ClassState = 'open' | 'closed' | 'ended';

/** Answers with a refusal; the route returns what this returns. */
function refuse(reply: FastifyReply, status: number, error: string, retryAfter?: number) {
  if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
  return reply.code(status).send({ error });
}

function tooMany(reply: FastifyReply, wait: number, what: string) {
  return refuse(reply, 429, `Too many ${what}; try again in ${wait} s`, wait);
}

function stateOf(row: SessionRow, now: number): ClassState {
  if (row.closed_at !== null) return 'closed';
  return now >= row.expires_at ? 'ended' : 'open';
}

const NOT_OPEN: Record<Exclude<ClassState, 'open'>, string> = {
  closed: 'The teacher has closed this class: it takes no more machines or results',
  ended: 'This class has ended: it takes no more machines or results',
};

/** A nickname as shown: trimmed, spaces collapsed, NFC; or why it cannot be one. */
export function checkNickname(value: unknown): { ok: true; nickname: string } | { ok: false; error: string } {
  if (typeof value !== 'string') return { ok: false, error: 'Choose a nickname' };
  const nickname = value.normalize('NFC').trim().replace(/\s+/g, ' ');
  if (nickname === '') return { ok: false, error: 'Choose a nickname' };
  if (nickname.length > limits.MAX_NICKNAME_CHARS) return { ok: false, error: `A nickname has at most ${limits.MAX_NICKNAME_CHARS} characters` };
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(nickname)) {
    return { ok: false, error: 'A nickname holds printable characters only' };
  }
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(nickname)) {
    return { ok: false, error: 'A nickname cannot hold half of a character' };
  }
  return { ok: true, nickname };
}

/** A small JSON body; fastify hands every JSON body over as text (see app.ts). */
function jsonBody(request: FastifyRequest): Record<string, unknown> | null {
  if (typeof request.body !== 'string') return null;
  try {
    const value: unknown = JSON.parse(request.body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

type Params = { code: string; id?: string };

export function classRoutes(app: FastifyInstance, ctx: ClassContext): void {
  const { store, hub } = ctx;

  /** The class a code names, or a 404 (counted against the server-wide guessing limit). */
  function findSession(code: string, reply: FastifyReply): SessionRow | null {
    const row = CODE_PATTERN.test(code) ? store.sessionByCode(code) : undefined;
    if (row && row.expires_at + limits.KEEP_AFTER_END_MS > ctx.now()) return row;
    const wait = ctx.limits.guess.take('all', ctx.now());
    if (wait) tooMany(reply, wait, 'codes that match no class');
    else refuse(reply, 404, `There is no class with the code “${code.slice(0, 12)}”: check it on the board`);
    return null;
  }

  function isTeacher(request: FastifyRequest, row: SessionRow): boolean {
    return tokenMatches(bearer(request.headers.authorization), row.teacher_hash);
  }

  /** The class, if the request carries its teacher's token; else a 403. */
  function teacherSession(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): SessionRow | null {
    const row = findSession(request.params.code, reply);
    if (!row) return null;
    if (isTeacher(request, row)) return row;
    refuse(reply, 403, 'Only the teacher who started this class can do that (the teacher token is missing or wrong)');
    return null;
  }

  /** The class if it still takes joins and posts, within its rate limit; else the refusal. */
  function writableSession(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): SessionRow | null {
    const row = findSession(request.params.code, reply);
    if (!row) return null;
    const state = stateOf(row, ctx.now());
    if (state !== 'open') {
      refuse(reply, 410, NOT_OPEN[state]);
      return null;
    }
    const wait = ctx.limits.session.take(row.id, ctx.now());
    if (wait) {
      tooMany(reply, wait, 'requests to this class at once');
      return null;
    }
    return row;
  }

  function classInfo(row: SessionRow) {
    return {
      code: row.code,
      plan: JSON.parse(row.plan) as ClassPlan,
      state: stateOf(row, ctx.now()),
      expiresAt: row.expires_at,
      students: store.countStudents(row.id),
    };
  }

  /** The stored summary, with the hidden flag as it is now (the teacher may have changed it since). */
  const summaryOf = (row: StudentRow): EntrySummary => ({ ...(JSON.parse(row.summary!) as EntrySummary), hidden: row.hidden === 1 });

  app.get('/api/class', async () => ({ app: 'blake3-lab-class', version: 1, joinOrigin: ctx.joinOrigin() }));

  app.post('/api/class/sessions', { bodyLimit: limits.SMALL_BODY_BYTES }, async (request, reply) => {
    const now = ctx.now();
    const wait = ctx.limits.create.take('all', now);
    if (wait) return tooMany(reply, wait, 'classes started');
    if (store.openSessions(now) >= limits.MAX_OPEN_SESSIONS) {
      return refuse(reply, 503, `${limits.MAX_OPEN_SESSIONS} classes are open on this server already; close one first`);
    }
    const body = request.body === undefined ? {} : jsonBody(request);
    if (!body) return refuse(reply, 400, 'The request must be a JSON object');
    const checked = body.plan === undefined ? { ok: true as const, plan: DEFAULT_CLASS_PLAN } : checkClassPlan(body.plan);
    if (!checked.ok) return refuse(reply, 400, checked.error);
    const token = newToken();
    const expiresAt = now + ctx.sessionMs;
    for (let attempt = 0; ; attempt++) {
      const code = newJoinCode();
      if (store.sessionByCode(code)) {
        if (attempt < 10) continue;
        return refuse(reply, 503, 'No free join code was found; try again');
      }
      store.createSession(code, hashToken(token), JSON.stringify(checked.plan), now, expiresAt);
      return reply.code(201).send({ code, teacherToken: token, plan: checked.plan, expiresAt });
    }
  });

  app.get<{ Params: Params }>('/api/class/sessions/:code', async (request, reply) => {
    const row = findSession(request.params.code, reply);
    return row ? classInfo(row) : reply;
  });

  app.get<{ Params: Params }>('/api/class/sessions/:code/board', async (request, reply) => {
    const row = findSession(request.params.code, reply);
    if (!row) return reply;
    const teacher = request.headers.authorization !== undefined && isTeacher(request, row);
    const entries = store.entries(row.id).filter((entry) => teacher || !entry.hidden).map(summaryOf);
    return { ...classInfo(row), entries };
  });

  app.put<{ Params: Params }>('/api/class/sessions/:code/plan', { bodyLimit: limits.SMALL_BODY_BYTES }, async (request, reply) => {
    const row = teacherSession(request, reply);
    if (!row) return reply;
    const state = stateOf(row, ctx.now());
    if (state !== 'open') return refuse(reply, 410, NOT_OPEN[state]);
    const checked = checkClassPlan(jsonBody(request)?.plan);
    if (!checked.ok) return refuse(reply, 400, checked.error);
    store.setPlan(row.id, JSON.stringify(checked.plan));
    hub.send(row.id, 'plan', checked.plan);
    return { plan: checked.plan };
  });

  app.post<{ Params: Params }>('/api/class/sessions/:code/close', async (request, reply) => {
    const row = teacherSession(request, reply);
    if (!row) return reply;
    store.close(row.id, ctx.now());
    hub.send(row.id, 'state', { state: 'closed' });
    return { state: 'closed' };
  });

  app.post<{ Params: Params }>('/api/class/sessions/:code/students', { bodyLimit: limits.SMALL_BODY_BYTES }, async (request, reply) => {
    const row = writableSession(request, reply);
    if (!row) return reply;
    const checked = checkNickname(jsonBody(request)?.nickname);
    if (!checked.ok) return refuse(reply, 400, checked.error);
    if (store.countStudents(row.id) >= limits.MAX_STUDENTS) {
      return refuse(reply, 409, `This class is full: it has ${limits.MAX_STUDENTS} machines`);
    }
    const id = newStudentId();
    const token = newToken();
    store.addStudent(id, row.id, hashToken(token), checked.nickname, ctx.now());
    return reply.code(201).send({ id, token, nickname: checked.nickname });
  });

  app.put<{ Params: Params & { id: string }; Querystring: { done?: string } }>(
    '/api/class/sessions/:code/students/:id/results',
    { bodyLimit: MAX_RESULTS_BYTES },
    async (request, reply) => {
      const row = writableSession(request, reply);
      if (!row) return reply;
      const student = store.student(row.id, request.params.id);
      if (!student || !tokenMatches(bearer(request.headers.authorization), student.token_hash)) {
        return refuse(reply, 403, 'Only the student who joined as this machine can post its results (the student token is missing or wrong)');
      }
      const wait = ctx.limits.student.take(student.id, ctx.now());
      if (wait) return tooMany(reply, wait, 'posts from this machine');
      if (typeof request.body !== 'string') return refuse(reply, 415, 'Results are sent as JSON text (Content-Type: application/json)');
      const parsed = parseResultsJson(request.body);
      if (!parsed.ok) return refuse(reply, 400, parsed.error);
      const engines = parsed.results.engines?.length ?? 1;
      if (engines > 1) return refuse(reply, 400, `A class takes one browser’s run per machine; these results were measured in ${engines} browsers`);
      const now = ctx.now();
      const summary = summarize(parsed.results, {
        id: student.id,
        nickname: student.nickname,
        done: request.query.done === '1',
        hidden: student.hidden === 1,
        updatedAt: now,
      });
      store.saveResults(student.id, JSON.stringify(parsed.results), JSON.stringify(summary), summary.done, now);
      if (summary.hidden) hub.send(row.id, 'hide', { id: student.id });
      else hub.send(row.id, 'entry', summary);
      return { entry: summary };
    },
  );

  app.put<{ Params: Params & { id: string } }>(
    '/api/class/sessions/:code/students/:id/hidden',
    { bodyLimit: limits.SMALL_BODY_BYTES },
    async (request, reply) => {
      const row = teacherSession(request, reply);
      if (!row) return reply;
      const hidden = jsonBody(request)?.hidden;
      if (typeof hidden !== 'boolean') return refuse(reply, 400, 'Say { "hidden": true } or { "hidden": false }');
      if (!store.setHidden(row.id, request.params.id, hidden)) return refuse(reply, 404, 'There is no such machine in this class');
      const student = store.student(row.id, request.params.id)!;
      if (hidden) hub.send(row.id, 'hide', { id: student.id });
      else if (student.summary) hub.send(row.id, 'entry', summaryOf(student));
      return { id: student.id, hidden };
    },
  );

  function exportEntries(row: SessionRow): ExportEntry[] {
    return store.entries(row.id).map((entry) => ({
      summary: summaryOf(entry),
      results: JSON.parse(entry.results!),
    }));
  }

  app.get<{ Params: Params }>('/api/class/sessions/:code/export.csv', async (request, reply) => {
    const row = teacherSession(request, reply);
    if (!row) return reply;
    reply.header('Content-Disposition', `attachment; filename="class-${row.code}.csv"`);
    return reply.type('text/csv; charset=utf-8').send(classCsv(JSON.parse(row.plan), exportEntries(row)));
  });

  app.get<{ Params: Params }>('/api/class/sessions/:code/export.zip', async (request, reply) => {
    const row = teacherSession(request, reply);
    if (!row) return reply;
    reply.header('Content-Disposition', `attachment; filename="class-${row.code}.zip"`);
    return reply.type('application/zip').send(classZip(row.code, JSON.parse(row.plan), exportEntries(row)));
  });

  app.get<{ Params: Params }>('/api/class/sessions/:code/events', async (request, reply) => {
    const row = findSession(request.params.code, reply);
    if (!row) return reply;
    if (!hub.hasRoom(row.id)) return refuse(reply, 503, 'Too many boards are following this class; reload in a minute');
    reply.hijack();
    // A hijacked reply skips fastify's hooks: the security headers are written here too.
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    reply.raw.write('retry: 3000\n\n');
    hub.add(row.id, reply.raw);
  });
}
