// The class server's API as the pages call it: same origin, JSON both ways, every
// refusal turned into a ClassApiError carrying the server's one-sentence message.
import type { Results } from '../bench/results.ts';
import type { ClassPlan } from './plan.ts';
import type { EntrySummary } from './summary.ts';

export type ClassState = 'open' | 'closed' | 'ended';

export interface ClassInfo {
  code: string;
  plan: ClassPlan;
  state: ClassState;
  /** ms since the epoch when the class stops taking results. */
  expiresAt: number;
  /** Machines that joined (some may not have posted yet). */
  students: number;
}

export interface Board extends ClassInfo {
  entries: EntrySummary[];
}

export interface Student {
  id: string;
  token: string;
  nickname: string;
}

export class ClassApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const BASE = '/api/class';

async function request<T>(path: string, init: { method?: string; body?: unknown; text?: string; token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined || init.text !== undefined) headers['Content-Type'] = 'application/json';
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  let response: Response;
  try {
    response = await fetch(BASE + path, {
      method: init.method ?? 'GET',
      headers,
      body: init.text ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
  } catch {
    throw new ClassApiError('The class server cannot be reached: is it still running, and is this device on its network?', 0);
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ClassApiError(body?.error ?? `The class server answered ${response.status}`, response.status);
  return body as T;
}

const classPath = (code: string) => `/sessions/${encodeURIComponent(code)}`;

export const classApi = {
  start: (plan?: ClassPlan) =>
    request<{ code: string; teacherToken: string; plan: ClassPlan; expiresAt: number }>('/sessions', { method: 'POST', body: plan ? { plan } : {} }),
  info: (code: string) => request<ClassInfo>(classPath(code)),
  board: (code: string, teacherToken?: string) => request<Board>(`${classPath(code)}/board`, { token: teacherToken }),
  join: (code: string, nickname: string) => request<Student>(`${classPath(code)}/students`, { method: 'POST', body: { nickname } }),
  postResults: (code: string, student: Student, results: Results, done: boolean) =>
    request<{ entry: EntrySummary }>(`${classPath(code)}/students/${encodeURIComponent(student.id)}/results?done=${done ? 1 : 0}`, {
      method: 'PUT',
      text: JSON.stringify(results),
      token: student.token,
    }),
  setPlan: (code: string, token: string, plan: ClassPlan) => request<{ plan: ClassPlan }>(`${classPath(code)}/plan`, { method: 'PUT', body: { plan }, token }),
  hide: (code: string, token: string, id: string, hidden: boolean) =>
    request<unknown>(`${classPath(code)}/students/${encodeURIComponent(id)}/hidden`, { method: 'PUT', body: { hidden }, token }),
  close: (code: string, token: string) => request<unknown>(`${classPath(code)}/close`, { method: 'POST', token }),
  /** The export as a file: a zip of every machine's results (with the CSV), or the CSV alone. */
  async exportFile(code: string, token: string, kind: 'zip' | 'csv'): Promise<Blob> {
    const response = await fetch(`${BASE}${classPath(code)}/export.${kind}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) throw new ClassApiError((await response.json().catch(() => null))?.error ?? `The class server answered ${response.status}`, response.status);
    return response.blob();
  },
  eventsUrl: (code: string) => `${BASE}${classPath(code)}/events`,
};
