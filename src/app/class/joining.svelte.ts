// A student's join as the page lives it: the nickname checked with the server's own rules
// before it is sent, and a refusal the teacher can lift waited out. Refused because the
// class is full or joins are closed, the page joins by itself as soon as the board shows
// room (joins open, fewer machines than places: the teacher pressed "Let them in"); told to
// wait by the server's pace, it tries again after the wait it was given.
import { classApi, ClassApiError, type Student } from './api.ts';
import { checkNickname } from '../../core/class/nickname.ts';
import { toBase64Url } from '../../core/results/io/share.ts';
import type { ClassInfo, RefusalReason } from '../../core/class/protocol.ts';

/** One id per page (random, 96 bits), so the teacher's board counts a page that keeps being refused once. */
function attemptId(): string {
  // getRandomValues works on plain-HTTP pages too, where crypto.randomUUID does not.
  return toBase64Url(crypto.getRandomValues(new Uint8Array(12)));
}

export class Joining {
  /** Why the last try did not get in, as the server said it. */
  error = $state<string | null>(null);
  /** Set while the page waits to try again by itself: for room (full, closed) or for the pace. */
  waiting = $state<Extract<RefusalReason, 'full' | 'closed' | 'pace'> | null>(null);
  busy = $state(false);
  readonly #attempt = attemptId();
  #nickname = '';
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly code: string,
    readonly onJoined: (student: Student) => void,
  ) {}

  async join(nickname: string): Promise<void> {
    this.stop();
    const checked = checkNickname(nickname);
    if (!checked.ok) {
      this.error = checked.error;
      return;
    }
    this.#nickname = checked.nickname;
    await this.#send();
  }

  /** The board changed: a page waiting for room tries again once the class shows some. */
  roomMayHaveOpened(info: ClassInfo | null): void {
    if (this.waiting === null || this.waiting === 'pace' || this.busy || !info) return;
    if (info.state === 'open' && info.joinsOpen && info.students < info.size) void this.#send();
  }

  /** Stops waiting (the page is going away, or the student changes the name). */
  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.waiting = null;
  }

  async #send(): Promise<void> {
    this.#timer = null;
    this.busy = true;
    try {
      const student = await classApi.join(this.code, this.#nickname, this.#attempt);
      this.error = null;
      this.waiting = null;
      this.onJoined(student);
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      const reason = error instanceof ClassApiError ? error.reason : undefined;
      this.waiting = reason === 'full' || reason === 'closed' || reason === 'pace' ? reason : null;
      if (reason === 'pace') {
        const seconds = error instanceof ClassApiError ? (error.retryAfter ?? 2) : 2;
        this.#timer = setTimeout(() => void this.#send(), seconds * 1000);
      }
    } finally {
      this.busy = false;
    }
  }
}
