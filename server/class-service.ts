// The rules of a class, apart from HTTP: who may join and when, what results a class
// takes, what the teacher may change, and which event each change sends to the boards.
// Every refusal is thrown as a Refused (refusal.ts); routes.ts only wires requests here.
import type { Results } from '../src/core/bench/results.ts';
import { checkNickname, nicknameKey } from '../src/core/class/nickname.ts';
import { checkClassPlan, DEFAULT_CLASS_PLAN, type ClassPlan } from '../src/core/class/plan.ts';
import type { Board, ClassInfo, ClassState, Started, Student } from '../src/core/class/protocol.ts';
import { readStoredSummary, summarize, type EntrySummary } from '../src/core/class/summary.ts';
import { parseResultsJson } from '../src/core/results/io/validate.ts';
import type { EventHub } from './events.ts';
import { MAX_MACHINES_PER_CLIENT, MAX_STUDENTS, type RateLimits } from './limits.ts';
import { Refused, tooMany } from './refusal.ts';
import { hashToken, newJoinCode, newStudentId, newToken } from './secrets.ts';
import type { EntryRow, SessionRow, Store, StudentRow } from './store.ts';

export interface ServiceContext {
  store: Store;
  hub: EventHub;
  limits: RateLimits;
  /** How long a new class stays open for joining and posting, ms. */
  sessionMs: number;
  now: () => number;
}

export function stateOf(row: SessionRow, now: number): ClassState {
  if (row.closed_at !== null) return 'closed';
  return now >= row.expires_at ? 'ended' : 'open';
}

const NOT_OPEN: Record<Exclude<ClassState, 'open'>, string> = {
  closed: 'The teacher has closed this class: it takes no more machines or results',
  ended: 'This class has ended: it takes no more machines or results',
};

/** Throws the 410 of a class that no longer takes joins or results. */
export function requireOpen(row: SessionRow, now: number): void {
  const state = stateOf(row, now);
  if (state !== 'open') throw new Refused(410, NOT_OPEN[state]);
}

/** Why a results document does not follow the class plan, or null when it does. */
export function offPlan(results: Results, plan: ClassPlan): string | null {
  const engines = results.engines?.length ?? 1;
  if (engines > 1) return `A class takes one browser’s run per machine; these results were measured in ${engines} browsers`;
  const extra = results.contestants.find((c) => !plan.contestants.includes(c.id));
  if (extra) return `These results measure “${extra.id}”, which the class plan does not: reload the class page and run again`;
  const size = results.config.sizes.find((s) => !plan.sizes.includes(s));
  if (size !== undefined) return `These results measure ${size} bytes, a size the class plan does not have: reload the class page and run again`;
  const long = results.runs.find((run) => run.nsPerOp.length > plan.rounds);
  if (long || results.config.rounds > plan.rounds) {
    return `These results have more samples than the class plan's ${plan.rounds} rounds: reload the class page and run again`;
  }
  return null;
}

/** The stored summary, with the hidden flag as it is now (the teacher may have changed it since). */
const summaryOf = (row: EntryRow | StudentRow): EntrySummary => ({ ...readStoredSummary(row.summary!), hidden: row.hidden === 1 });

export class ClassService {
  /** Machines each client added to each class ("<session> <client>"), for MAX_MACHINES_PER_CLIENT. */
  readonly #machinesByClient = new Map<string, number>();

  constructor(private readonly ctx: ServiceContext) {}

  info(row: SessionRow): ClassInfo {
    return {
      code: row.code,
      plan: JSON.parse(row.plan) as ClassPlan,
      state: stateOf(row, this.ctx.now()),
      joinsOpen: row.joins_closed === 0,
      expiresAt: row.expires_at,
      students: this.ctx.store.countStudents(row.id),
    };
  }

  start(body: Record<string, unknown>): Started {
    const { store, limits, now } = this.ctx;
    const wait = limits.create.take('host', now());
    if (wait) throw tooMany(wait, 'classes started');
    const checked = body.plan === undefined ? { ok: true as const, plan: DEFAULT_CLASS_PLAN } : checkClassPlan(body.plan);
    if (!checked.ok) throw new Refused(400, checked.error);
    const token = newToken();
    const expiresAt = now() + this.ctx.sessionMs;
    for (let attempt = 0; attempt < 10; attempt++) {
      const code = newJoinCode();
      if (store.sessionByCode(code)) continue;
      store.createSession(code, hashToken(token), JSON.stringify(checked.plan), now(), expiresAt);
      return { code, teacherToken: token, plan: checked.plan, expiresAt };
    }
    throw new Refused(503, 'No free join code was found; try again');
  }

  board(row: SessionRow, teacher: boolean): Board {
    const entries = this.ctx.store.entries(row.id).filter((entry) => teacher || !entry.hidden).map(summaryOf);
    return { ...this.info(row), entries };
  }

  join(row: SessionRow, client: string, body: Record<string, unknown>): Student {
    const { store, limits, now } = this.ctx;
    requireOpen(row, now());
    if (row.joins_closed) throw new Refused(403, 'The teacher has closed this class to new machines');
    const checked = checkNickname(body.nickname);
    if (!checked.ok) throw new Refused(400, checked.error);
    const key = nicknameKey(checked.nickname);
    if (store.nicknameTaken(row.id, key)) throw new Refused(409, `Someone in this class already has a nickname like “${checked.nickname}”: choose another`);
    if (store.countStudents(row.id) >= MAX_STUDENTS) throw new Refused(409, `This class is full: it has ${MAX_STUDENTS} machines`);
    const mine = `${row.id} ${client}`;
    const added = this.#machinesByClient.get(mine) ?? 0;
    if (added >= MAX_MACHINES_PER_CLIENT) throw new Refused(403, `This device has already added ${MAX_MACHINES_PER_CLIENT} machines to this class`);
    const wait = limits.classJoins.take(row.id, now());
    if (wait) throw tooMany(wait, 'machines joining this class at once');
    const student = { id: newStudentId(), token: newToken(), nickname: checked.nickname };
    store.addStudent(student.id, row.id, hashToken(student.token), student.nickname, key, now());
    this.#machinesByClient.set(mine, added + 1);
    return student;
  }

  postResults(row: SessionRow, student: StudentRow, body: unknown, done: boolean): { entry: EntrySummary } {
    const { store, hub, limits, now } = this.ctx;
    requireOpen(row, now());
    const wait = (done ? limits.final : limits.partial).take(student.id, now());
    if (wait) throw tooMany(wait, done ? 'finished runs from this machine' : 'posts from this machine');
    if (typeof body !== 'string') throw new Refused(415, 'Results are sent as JSON text (Content-Type: application/json)');
    const parsed = parseResultsJson(body);
    if (!parsed.ok) throw new Refused(400, parsed.error);
    const wrong = offPlan(parsed.results, JSON.parse(row.plan) as ClassPlan);
    if (wrong) throw new Refused(400, wrong);
    const at = now();
    const summary = summarize(parsed.results, { id: student.id, nickname: student.nickname, done, hidden: student.hidden === 1, updatedAt: at });
    store.saveResults(student.id, JSON.stringify(parsed.results), JSON.stringify(summary), summary.done, at);
    if (summary.hidden) hub.send(row.id, 'hide', { id: student.id });
    else hub.send(row.id, 'entry', summary);
    return { entry: summary };
  }

  setHidden(row: SessionRow, id: string, body: Record<string, unknown>) {
    const { store, hub } = this.ctx;
    const hidden = body.hidden;
    if (typeof hidden !== 'boolean') throw new Refused(400, 'Say { "hidden": true } or { "hidden": false }');
    if (!store.setHidden(row.id, id, hidden)) throw new Refused(404, 'There is no such machine in this class');
    const student = store.student(row.id, id)!;
    if (hidden) hub.send(row.id, 'hide', { id });
    else if (student.summary) hub.send(row.id, 'entry', summaryOf(student));
    return { id, hidden };
  }

  remove(row: SessionRow, id: string) {
    if (!this.ctx.store.removeStudent(row.id, id)) throw new Refused(404, 'There is no such machine in this class');
    this.ctx.hub.send(row.id, 'remove', { id });
    return { id, removed: true };
  }

  setJoins(row: SessionRow, body: Record<string, unknown>) {
    if (typeof body.open !== 'boolean') throw new Refused(400, 'Say { "open": true } or { "open": false }');
    this.ctx.store.setJoinsOpen(row.id, body.open);
    this.ctx.hub.send(row.id, 'joins', { open: body.open });
    return { joinsOpen: body.open };
  }

  setPlan(row: SessionRow, body: Record<string, unknown>) {
    requireOpen(row, this.ctx.now());
    const checked = checkClassPlan(body.plan);
    if (!checked.ok) throw new Refused(400, checked.error);
    this.ctx.store.setPlan(row.id, JSON.stringify(checked.plan));
    this.ctx.hub.send(row.id, 'plan', checked.plan);
    return { plan: checked.plan };
  }

  close(row: SessionRow) {
    this.ctx.store.close(row.id, this.ctx.now());
    this.ctx.hub.send(row.id, 'state', { state: 'closed' });
    return { state: 'closed' as const };
  }

  /** The board's summaries for an export (hidden ones too), and how to read each machine's document. */
  exportEntries(row: SessionRow) {
    const { store } = this.ctx;
    return {
      plan: JSON.parse(row.plan) as ClassPlan,
      entries: store.entries(row.id).map(summaryOf),
      readResults: (id: string) => store.results(row.id, id),
    };
  }
}
