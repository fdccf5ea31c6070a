// The class API's routes (src/core/class/protocol.ts names them all), wired to their guards
// (guards.ts) and the class's rules (class-service.ts, joins.ts). Who may do what:
//   anyone with the join code: read the class and its board, follow its live events, join;
//   a student (the token they got on joining): post their own results, guesses and exercise attempts;
//   the teacher (the token they got on starting the class): change the plan and the class
//   size, hide or remove machines, close or open joins and let waiting pages in, give the
//   class a new code, close the class, export it;
//   the host (the key in the teacher's link `npm run classroom` prints): start a class.
// Guards run as onRequest hooks: before any body is read.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDone, MAX_CLASS_RESULTS_BYTES, POST_ID_HEADER, POST_ID_PATTERN, ROUTES, TICKET_PARAM, type Probe } from '../src/core/class/protocol.ts';
import type { BoardBody } from './board-cache.ts';
import type { ClassService } from './class-service.ts';
import type { EventHub, Follower } from './events.ts';
import { classCsv, classZip } from './export.ts';
import { classOf, type guards as makeGuards, type Params } from './guards.ts';
import type { JoinDesk } from './joins.ts';
import { SMALL_BODY_BYTES } from './limits.ts';
import { jsonObject, Refused } from './refusal.ts';
import { ticketHolder, ticketMatches } from './secrets.ts';
import type { ClassByCode, Store } from './store.ts';

export interface RouteContext {
  service: ClassService;
  joins: JoinDesk;
  store: Store;
  guards: ReturnType<typeof makeGuards>;
  hub: EventHub;
  /** The address students should open (the server's address on the local network, or the proxy's). */
  joinOrigin: () => string;
}

type Req = { Params: Params; Querystring: { done?: string; [TICKET_PARAM]?: string } };

/** Who a stream's ticket says holds it, if the ticket is good; anything else follows as a page that has not joined. */
function followerOf(store: Store, row: ClassByCode, ticket: string | undefined): Follower {
  const holder = ticketHolder(ticket);
  if (holder === 'teacher') return ticketMatches(ticket!, holder, row.teacher_hash) ? { kind: 'teacher' } : { kind: 'anonymous' };
  if (holder === null) return { kind: 'anonymous' };
  const student = store.student(row.id, holder.machine);
  return student && ticketMatches(ticket!, holder, student.token_hash) ? { kind: 'machine', id: student.id } : { kind: 'anonymous' };
}

/** The id a page gave its results document (POST_ID_HEADER), null if it gave none, or a 400 for one that is not an id. */
function postIdOf(request: FastifyRequest): string | null {
  const value = request.headers[POST_ID_HEADER.toLowerCase()];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !POST_ID_PATTERN.test(value)) throw new Refused(400, `${POST_ID_HEADER} names a results document in 22 to 64 letters, digits, "-" or "_"`);
  return value;
}

/** The board with its ETag: a page whose copy is current gets a 304 and no body. */
function sendBoard(request: FastifyRequest, reply: FastifyReply, board: BoardBody) {
  reply.header('ETag', board.etag).header('Cache-Control', 'no-cache').header('Vary', 'Authorization');
  const known = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim());
  if (known.includes(board.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(board.body());
}

const small = { bodyLimit: SMALL_BODY_BYTES };
const id = (params: Params) => params.id ?? '';
/** A small body, from the class's teacher. */
const teacherOptions = ({ findClass, teacherOnly }: RouteContext['guards']) => ({ ...small, onRequest: [findClass, teacherOnly] });

export function classRoutes(app: FastifyInstance, context: RouteContext): void {
  classAndBoardRoutes(app, context);
  machineRoutes(app, context);
  teacherRoutes(app, context);
  exportRoutes(app, context);
  eventRoutes(app, context);
}

/** The probe, starting a class (the host), and reading a class and its board (anyone with the code; a teacher reads more). */
function classAndBoardRoutes(app: FastifyInstance, { service, guards, joinOrigin }: RouteContext): void {
  const { findClass, hostOnly, isTeacher } = guards;
  const anyone = { onRequest: [findClass] };
  const teacherAsks = (request: FastifyRequest) => request.headers.authorization !== undefined && isTeacher(request);

  app.get(ROUTES.probe.path, async (): Promise<Probe> => ({ app: 'blake3-lab-class', version: 3, joinOrigin: joinOrigin() }));

  app.post(ROUTES.start.path, { ...small, onRequest: [hostOnly] }, async (request, reply) => reply.code(201).send(service.start(jsonObject(request.body))));

  app.get<Req>(ROUTES.info.path, anyone, async (request) => {
    const row = classOf(request);
    return service.info(row, row.asked, teacherAsks(request));
  });
  app.get<Req>(ROUTES.board.path, anyone, async (request, reply) => {
    const row = classOf(request);
    return sendBoard(request, reply, service.board(row, row.asked, teacherAsks(request)));
  });
}

/** Joining (anyone with the code), then a machine's own results and guesses (its token). */
function machineRoutes(app: FastifyInstance, { service, joins, guards }: RouteContext): void {
  const { findClass, studentOnly } = guards;
  app.post<Req>(ROUTES.join.path, { ...small, onRequest: [findClass] }, async (request, reply) =>
    reply.code(201).send(joins.join(classOf(request), jsonObject(request.body))),
  );
  app.put<Req>(ROUTES.results.path, { bodyLimit: MAX_CLASS_RESULTS_BYTES, onRequest: [findClass, studentOnly] }, async (request) =>
    service.postResults(classOf(request), request.studentRow!, request.body, isDone(request.query), postIdOf(request)),
  );
  app.put<Req>(ROUTES.guess.path, { ...small, onRequest: [findClass, studentOnly] }, async (request) =>
    service.postGuess(classOf(request), request.studentRow!, jsonObject(request.body)),
  );
  app.post<Req>(ROUTES.exercise.path, { ...small, onRequest: [findClass, studentOnly] }, async (request) =>
    service.postExercise(classOf(request), request.studentRow!, jsonObject(request.body)),
  );
}

/** What the teacher's token may change. */
function teacherRoutes(app: FastifyInstance, { service, guards }: RouteContext): void {
  const teacher = teacherOptions(guards);
  app.put<Req>(ROUTES.hidden.path, teacher, async (request) => service.setHidden(classOf(request), id(request.params), jsonObject(request.body)));
  app.delete<Req>(ROUTES.remove.path, teacher, async (request) => service.remove(classOf(request), id(request.params)));
  app.delete<Req>(ROUTES.removeSilent.path, teacher, async (request) => service.removeSilent(classOf(request)));
  app.put<Req>(ROUTES.joins.path, teacher, async (request) => service.setJoins(classOf(request), jsonObject(request.body)));
  app.put<Req>(ROUTES.size.path, teacher, async (request) => service.setSize(classOf(request), jsonObject(request.body)));
  app.post<Req>(ROUTES.admit.path, teacher, async (request) => service.admit(classOf(request)));
  app.post<Req>(ROUTES.newCode.path, teacher, async (request) => service.newCode(classOf(request)));
  app.put<Req>(ROUTES.plan.path, teacher, async (request) => service.setPlan(classOf(request), jsonObject(request.body)));
  app.post<Req>(ROUTES.close.path, teacher, async (request) => service.close(classOf(request)));
}

/** The class as a CSV table or a zip of every results document, for the teacher. */
function exportRoutes(app: FastifyInstance, { service, guards }: RouteContext): void {
  const teacher = teacherOptions(guards);
  app.get<Req>(ROUTES.exportCsv.path, teacher, async (request, reply) => {
    const row = classOf(request);
    const { plan, entries } = service.exportEntries(row);
    reply.header('Content-Disposition', `attachment; filename="class-${row.code}.csv"`);
    return reply.type('text/csv; charset=utf-8').send(classCsv(plan, entries));
  });
  app.get<Req>(ROUTES.exportZip.path, teacher, async (request, reply) => {
    const row = classOf(request);
    const { plan, entries, readResults } = service.exportEntries(row);
    reply.header('Content-Disposition', `attachment; filename="class-${row.code}.zip"`);
    return reply.type('application/zip').send(Readable.from(classZip(row.code, plan, entries, readResults)));
  });
}

/** The class's live events as a stream, while the hub has room for who follows. */
function eventRoutes(app: FastifyInstance, { store, guards, hub }: RouteContext): void {
  app.get<Req>(ROUTES.events.path, { onRequest: [guards.findClass] }, async (request, reply) => {
    const row = classOf(request);
    const who = followerOf(store, row, request.query[TICKET_PARAM]);
    const full = hub.noRoom(row.id, who, row.size);
    if (full) throw new Refused(503, full);
    reply.hijack();
    // A hijacked reply skips fastify's hooks: the security headers are written here too.
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // nginx reads this and passes the stream on unbuffered, whatever its proxy_buffering says.
      'X-Accel-Buffering': 'no',
    });
    reply.raw.write('retry: 3000\n\n');
    hub.add(row.id, who, reply.raw);
  });
}
