// Who was turned away from each class, for the teacher's board: every refused join counted
// by its reason, and the pages still waiting to get in (refused because the class was full
// or joins were closed, and not joined since), which "Let them in" makes room for. Kept in
// memory: after a restart the counts start again, and a waiting page that tries again is
// counted again.
import { REFUSAL_REASONS, type RefusalReason, type TeacherView } from '../src/core/class/protocol.ts';

/** A waiting page that has not tried again for this long has most likely gone away. */
const WAITING_FORGOTTEN_MS = 15 * 60_000;
/** Waiting pages remembered per class: past this, refusals are still counted, not remembered. */
const MAX_WAITING = 1000;

interface ClassRefusals {
  counts: Record<RefusalReason, number>;
  /** attempt id -> when it was last refused; an attempt is one page's "Join". */
  waiting: Map<string, number>;
}

export class RefusalTally {
  readonly #byClass = new Map<number, ClassRefusals>();

  constructor(private readonly now: () => number) {}

  #of(classId: number): ClassRefusals {
    let tally = this.#byClass.get(classId);
    if (!tally) {
      tally = { counts: Object.fromEntries(REFUSAL_REASONS.map((r) => [r, 0])) as Record<RefusalReason, number>, waiting: new Map() };
      this.#byClass.set(classId, tally);
    }
    return tally;
  }

  /** Counts one refused join; a page refused for room (full, closed) is remembered as waiting. */
  refused(classId: number, reason: RefusalReason, attempt: string | undefined): void {
    const tally = this.#of(classId);
    tally.counts[reason]++;
    if ((reason === 'full' || reason === 'closed') && attempt !== undefined) {
      tally.waiting.delete(attempt); // re-inserted last: the map stays in order of the last refusal
      if (tally.waiting.size < MAX_WAITING) tally.waiting.set(attempt, this.now());
    }
  }

  /** A page got in; true when it was one of those waiting. */
  joined(classId: number, attempt: string | undefined): boolean {
    return attempt !== undefined && (this.#byClass.get(classId)?.waiting.delete(attempt) ?? false);
  }

  total(classId: number): number {
    const counts = this.#byClass.get(classId)?.counts;
    return counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;
  }

  /** Pages waiting to get in, once those that stopped trying long ago are forgotten. */
  waiting(classId: number): number {
    const tally = this.#byClass.get(classId);
    if (!tally) return 0;
    const cutoff = this.now() - WAITING_FORGOTTEN_MS;
    for (const [attempt, at] of tally.waiting) {
      if (at >= cutoff) break;
      tally.waiting.delete(attempt);
    }
    return tally.waiting.size;
  }

  view(classId: number, joinCode: string): TeacherView {
    const tally = this.#of(classId);
    return { joinCode, refused: { ...tally.counts }, waiting: this.waiting(classId) };
  }

  forget(classId: number): void {
    this.#byClass.delete(classId);
  }
}
