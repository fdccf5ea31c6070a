// The class API as both sides speak it: every route (method and path), every body and
// answer, every live event. The server (server/routes.ts) registers exactly these
// routes; the pages (api.ts) call them. Every refusal is { error: "<one sentence>" }.
import type { ClassPlan } from './plan.ts';
import type { EntrySummary } from './summary.ts';

export type ClassState = 'open' | 'closed' | 'ended';

/** Machines a class takes unless its teacher says otherwise: a class of 30, each with a laptop and a phone. */
export const DEFAULT_CLASS_SIZE = 60;
/** The most a teacher may set: what one class server's board and streams are sized for. */
export const MAX_CLASS_SIZE = 500;

export interface ClassInfo {
  /** The code this request named (a machine that joined before the teacher changed the code keeps its old one). */
  code: string;
  plan: ClassPlan;
  state: ClassState;
  /** Whether new machines may join (the teacher can close joins while results still come in). */
  joinsOpen: boolean;
  /** ms since the epoch when the class stops taking results. */
  expiresAt: number;
  /** Machines that joined (some may not have posted yet). */
  students: number;
  /** Machines the class takes, as the teacher set it. */
  size: number;
  /** Only in the teacher's copy. */
  teacher?: TeacherView;
}

/** Why a join was refused; a page refused for `full` or `closed` waits and joins by itself once the teacher lets it in. */
export const REFUSAL_REASONS = ['full', 'closed', 'old-code', 'pace', 'name'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** What only the teacher sees: the code students type now, and who was turned away. */
export interface TeacherView {
  joinCode: string;
  /** Joins refused since the server started, by reason. */
  refused: Record<RefusalReason, number>;
  /** Pages refused for a full class or closed joins that have not joined since: "Let them in" makes room for these. */
  waiting: number;
}

export interface Board extends ClassInfo {
  /** In joining order. Hidden machines only in the teacher's copy. */
  entries: EntrySummary[];
}

export interface Student {
  id: string;
  token: string;
  nickname: string;
  /** Names this machine's event stream (events?ticket=...): its board is never refused for lack of room. Not a token: it can only read. */
  ticket: string;
}

export interface JoinRequest {
  nickname: string;
  /** Random, one per page: the teacher's board counts a page that keeps being refused once. */
  attempt?: string;
}

export interface StartRequest {
  plan?: ClassPlan;
  size?: number;
}

export interface Started {
  code: string;
  teacherToken: string;
  /** The teacher's event-stream ticket, as a student's. */
  ticket: string;
  plan: ClassPlan;
  size: number;
  expiresAt: number;
}

export interface Probe {
  app: 'blake3-lab-class';
  version: 3;
  /** The address students open (the server's address on the local network). */
  joinOrigin: string;
}

export interface Refusal {
  error: string;
  /** Set on a refused join: what the page can do about it. */
  reason?: RefusalReason;
}

/** The events of a class's stream, by name, with what each carries. */
export interface ClassEvents {
  /** A machine posted, or was shown again. */
  entry: EntrySummary;
  /** A machine joined: its silent row, and how many the class has now. */
  join: { entry: EntrySummary; students: number };
  /** Hidden by the teacher: only the id goes out, never the hidden machine's figures. */
  hide: { id: string };
  /** Removed by the teacher: gone from the class (one, or every silent machine at once). */
  remove: { ids: string[]; students: number };
  plan: ClassPlan;
  state: { state: ClassState };
  joins: { open: boolean };
  size: { size: number };
  /** The teacher gave the class a new code, which this event does not carry: the teacher's pages reload theirs. */
  code: { changed: true };
  /** Someone was turned away, or a waiting page got in (sent at most once a second): the teacher's board reloads its counts. */
  refused: { total: number };
  /** Sent every HEARTBEAT_MS, so a board can tell a quiet class from a dead connection. */
  ping: { at: number };
}

/** The query parameter of an event stream that carries a ticket (Student.ticket, Started.ticket). */
export const TICKET_PARAM = 'ticket';

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

/**
 * Why `typed` (upper-cased, spaces and dashes removed) is not a class code, naming the
 * alphabet. A typed 0 or 1 is not read as a letter: O and I are left out too, so no
 * guess would be a code, and the student is sent back to the board instead.
 */
export function classCodeProblem(typed: string): string {
  const alphabet = `${CODE_LENGTH} symbols from the letters A to Z and the digits 2 to 9 (never 0, 1, I or O)`;
  if (typed === '') return `Type the code the board shows: ${alphabet}.`;
  const shown = `“${typed.slice(0, 12)}”`;
  if (/[01IO]/.test(typed)) return `${shown} is not a class code: codes never use 0, 1, I or O, which look alike on a projector. Check the code on the board.`;
  return `${shown} is not a class code: a code is ${alphabet}, as the board shows it.`;
}

/**
 * A teacher's, a student's or the host's bearer token: 256 random bits in base64url. Every
 * reader of a token (the server's checks, the host key's file, the teacher's link) checks
 * it against TOKEN_PATTERN.
 */
export const TOKEN_BYTES = 32;
export const TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((TOKEN_BYTES * 8) / 6)}}$`);

/** The query flag of a results post: `done=1` for a finished (or stopped) run, `done=0` for results so far. */
export const DONE_PARAM = 'done';
export const doneQuery = (done: boolean): string => `?${DONE_PARAM}=${done ? 1 : 0}`;
export const isDone = (query: Record<string, unknown>): boolean => query[DONE_PARAM] === '1';

/**
 * The header that names one results document a page posts (the IETF's Idempotency-Key):
 * a page whose post was cut off sends it again with the same id, and the server, which
 * keeps each machine's last id, answers a repeat with the entry it already has instead of
 * storing and announcing it twice. Optional: a post without it is stored as before.
 */
export const POST_ID_HEADER = 'Idempotency-Key';
/** 128 random bits or more in base64url: what a page sends in POST_ID_HEADER. */
export const POST_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/** Every route: method and path, with :code and :id filled in by `path()`. */
export const ROUTES = {
  probe: { method: 'GET', path: '/api/class' },
  start: { method: 'POST', path: '/api/classes' },
  info: { method: 'GET', path: '/api/classes/:code' },
  board: { method: 'GET', path: '/api/classes/:code/board' },
  events: { method: 'GET', path: '/api/classes/:code/events' },
  join: { method: 'POST', path: '/api/classes/:code/students' },
  results: { method: 'PUT', path: '/api/classes/:code/students/:id/results' },
  /** A student's guess for one stage, before measuring it: { stage, ratio } (src/core/predict/guess.ts). */
  guess: { method: 'PUT', path: '/api/classes/:code/students/:id/guess' },
  /** One finished exercise attempt of a student's, for the exercise the class plan names: an ExerciseOutcome (src/core/class/exercise.ts). */
  exercise: { method: 'POST', path: '/api/classes/:code/students/:id/exercise' },
  hidden: { method: 'PUT', path: '/api/classes/:code/students/:id/hidden' },
  remove: { method: 'DELETE', path: '/api/classes/:code/students/:id' },
  joins: { method: 'PUT', path: '/api/classes/:code/joins' },
  size: { method: 'PUT', path: '/api/classes/:code/size' },
  /** Opens joins and makes room for every page that is waiting. */
  admit: { method: 'POST', path: '/api/classes/:code/admit' },
  /** A new join code; the old one stops admitting anyone new. */
  newCode: { method: 'POST', path: '/api/classes/:code/code' },
  /** Removes every machine that has posted nothing. */
  removeSilent: { method: 'DELETE', path: '/api/classes/:code/students' },
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
