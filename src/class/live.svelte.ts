// One class's board as it changes: the snapshot from the server, then every entry the
// event stream brings. Updates are gathered and applied at most a few times a second,
// so thirty machines reporting at once redraw the board once, not thirty times.
import { classApi, ClassApiError, type ClassInfo } from './api.ts';
import type { ClassPlan } from './plan.ts';
import type { EntrySummary } from './summary.ts';

const REDRAW_MS = 250;

export class LiveBoard {
  info = $state.raw<ClassInfo | null>(null);
  /** In joining order; hidden entries only for the teacher. */
  entries = $state.raw<EntrySummary[]>([]);
  error = $state<string | null>(null);

  readonly #byId = new Map<string, EntrySummary>();
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly code: string,
    readonly teacherToken: string | null,
  ) {}

  /** Opens the event stream and loads the board; returns the function that stops both. */
  follow(): () => void {
    const source = new EventSource(classApi.eventsUrl(this.code));
    // On every (re)connection: events missed while away are in the snapshot.
    source.addEventListener('open', () => void this.refresh());
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) void this.refresh();
    });
    source.addEventListener('entry', (event) => this.#take(JSON.parse(event.data) as EntrySummary));
    source.addEventListener('hide', (event) => {
      if (this.teacherToken) return void this.refresh();
      this.#byId.delete((JSON.parse(event.data) as { id: string }).id);
      this.#redrawSoon();
    });
    source.addEventListener('plan', (event) => {
      if (this.info) this.info = { ...this.info, plan: JSON.parse(event.data) as ClassPlan };
    });
    source.addEventListener('state', (event) => {
      if (this.info) this.info = { ...this.info, state: (JSON.parse(event.data) as { state: ClassInfo['state'] }).state };
    });
    return () => {
      source.close();
      if (this.#timer !== null) clearTimeout(this.#timer);
    };
  }

  async refresh(): Promise<void> {
    try {
      const board = await classApi.board(this.code, this.teacherToken ?? undefined);
      const { entries, ...info } = board;
      this.info = info;
      this.#byId.clear();
      for (const entry of entries) this.#byId.set(entry.id, entry);
      this.#redraw();
      this.error = null;
    } catch (error) {
      this.error = error instanceof ClassApiError ? error.message : String(error);
    }
  }

  /** An entry this page posted itself: shown at once, without waiting for its echo. */
  take(entry: EntrySummary): void {
    this.#take(entry);
  }

  #take(entry: EntrySummary): void {
    if (entry.hidden && !this.teacherToken) return;
    this.#byId.set(entry.id, entry);
    this.#redrawSoon();
  }

  #redrawSoon(): void {
    this.#timer ??= setTimeout(() => this.#redraw(), REDRAW_MS);
  }

  #redraw(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.entries = [...this.#byId.values()];
    if (this.info && this.info.students < this.entries.length) this.info = { ...this.info, students: this.entries.length };
  }
}
