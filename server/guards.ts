// The checks routes share, as Fastify onRequest hooks, so they run before any body is
// read: which class a code names, whether the request carries the teacher's, the
// student's or the host's token. Each either puts what it found on the request or throws
// the refusal. The token is checked before anything a request could use up: a request
// without the right token costs nobody's rate limit, and a results body without the
// student's token is refused unread.
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Clients } from './clients.ts';
import type { HostKey } from './host.ts';
import { KEEP_AFTER_END_MS, type RateLimits } from './limits.ts';
import { Refused } from './refusal.ts';
import { bearer, CODE_PATTERN, tokenMatches } from './secrets.ts';
import type { ClassByCode, Store, StudentRow } from './store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The class the route's :code names (set by `findClass`). */
    classRow: ClassByCode | null;
    /** The student the route's :id names, proven by their token (set by `studentOnly`). */
    studentRow: StudentRow | null;
  }
}

export type Params = { code: string; id?: string };
type Guard = onRequestAsyncHookHandler;

/** The request's class; only for routes whose guards include findClass. */
export function classOf(request: FastifyRequest): ClassByCode {
  if (!request.classRow) throw new Error('a class route ran without findClass');
  return request.classRow;
}

export function guards(ctx: { store: Store; limits: RateLimits; clients: Clients; host: HostKey; now: () => number }) {
  const { store, limits } = ctx;
  const token = (request: FastifyRequest) => bearer(request.headers.authorization);

  /**
   * The class a code names, or a 404 that says so. Codes that match no class are counted
   * per address (one guesser slows only its own network) and server-wide (many guessers
   * at once); past either limit the answer is a 429, and it still says first that there
   * is no such class, so a student who mistyped reads what went wrong.
   */
  const findClass: Guard = async function (request: FastifyRequest) {
    const { code } = request.params as Params;
    const row = CODE_PATTERN.test(code) ? store.classByCode(code) : undefined;
    if (row && row.expires_at + KEEP_AFTER_END_MS > ctx.now()) {
      request.classRow = row;
      return;
    }
    const none = `There is no class with the code “${code.slice(0, 12)}”: check it on the board`;
    const mine = limits.guess.take(ctx.clients.of(request), ctx.now());
    if (mine) throw new Refused(429, `${none}. Many wrong codes came from this network just now: wait ${mine} s before trying another`, mine);
    const everyone = limits.guessBackstop.take('all', ctx.now());
    if (everyone) throw new Refused(429, `${none}. Many wrong codes are being tried on this server just now: wait ${everyone} s before trying another`, everyone);
    throw new Refused(404, none);
  };

  const isTeacher = (request: FastifyRequest) => request.classRow !== null && tokenMatches(token(request), request.classRow.teacher_hash);

  /** After findClass: the request carries the class's teacher token, or a 403. */
  const teacherOnly: Guard = async function (request: FastifyRequest) {
    if (!isTeacher(request)) throw new Refused(403, 'Only the teacher who started this class can do that (the teacher token is missing or wrong)');
  };

  /** After findClass: the machine :id exists in this class and the request carries its token. */
  const studentOnly: Guard = async function (request: FastifyRequest) {
    const student = store.student(classOf(request).id, (request.params as Params).id ?? '');
    if (!student) throw new Refused(404, 'This machine is no longer in the class (the teacher removed it): join again');
    if (!tokenMatches(token(request), student.token_hash)) {
      throw new Refused(403, 'Only the student who joined as this machine can post its results (the student token is missing or wrong)');
    }
    request.studentRow = student;
  };

  /** The host's key (the teacher's link `npm run classroom` prints), or a 403. */
  const hostOnly: Guard = async function (request: FastifyRequest) {
    if (!tokenMatches(token(request), ctx.host.hash)) {
      throw new Refused(403, 'Only the host can start a class: open the teacher’s link that `npm run classroom` printed on its computer');
    }
  };

  return { findClass, teacherOnly, studentOnly, hostOnly, isTeacher };
}

/** Changes come from the app's own pages: a browser marks another site's requests, and they are refused. */
export async function sameOriginWrites(request: FastifyRequest): Promise<void> {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw new Refused(403, 'The class API takes changes only from the class’s own pages');
}
