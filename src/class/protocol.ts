// The class API as both sides speak it: every route (method and path), every body and
// answer, every live event. The server (server/routes.ts) registers exactly these
// routes; the pages (api.ts) call them. Every refusal is { error: "<one sentence>" }.
import type { ClassPlan } from './plan.ts';
import type { EntrySummary } from './summary.ts';

export type ClassState = 'open' | 'closed' | 'ended';

export interface ClassInfo {
  code: string;
  plan: ClassPlan;
  state: ClassState;
  /** Whether new machines may join (the teacher can close joins while results still come in). */
  joinsOpen: boolean;
  /** ms since the epoch when the class stops taking results. */
  expiresAt: number;
  /** Machines that joined (some may not have posted yet). */
  students: number;
}

export interface Board extends ClassInfo {
  /** In joining order. Hidden machines only in the teacher's copy. */
  entries: EntrySummary[];
}

export interface Student {
  id: string;
  token: string;
  nickname: string;
}

export interface Started {
  code: string;
  teacherToken: string;
  plan: ClassPlan;
  expiresAt: number;
}

export interface Probe {
  app: 'blake3-lab-class';
  version: 2;
  /** The address students open (the server's address on the local network). */
  joinOrigin: string;
}

export interface Refusal {
  error: string;
}

/** The events of a class's stream, by name, with what each carries. */
export interface ClassEvents {
  entry: EntrySummary;
  /** Hidden by the teacher: only the id goes out, never the hidden machine's figures. */
  hide: { id: string };
  /** Removed by the teacher: gone from the class. */
  remove: { id: string };
  plan: ClassPlan;
  state: { state: ClassState };
  joins: { open: boolean };
  /** Sent every HEARTBEAT_MS, so a board can tell a quiet class from a dead connection. */
  ping: { at: number };
}

/** How often the server sends a ping on every stream; a board that hears nothing for three of these reconnects. */
export const HEARTBEAT_MS = 15_000;

/**
 * Bytes of one results document a class takes: a run of the largest plan (every
 * contestant, every size, 30 rounds) is about 150 kB. Checked before reading the body.
 */
export const MAX_CLASS_RESULTS_BYTES = 512 * 1024;

/**
 * The query parameter of the teacher's link (`npm run classroom` prints it) that carries
 * the host's key: the page keeps it in this browser and takes it out of the address bar.
 */
export const HOST_KEY_PARAM = 'host';

/** Every route: method and path, with :code and :id filled in by `path()`. */
export const ROUTES = {
  probe: { method: 'GET', path: '/api/class' },
  start: { method: 'POST', path: '/api/classes' },
  info: { method: 'GET', path: '/api/classes/:code' },
  board: { method: 'GET', path: '/api/classes/:code/board' },
  events: { method: 'GET', path: '/api/classes/:code/events' },
  join: { method: 'POST', path: '/api/classes/:code/students' },
  results: { method: 'PUT', path: '/api/classes/:code/students/:id/results' },
  hidden: { method: 'PUT', path: '/api/classes/:code/students/:id/hidden' },
  remove: { method: 'DELETE', path: '/api/classes/:code/students/:id' },
  joins: { method: 'PUT', path: '/api/classes/:code/joins' },
  plan: { method: 'PUT', path: '/api/classes/:code/plan' },
  close: { method: 'POST', path: '/api/classes/:code/close' },
  exportCsv: { method: 'GET', path: '/api/classes/:code/export.csv' },
  exportZip: { method: 'GET', path: '/api/classes/:code/export.zip' },
} as const;

export type RouteName = keyof typeof ROUTES;

/** A route's path with its parameters filled in (URL-encoded). */
export function path(route: RouteName, params: { code?: string; id?: string } = {}): string {
  return ROUTES[route].path.replace(/:(code|id)/g, (_, name: 'code' | 'id') => encodeURIComponent(params[name] ?? ''));
}
