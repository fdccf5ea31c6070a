// The class server's API as the pages call it (every route is in protocol.ts): same
// origin, JSON both ways, every refusal turned into a ClassApiError carrying the
// server's one-sentence message.
import type { Results } from '../../core/bench/results.ts';
import type { ExerciseOutcome } from '../../core/class/exercise.ts';
import type { ClassPlan } from '../../core/class/plan.ts';
import { doneQuery, path, POST_ID_HEADER, ROUTES, TICKET_PARAM, type Board, type ClassInfo, type RefusalReason, type RouteName, type Started, type Student } from '../../core/class/protocol.ts';
import type { EntrySummary } from '../../core/class/summary.ts';
import type { Guess } from '../../core/predict/guess.ts';

export type { Board, ClassInfo, ClassState, Student } from '../../core/class/protocol.ts';

export class ClassApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** Why a join was refused (the server says), so the page knows whether to wait. */
    readonly reason?: RefusalReason,
    /** Seconds the server asked to wait (Retry-After of a 429). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

interface Call {
  params?: { code?: string; id?: string };
  query?: string;
  /** A value sent as JSON, or JSON text as it is. */
  body?: unknown;
  text?: string;
  token?: string;
  headers?: Record<string, string>;
}

async function send(route: RouteName, call: Call = {}): Promise<Response> {
  const { method } = ROUTES[route];
  const headers: Record<string, string> = { ...call.headers };
  // Every change carries a JSON body, even an empty one: the server takes no other type.
  const text = call.text ?? (call.body !== undefined ? JSON.stringify(call.body) : method === 'GET' ? undefined : '{}');
  if (text !== undefined) headers['Content-Type'] = 'application/json';
  if (call.token) headers.Authorization = `Bearer ${call.token}`;
  let response: Response;
  try {
    response = await fetch(path(route, call.params) + (call.query ?? ''), { method, headers, body: text });
  } catch {
    throw new ClassApiError('The class server cannot be reached: is it still running, and is this device on its network?', 0);
  }
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ClassApiError(body?.error ?? `The class server answered ${response.status}`, response.status, body?.reason, retryAfter > 0 ? retryAfter : undefined);
  }
  return response;
}

async function request<T>(route: RouteName, call: Call = {}): Promise<T> {
  return (await (await send(route, call)).json()) as T;
}

export const classApi = {
  start: (hostKey: string, size: number) => request<Started>('start', { body: { size }, token: hostKey }),
  info: (code: string) => request<ClassInfo>('info', { params: { code } }),
  /** The browser revalidates its copy (the server sends an ETag): an unchanged board costs a 304. */
  board: (code: string, teacherToken?: string) => request<Board>('board', { params: { code }, token: teacherToken }),
  join: (code: string, nickname: string, attempt: string) => request<Student>('join', { params: { code }, body: { nickname, attempt } }),
  /** `postId` names the document: sent again after a lost answer, the server stores it once. */
  postResults: (code: string, student: Student, results: Results, done: boolean, postId: string) =>
    request<{ entry: EntrySummary }>('results', {
      params: { code, id: student.id },
      query: doneQuery(done),
      text: JSON.stringify(results),
      token: student.token,
      headers: { [POST_ID_HEADER]: postId },
    }),
  postGuess: (code: string, student: Student, guess: Guess) =>
    request<{ entry: EntrySummary }>('guess', { params: { code, id: student.id }, body: guess, token: student.token }),
  postExercise: (code: string, student: Student, outcome: ExerciseOutcome) =>
    request<{ entry: EntrySummary }>('exercise', { params: { code, id: student.id }, body: outcome, token: student.token }),
  setPlan: (code: string, token: string, plan: ClassPlan) => request<{ plan: ClassPlan }>('plan', { params: { code }, body: { plan }, token }),
  hide: (code: string, token: string, id: string, hidden: boolean) => request<unknown>('hidden', { params: { code, id }, body: { hidden }, token }),
  remove: (code: string, token: string, id: string) => request<unknown>('remove', { params: { code, id }, token }),
  setJoins: (code: string, token: string, open: boolean) => request<unknown>('joins', { params: { code }, body: { open }, token }),
  setSize: (code: string, token: string, size: number) => request<{ size: number }>('size', { params: { code }, body: { size }, token }),
  admit: (code: string, token: string) => request<{ size: number }>('admit', { params: { code }, token }),
  newCode: (code: string, token: string) => request<{ code: string }>('newCode', { params: { code }, token }),
  removeSilent: (code: string, token: string) => request<{ removed: number }>('removeSilent', { params: { code }, token }),
  close: (code: string, token: string) => request<unknown>('close', { params: { code }, token }),
  /** The export as a file: a zip of every machine's results (with the CSV), or the CSV alone. */
  exportFile: async (code: string, token: string, kind: 'zip' | 'csv'): Promise<Blob> =>
    (await send(kind === 'zip' ? 'exportZip' : 'exportCsv', { params: { code }, token })).blob(),
  /** A ticket (the teacher's, or a joined machine's) gives the stream a place of its own. */
  eventsUrl: (code: string, ticket?: string | null) => path('events', { code }) + (ticket ? `?${TICKET_PARAM}=${encodeURIComponent(ticket)}` : ''),
};
