// One class's board as it changes: the snapshot from the server, then every entry the
// event stream brings. Updates are gathered and applied at most a few times a second,
// so thirty machines reporting at once redraw the board once, not thirty times.
// The board knows whether it is live: the server pings every stream (HEARTBEAT_MS), so
// silence for three pings, or a stream the server refused or dropped, means the board
// is showing the past. It says so, and reconnects by itself, further apart each time
// (at once when the device's network comes back), loading the board again on each
// reconnection, so what it missed meanwhile shows.
import { classApi, ClassApiError, type ClassInfo } from './api.ts';
import { HEARTBEAT_MS, type ClassEvents } from '../../core/class/protocol.ts';
import type { EntrySummary } from '../../core/class/summary.ts';

const REDRAW_MS = 250;
/** Silence after which the stream is taken for dead. */
const SILENCE_MS = 3 * HEARTBEAT_MS;
/** Waits between attempts to reconnect: 2 s, doubling, at most 30 s. */
const RETRY_FIRST_MS = 2000;
const RETRY_MAX_MS = 30_000;

/** Live: events arrive. Connecting: the first attempt. Offline: not live; `retryAt` says when the next attempt is. */
export type LiveStatus = 'connecting' | 'live' | 'offline';

export class LiveBoard {
  info = $state.raw<ClassInfo | null>(null);
  /** In joining order; hidden entries only for the teacher. */
  entries = $state.raw<EntrySummary[]>([]);
  error = $state<string | null>(null);
  /** The last load failed because the class server could not be reached (not a refusal). */
  unreachable = $state(false);
  status = $state<LiveStatus>('connecting');
  /** ms since the epoch of the next reconnection attempt, while offline. */
  retryAt = $state<number | null>(null);

  readonly #byId = new Map<string, EntrySummary>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #source: EventSource | null = null;
  #watchdog: ReturnType<typeof setTimeout> | null = null;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #retryMs = RETRY_FIRST_MS;
  #stopped = false;
  /** Events heard so far: a snapshot loaded while one came in is read again. */
  #events = 0;

  constructor(
    readonly code: string,
    readonly teacherToken: string | null,
    /** The event-stream ticket of the teacher or of this page's machine, if it has one. */
    readonly ticket: string | null = null,
  ) {}

  /** Opens the event stream and loads the board; returns the function that stops both. */
  follow(): () => void {
    this.#stopped = false;
    // The snapshot comes at once, live or not; each (re)connection loads it again.
    void this.refresh();
    this.#connect();
    // The device's network is back: no need to wait for the next attempt.
    const online = () => this.status === 'offline' && this.reconnect();
    globalThis.addEventListener?.('online', online);
    return () => {
      this.#stopped = true;
      globalThis.removeEventListener?.('online', online);
      this.#source?.close();
      for (const timer of [this.#timer, this.#watchdog, this.#retry]) if (timer !== null) clearTimeout(timer);
    };
  }

  /** Tries to reconnect now (the board's "Reconnect" button). */
  reconnect(): void {
    this.#retryMs = RETRY_FIRST_MS;
    this.#connect();
  }

  #connect(): void {
    if (this.#stopped) return;
    this.#source?.close();
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#retry = null;
    const source = new EventSource(classApi.eventsUrl(this.code, this.ticket));
    this.#source = source;
    const on = <E extends keyof ClassEvents>(event: E, handle: (data: ClassEvents[E]) => void) =>
      source.addEventListener(event, (message) => {
        this.#heard();
        if (event !== 'ping') this.#events++;
        handle(JSON.parse((message as MessageEvent<string>).data) as ClassEvents[E]);
      });
    // On every (re)connection: events missed while away are in the snapshot.
    source.addEventListener('open', () => {
      this.#heard();
      void this.refresh();
    });
    // The browser retries a dropped stream by itself; one it gave up on (refused, or the
    // server gone) is retried here. Either way the board is not live until it hears again.
    source.addEventListener('error', () => this.#lost(source.readyState === EventSource.CLOSED));
    on('ping', () => {});
    on('entry', (entry) => this.#take(entry));
    on('join', ({ entry, students }) => {
      this.#take(entry);
      this.#set({ students });
    });
    on('hide', ({ id }) => (this.teacherToken ? void this.refresh() : this.#drop(id)));
    on('remove', ({ ids, students }) => {
      for (const id of ids) this.#drop(id);
      this.#set({ students });
    });
    on('plan', (plan) => this.#set({ plan }));
    on('state', ({ state }) => this.#set({ state }));
    on('joins', ({ open }) => this.#set({ joinsOpen: open }));
    on('size', ({ size }) => this.#set({ size }));
    // Only the teacher's copy carries who was turned away: it reloads (a 304 when nothing else changed).
    on('refused', () => this.teacherToken && void this.refresh());
    on('code', () => this.teacherToken && void this.refresh());
  }

  #set(change: Partial<ClassInfo>): void {
    if (this.info) this.info = { ...this.info, ...change };
  }

  #heard(): void {
    this.status = 'live';
    this.retryAt = null;
    this.#retryMs = RETRY_FIRST_MS;
    if (this.#watchdog !== null) clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(() => this.#lost(true), SILENCE_MS);
  }

  #lost(retryHere: boolean): void {
    if (this.#stopped) return;
    this.status = 'offline';
    if (this.#watchdog !== null) clearTimeout(this.#watchdog);
    this.#watchdog = null;
    if (!retryHere) {
      // The browser reconnects on its own (the server asked for 3 s); if it has not heard by then, this one does.
      this.#watchdog = setTimeout(() => this.#lost(true), SILENCE_MS);
      return;
    }
    this.#source?.close();
    const wait = this.#retryMs;
    this.#retryMs = Math.min(RETRY_MAX_MS, this.#retryMs * 2);
    this.retryAt = Date.now() + wait;
    this.#retry = setTimeout(() => this.#connect(), wait);
  }

  /** Loads the board; `again` bounds how often it reloads for events that came while it was on its way. */
  async refresh(again = 2): Promise<void> {
    const heard = this.#events;
    try {
      const board = await classApi.board(this.code, this.teacherToken ?? undefined);
      // Events that came while the board was on its way may be newer than it: read it again
      // (a few times at most: in a busy class events never stop, and the next ones correct it).
      if (this.#events !== heard && again > 0) return this.refresh(again - 1);
      const { entries, ...info } = board;
      this.info = info;
      this.#byId.clear();
      for (const entry of entries) this.#byId.set(entry.id, entry);
      this.#redraw();
      this.error = null;
      this.unreachable = false;
    } catch (error) {
      this.error = error instanceof ClassApiError ? error.message : String(error);
      this.unreachable = error instanceof ClassApiError && error.status === 0;
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

  #drop(id: string): void {
    this.#byId.delete(id);
    this.#redrawSoon();
  }

  #redrawSoon(): void {
    this.#timer ??= setTimeout(() => this.#redraw(), REDRAW_MS);
  }

  #redraw(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.entries = [...this.#byId.values()];
  }
}
