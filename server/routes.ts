// The class API's routes (src/core/class/protocol.ts names them all), wired to their guards
// (guards.ts) and the class's rules (class-service.ts). Who may do what:
//   anyone with the join code: read the class and its board, follow its live events, join;
//   a student (the token they got on joining): post their own results;
//   the teacher (the token they got on starting the class): change the plan, hide or
//   remove a machine, close joins, close the class, export it;
//   the host (the key in the teacher's link `npm run classroom` prints): start a class.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { isDone, MAX_CLASS_RESULTS_BYTES, ROUTES, type Probe } from '../src/core/class/protocol.ts';
import type { ClassService } from './class-service.ts';
import { clientOf } from './clients.ts';
import type { EventHub } from './events.ts';
import { classCsv, classZip } from './export.ts';
import { classOf, type guards as makeGuards, type Params } from './guards.ts';
import { SMALL_BODY_BYTES } from './limits.ts';
import { jsonObject, Refused } from './refusal.ts';

export interface RouteContext {
  service: ClassService;
  guards: ReturnType<typeof makeGuards>;
  hub: EventHub;
  /** The address students should open (the server's address on the local network). */
  joinOrigin: () => string;
}

type Req = { Params: Params; Querystring: { done?: string } };

export function classRoutes(app: FastifyInstance, { service, guards, hub, joinOrigin }: RouteContext): void {
  const { findClass, teacherOnly, studentOnly, hostOnly, isTeacher } = guards;
  const small = { bodyLimit: SMALL_BODY_BYTES };
  const teacher = { ...small, preHandler: [findClass, teacherOnly] };
  const anyone = { preHandler: [findClass] };
  const id = (params: Params) => params.id ?? '';

  app.get(ROUTES.probe.path, async (): Promise<Probe> => ({ app: 'blake3-lab-class', version: 2, joinOrigin: joinOrigin() }));

  app.post(ROUTES.start.path, { ...small, preHandler: [hostOnly] }, async (request, reply) => reply.code(201).send(service.start(jsonObject(request.body))));

  app.get<Req>(ROUTES.info.path, anyone, async (request) => service.info(classOf(request)));
  app.get<Req>(ROUTES.board.path, anyone, async (request) => service.board(classOf(request), request.headers.authorization !== undefined && isTeacher(request)));

  app.post<Req>(ROUTES.join.path, { ...small, preHandler: [findClass] }, async (request, reply) =>
    reply.code(201).send(service.join(classOf(request), clientOf(request), jsonObject(request.body))),
  );
  app.put<Req>(ROUTES.results.path, { bodyLimit: MAX_CLASS_RESULTS_BYTES, preHandler: [findClass, studentOnly] }, async (request) =>
    service.postResults(classOf(request), request.studentRow!, request.body, isDone(request.query)),
  );

  app.put<Req>(ROUTES.hidden.path, teacher, async (request) => service.setHidden(classOf(request), id(request.params), jsonObject(request.body)));
  app.delete<Req>(ROUTES.remove.path, teacher, async (request) => service.remove(classOf(request), id(request.params)));
  app.put<Req>(ROUTES.joins.path, teacher, async (request) => service.setJoins(classOf(request), jsonObject(request.body)));
  app.put<Req>(ROUTES.plan.path, teacher, async (request) => service.setPlan(classOf(request), jsonObject(request.body)));
  app.post<Req>(ROUTES.close.path, teacher, async (request) => service.close(classOf(request)));

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

  app.get<Req>(ROUTES.events.path, anyone, async (request, reply) => {
    const row = classOf(request);
    const client = clientOf(request);
    const full = hub.noRoom(row.id, client);
    if (full) throw new Refused(503, full);
    reply.hijack();
    // A hijacked reply skips fastify's hooks: the security headers are written here too.
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    reply.raw.write('retry: 3000\n\n');
    hub.add(row.id, client, reply.raw);
  });
}
