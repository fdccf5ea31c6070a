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

/**
 * How often a student's page posts its results so far while a run goes (then the
 * finished document at once). The server's limits are sized to this pace.
 */
export const POST_EVERY_MS = 2500;

/** Join codes: read off a projector and typed on a phone, so 32 symbols without 0/O or 1/I, 5 bits each. */
export const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Six symbols: 2^30, about a billion codes (server/secrets.ts says why that is enough). */
export const CODE_LENGTH = 6;
export const CODE_PATTERN = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

/** A teacher's, a student's or the host's bearer token: 256 random bits in base64url. */
export const TOKEN_BYTES = 32;
export const TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((TOKEN_BYTES * 8) / 6)}}$`);

/** The query flag of a results post: `done=1` for a finished (or stopped) run, `done=0` for results so far. */
export const DONE_PARAM = 'done';
export const doneQuery = (done: boolean): string => `?${DONE_PARAM}=${done ? 1 : 0}`;
export const isDone = (query: Record<string, unknown>): boolean => query[DONE_PARAM] === '1';

/** Every route: method and path, with :code and :id filled in by `path()`. */
export const ROUTES = {
  probe: { method: 'GET', path: '/api/class' },
  start: { method: 'POST', path: '/api/class/sessions' },
  info: { method: 'GET', path: '/api/class/sessions/:code' },
  board: { method: 'GET', path: '/api/class/sessions/:code/board' },
  events: { method: 'GET', path: '/api/class/sessions/:code/events' },
  join: { method: 'POST', path: '/api/class/sessions/:code/students' },
  results: { method: 'PUT', path: '/api/class/sessions/:code/students/:id/results' },
  hidden: { method: 'PUT', path: '/api/class/sessions/:code/students/:id/hidden' },
  remove: { method: 'DELETE', path: '/api/class/sessions/:code/students/:id' },
  joins: { method: 'PUT', path: '/api/class/sessions/:code/joins' },
  plan: { method: 'PUT', path: '/api/class/sessions/:code/plan' },
  close: { method: 'POST', path: '/api/class/sessions/:code/close' },
  exportCsv: { method: 'GET', path: '/api/class/sessions/:code/export.csv' },
  exportZip: { method: 'GET', path: '/api/class/sessions/:code/export.zip' },
} as const;

export type RouteName = keyof typeof ROUTES;

/** A route's path with its parameters filled in (URL-encoded). */
export function path(route: RouteName, params: { code?: string; id?: string } = {}): string {
  return ROUTES[route].path.replace(/:(code|id)/g, (_, name: 'code' | 'id') => encodeURIComponent(params[name] ?? ''));
}
