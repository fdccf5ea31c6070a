// The rules of a class, apart from HTTP: what results and guesses a class takes, what the
// teacher may change, and which event each change sends to the boards. Who may join is in joins.ts.
// Every refusal is thrown as a Refused (refusal.ts); routes.ts only wires requests here.
import type { Results } from '../src/core/bench/results.ts';
import { checkExerciseOutcome, withAttempt } from '../src/core/class/exercise.ts';
import { checkClassPlan, DEFAULT_CLASS_PLAN, type ClassPlan } from '../src/core/class/plan.ts';
import { DEFAULT_CLASS_SIZE, MAX_CLASS_SIZE, type ClassInfo, type ClassState, type Started } from '../src/core/class/protocol.ts';
import { summarize, type EntrySummary } from '../src/core/class/summary.ts';
import { againstName, checkGuess, guessAgainst } from '../src/core/predict/guess.ts';
import { STAGES } from '../steps/index.ts';
import { parseResultsJson } from '../src/core/results/io/validate.ts';
import type { BoardBody, BoardCache } from './board-cache.ts';
import type { EventHub } from './events.ts';
import type { RateLimits } from './limits.ts';
import { Refused, tooMany } from './refusal.ts';
import type { RefusalTally } from './refusals.ts';
import { hashToken, newJoinCode, newToken, streamTicket } from './secrets.ts';
import type { ClassRow, Store, StudentRow } from './store.ts';

export interface ServiceContext {
  store: Store;
  hub: EventHub;
  limits: RateLimits;
  board: BoardCache;
  refusals: RefusalTally;
  /** How long a new class stays open for joining and posting, ms. */
  classMs: number;
  now: () => number;
}

export function stateOf(row: ClassRow, now: number): ClassState {
  if (row.closed_at !== null) return 'closed';
  return now >= row.expires_at ? 'ended' : 'open';
}

const NOT_OPEN: Record<Exclude<ClassState, 'open'>, string> = {
  closed: 'The teacher has closed this class: it takes no more machines or results',
  ended: 'This class has ended: it takes no more machines or results',
};

/** Throws the 410 of a class that no longer takes joins or results. */
export function requireOpen(row: ClassRow, now: number): void {
  const state = stateOf(row, now);
  if (state !== 'open') throw new Refused(410, NOT_OPEN[state]);
}

/** A class size from outside: a whole number of machines the server can hold, or why not. */
export function checkSize(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_CLASS_SIZE) {
    throw new Refused(400, `A class takes from 1 to ${MAX_CLASS_SIZE} machines`);
  }
  return value;
}

/** Why a results document does not follow the class plan, or null when it does. */
export function offPlan(results: Results, plan: ClassPlan): string | null {
  const runtimes = results.runtimes?.length ?? 1;
  if (runtimes > 1) return `A class takes one browser’s run per machine; these results were measured in ${runtimes} browsers`;
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

export class ClassService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The class as the code `asked` shows it; the teacher's copy adds the current code and who was turned away. */
  info(row: ClassRow, asked: string, teacher: boolean): ClassInfo {
    const { board, refusals, now } = this.ctx;
    const info: ClassInfo = {
      code: asked,
      plan: JSON.parse(row.plan) as ClassPlan,
      state: stateOf(row, now()),
      joinsOpen: row.joins_closed === 0,
      expiresAt: row.expires_at,
      students: board.count(row.id),
      size: row.size,
    };
    if (teacher) info.teacher = refusals.view(row.id, row.code);
    return info;
  }

  board(row: ClassRow, asked: string, teacher: boolean): BoardBody {
    return this.ctx.board.body(row.id, this.info(row, asked, teacher), teacher);
  }

  start(body: Record<string, unknown>): Started {
    const { store, limits, now } = this.ctx;
    const wait = limits.create.take('host', now());
    if (wait) throw tooMany(wait, 'classes started');
    const checked = body.plan === undefined ? { ok: true as const, plan: DEFAULT_CLASS_PLAN } : checkClassPlan(body.plan);
    if (!checked.ok) throw new Refused(400, checked.error);
    const size = body.size === undefined ? DEFAULT_CLASS_SIZE : checkSize(body.size);
    const token = newToken();
    const tokenHash = hashToken(token);
    const expiresAt = now() + this.ctx.classMs;
    const code = this.#freeCode();
    store.createClass(code, tokenHash, JSON.stringify(checked.plan), size, now(), expiresAt);
    return { code, teacherToken: token, ticket: streamTicket('teacher', tokenHash), plan: checked.plan, size, expiresAt };
  }

  #freeCode(): string {
    for (let attempt = 0; attempt < 10; attempt++) {
      const code = newJoinCode();
      if (!this.ctx.store.codeTaken(code)) return code;
    }
    throw new Refused(503, 'No free join code was found; try again');
  }

  /**
   * A machine's results, which replace the ones it had. `postId` names the document (the
   * page's Idempotency-Key): the same id again is a page repeating a post whose answer
   * it lost, answered with the machine's entry as it is, without storing it, announcing it
   * or counting it against the limits, even once the class has closed.
   */
  postResults(row: ClassRow, student: StudentRow, body: unknown, done: boolean, postId: string | null = null): { entry: EntrySummary } {
    const { store, limits, board, now } = this.ctx;
    if (postId !== null && postId === student.post_id) {
      const entry = board.entry(row.id, student.id);
      if (entry) return { entry };
    }
    requireOpen(row, now());
    const wait = (done ? limits.final : limits.partial).take(student.id, now());
    if (wait) throw tooMany(wait, done ? 'finished runs from this machine' : 'posts from this machine');
    if (typeof body !== 'string') throw new Refused(415, 'Results are sent as JSON text (Content-Type: application/json)');
    const parsed = parseResultsJson(body);
    if (!parsed.ok) throw new Refused(400, parsed.error);
    const wrong = offPlan(parsed.results, JSON.parse(row.plan) as ClassPlan);
    if (wrong) throw new Refused(400, wrong);
    const at = now();
    const before = board.entry(row.id, student.id);
    const hidden = before?.hidden ?? student.hidden === 1;
    const summary = summarize(parsed.results, { id: student.id, nickname: student.nickname, done, hidden, updatedAt: at });
    store.saveResults(student.id, JSON.stringify(parsed.results), JSON.stringify(summary), summary.done, at, postId);
    // The guesses and exercise attempts are stored apart (postGuess, postExercise) and stay with the machine's row.
    const apart = { ...(before?.guesses ? { guesses: before.guesses } : {}), ...(before?.exercises ? { exercises: before.exercises } : {}) };
    return { entry: this.#show(row, { ...summary, ...apart }) };
  }

  /** One finished exercise attempt of a student's, for the exercise the class plan names: the machine's latest, and one more in its counts. */
  postExercise(row: ClassRow, student: StudentRow, body: Record<string, unknown>): { entry: EntrySummary } {
    const { store, limits, board, now } = this.ctx;
    requireOpen(row, now());
    const wait = limits.exercise.take(student.id, now());
    if (wait) throw tooMany(wait, 'exercise attempts from this machine');
    const checked = checkExerciseOutcome(body);
    if (!checked.ok) throw new Refused(400, checked.error);
    const { exercise } = checked.outcome;
    const named = (JSON.parse(row.plan) as ClassPlan).exercise;
    if (named !== exercise) {
      throw new Refused(400, named === undefined ? 'The class plan names no exercise: this class takes no exercise attempts' : `The class plan names exercise ${named}, not exercise ${exercise}: its board takes only that one`);
    }
    const entry = board.entry(row.id, student.id);
    if (!entry) throw new Refused(404, 'This machine is no longer in the class (the teacher removed it): join again');
    const exercises = { ...entry.exercises, [String(exercise)]: withAttempt(entry.exercises?.[String(exercise)], checked.outcome, now()) };
    store.saveExercises(student.id, JSON.stringify(exercises));
    return { entry: this.#show(row, { ...entry, exercises }) };
  }

  /** One guess of a student's, for a stage whose step the class plan measures; it replaces their earlier guess for that stage. */
  postGuess(row: ClassRow, student: StudentRow, body: Record<string, unknown>): { entry: EntrySummary } {
    const { store, limits, board, now } = this.ctx;
    requireOpen(row, now());
    const wait = limits.guesses.take(student.id, now());
    if (wait) throw tooMany(wait, 'guesses from this machine');
    const checked = checkGuess(body);
    if (!checked.ok) throw new Refused(400, checked.error);
    const { stage, ratio } = checked.guess;
    const plan = JSON.parse(row.plan) as ClassPlan;
    if (!plan.contestants.includes(STAGES[stage].id) || !plan.contestants.includes(guessAgainst(stage))) {
      throw new Refused(400, `The class plan does not measure stage ${stage} against ${againstName(stage)}: reload the class page and guess again`);
    }
    const entry = board.entry(row.id, student.id);
    if (!entry) throw new Refused(404, 'This machine is no longer in the class (the teacher removed it): join again');
    const guesses = { ...entry.guesses, [String(stage)]: ratio };
    store.saveGuesses(student.id, JSON.stringify(guesses));
    return { entry: this.#show(row, { ...entry, guesses }) };
  }

  /** A machine's row as it is now, on the board and to every stream (only its id, when hidden). */
  #show(row: ClassRow, entry: EntrySummary): EntrySummary {
    this.ctx.board.put(row.id, entry);
    if (entry.hidden) this.ctx.hub.send(row.id, 'hide', { id: entry.id });
    else this.ctx.hub.send(row.id, 'entry', entry);
    return entry;
  }

  setHidden(row: ClassRow, id: string, body: Record<string, unknown>) {
    const { store, hub, board } = this.ctx;
    const hidden = body.hidden;
    if (typeof hidden !== 'boolean') throw new Refused(400, 'Say { "hidden": true } or { "hidden": false }');
    const entry = board.entry(row.id, id);
    if (!entry || !store.setHidden(row.id, id, hidden)) throw new Refused(404, 'There is no such machine in this class');
    board.put(row.id, { ...entry, hidden });
    if (hidden) hub.send(row.id, 'hide', { id });
    else hub.send(row.id, 'entry', { ...entry, hidden });
    return { id, hidden };
  }

  remove(row: ClassRow, id: string) {
    if (!this.ctx.store.removeStudent(row.id, id)) throw new Refused(404, 'There is no such machine in this class');
    this.ctx.board.drop(row.id, id);
    this.ctx.hub.send(row.id, 'remove', { ids: [id], students: this.ctx.board.count(row.id) });
    return { id, removed: true };
  }

  /** Removes every machine that has posted nothing: a class filled by a script is emptied at once. */
  removeSilent(row: ClassRow) {
    const { store, board, hub } = this.ctx;
    const ids = store.removeStudents(row.id, store.silent(row.id));
    for (const id of ids) board.drop(row.id, id);
    if (ids.length > 0) hub.send(row.id, 'remove', { ids, students: board.count(row.id) });
    return { removed: ids.length };
  }

  setJoins(row: ClassRow, body: Record<string, unknown>) {
    if (typeof body.open !== 'boolean') throw new Refused(400, 'Say { "open": true } or { "open": false }');
    this.ctx.store.setJoinsOpen(row.id, body.open);
    this.ctx.hub.send(row.id, 'joins', { open: body.open });
    return { joinsOpen: body.open };
  }

  setSize(row: ClassRow, body: Record<string, unknown>) {
    const size = checkSize(body.size);
    this.ctx.store.setSize(row.id, size);
    this.ctx.hub.send(row.id, 'size', { size });
    return { size };
  }

  /** "Let them in": joins open, and room for every page still waiting (up to the server's most). */
  admit(row: ClassRow) {
    const { store, hub, board, refusals } = this.ctx;
    requireOpen(row, this.ctx.now());
    const size = Math.min(MAX_CLASS_SIZE, Math.max(row.size, board.count(row.id) + refusals.waiting(row.id)));
    store.setSize(row.id, size);
    store.setJoinsOpen(row.id, true);
    hub.send(row.id, 'size', { size });
    hub.send(row.id, 'joins', { open: true });
    return { size, joinsOpen: true };
  }

  /**
   * A new join code: the old one stops taking joins (for a code that got out of the room),
   * while machines that joined with it keep posting and following the board. No event
   * carries it: whoever holds only the old code must not learn the new one.
   */
  newCode(row: ClassRow) {
    requireOpen(row, this.ctx.now());
    const code = this.#freeCode();
    this.ctx.store.setCode(row.id, code);
    this.ctx.hub.send(row.id, 'code', { changed: true });
    return { code };
  }

  setPlan(row: ClassRow, body: Record<string, unknown>) {
    requireOpen(row, this.ctx.now());
    const checked = checkClassPlan(body.plan);
    if (!checked.ok) throw new Refused(400, checked.error);
    this.ctx.store.setPlan(row.id, JSON.stringify(checked.plan));
    this.ctx.hub.send(row.id, 'plan', checked.plan);
    return { plan: checked.plan };
  }

  close(row: ClassRow) {
    this.ctx.store.close(row.id, this.ctx.now());
    this.ctx.hub.send(row.id, 'state', { state: 'closed' });
    return { state: 'closed' as const };
  }

  /** The summaries of every machine that posted results or an exercise attempt (hidden ones too), and how to read each one's document. */
  exportEntries(row: ClassRow) {
    const { store, board } = this.ctx;
    return {
      plan: JSON.parse(row.plan) as ClassPlan,
      entries: board.entries(row.id).filter((entry) => !entry.silent || entry.exercises !== undefined),
      readResults: (id: string) => store.results(row.id, id),
    };
  }
}
