// Who may join a class, and what a refused student reads. The class's own limits decide:
// the size its teacher set, whether joins are open, the code it has now, and a pace for the
// whole class; never the student's address, which a school's whole class may share. Each
// refusal says why and what to do, and is counted on the teacher's board (refusals.ts); a
// page refused for room waits and joins by itself once the teacher lets it in.
import { checkNickname, nicknameKey } from '../src/core/class/nickname.ts';
import type { RefusalReason, Student } from '../src/core/class/protocol.ts';
import { silentEntry } from '../src/core/class/summary.ts';
import { requireOpen, type ServiceContext } from './class-service.ts';
import { Refused } from './refusal.ts';
import { hashToken, newStudentId, newToken, streamTicket } from './secrets.ts';
import type { ClassByCode } from './store.ts';

/** The teacher's board hears of refusals at most this often (a script refused a thousand times sends one event). */
export const REFUSED_EVENT_MS = 1000;

export class JoinDesk {
  readonly #refusedTimers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(private readonly ctx: ServiceContext) {}

  join(row: ClassByCode, body: Record<string, unknown>): Student {
    const { store, hub, limits, board, refusals, now } = this.ctx;
    requireOpen(row, now());
    const attempt = typeof body.attempt === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(body.attempt) ? body.attempt : undefined;
    const refuse = (status: number, reason: RefusalReason, message: string, retryAfter?: number) => {
      refusals.refused(row.id, reason, attempt);
      this.#tellTeacher(row.id);
      return new Refused(status, message, retryAfter, reason);
    };
    if (row.asked !== row.code) {
      throw refuse(403, 'old-code', 'This class has a new code, so its old one lets nobody new in: type the code the board shows now');
    }
    if (row.joins_closed) {
      throw refuse(403, 'closed', 'The teacher has closed joins for now. This page joins by itself as soon as they open them again');
    }
    const joined = board.count(row.id);
    if (joined >= row.size) {
      throw refuse(409, 'full', `This class is full: it takes ${row.size} machines. Ask your teacher to let you in; this page joins by itself when they do`);
    }
    const checked = checkNickname(body.nickname);
    if (!checked.ok) throw refuse(400, 'name', checked.error);
    const key = nicknameKey(checked.nickname);
    if (store.nicknameTaken(row.id, key)) throw refuse(409, 'name', `Someone in this class already has a nickname like “${checked.nickname}”: choose another`);
    const wait = limits.classJoins.take(row.id, now());
    if (wait) throw refuse(429, 'pace', `Many machines are joining this class at once; this page tries again in ${wait} s`, wait);

    const token = newToken();
    const tokenHash = hashToken(token);
    const id = newStudentId();
    const at = now();
    store.addStudent(id, row.id, tokenHash, checked.nickname, key, at);
    // One fewer waiting: the teacher's count goes down as the pages get in.
    if (refusals.joined(row.id, attempt)) this.#tellTeacher(row.id);
    const entry = silentEntry({ id, nickname: checked.nickname, hidden: false, joinedAt: at });
    board.put(row.id, entry);
    hub.send(row.id, 'join', { entry, students: board.count(row.id) });
    return { id, token, nickname: checked.nickname, ticket: streamTicket({ machine: id }, tokenHash) };
  }

  /** One 'refused' event a second at most, carrying the class's total, so the teacher's board reloads who was turned away and who waits. */
  #tellTeacher(classId: number): void {
    if (this.#refusedTimers.has(classId)) return;
    const timer = setTimeout(() => {
      this.#refusedTimers.delete(classId);
      this.ctx.hub.send(classId, 'refused', { total: this.ctx.refusals.total(classId) });
    }, REFUSED_EVENT_MS);
    timer.unref();
    this.#refusedTimers.set(classId, timer);
  }

  close(): void {
    for (const timer of this.#refusedTimers.values()) clearTimeout(timer);
    this.#refusedTimers.clear();
  }
}
