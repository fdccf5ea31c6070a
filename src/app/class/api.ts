// The class server's API as the pages call it (every route is in protocol.ts): same
// origin, JSON both ways, every refusal turned into a ClassApiError carrying the
// server's one-sentence message.
import type { Results } from '../../core/bench/results.ts';
import type { ClassPlan } from '../../core/class/plan.ts';
import { doneQuery, path, ROUTES, type Board, type ClassInfo, type RouteName, type Started, type Student } from '../../core/class/protocol.ts';
import type { EntrySummary } from '../../core/class/summary.ts';

export type { Board, ClassInfo, ClassState, Student } from '../../core/class/protocol.ts';

export class ClassApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
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
}

async function send(route: RouteName, call: Call = {}): Promise<Response> {
  const { method } = ROUTES[route];
  const headers: Record<string, string> = {};
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
    throw new ClassApiError(body?.error ?? `The class server answered ${response.status}`, response.status);
  }
  return response;
}

async function request<T>(route: RouteName, call: Call = {}): Promise<T> {
  return (await (await send(route, call)).json()) as T;
}

export const classApi = {
  start: (hostKey: string, plan?: ClassPlan) => request<Started>('start', { body: plan ? { plan } : {}, token: hostKey }),
  info: (code: string) => request<ClassInfo>('info', { params: { code } }),
  board: (code: string, teacherToken?: string) => request<Board>('board', { params: { code }, token: teacherToken }),
  join: (code: string, nickname: string) => request<Student>('join', { params: { code }, body: { nickname } }),
  postResults: (code: string, student: Student, results: Results, done: boolean) =>
    request<{ entry: EntrySummary }>('results', {
      params: { code, id: student.id },
      query: doneQuery(done),
      text: JSON.stringify(results),
      token: student.token,
    }),
  setPlan: (code: string, token: string, plan: ClassPlan) => request<{ plan: ClassPlan }>('plan', { params: { code }, body: { plan }, token }),
  hide: (code: string, token: string, id: string, hidden: boolean) => request<unknown>('hidden', { params: { code, id }, body: { hidden }, token }),
  remove: (code: string, token: string, id: string) => request<unknown>('remove', { params: { code, id }, token }),
  setJoins: (code: string, token: string, open: boolean) => request<unknown>('joins', { params: { code }, body: { open }, token }),
  close: (code: string, token: string) => request<unknown>('close', { params: { code }, token }),
  /** The export as a file: a zip of every machine's results (with the CSV), or the CSV alone. */
  exportFile: async (code: string, token: string, kind: 'zip' | 'csv'): Promise<Blob> =>
    (await send(kind === 'zip' ? 'exportZip' : 'exportCsv', { params: { code }, token })).blob(),
  eventsUrl: (code: string) => path('events', { code }),
};
