// Speaker notes in presenter mode. ++N++ shows the current slide's notes under it; the
// notes window (the same app opened with ?notes, meant for the laptop while the projector
// shows the slides) shows them with the next slide and a timer. The two windows talk over
// a BroadcastChannel, which only reaches windows of the same origin: the slides say where
// they are after every step (and, when the page has another part, what it shows: the
// notes window cannot draw the app in a frame, which its CSP forbids), the notes window
// asks when it opens, and its arrows step the slides. Messages are checked on arrival, as
// anything another window sends should be.
import { deck } from '../../ui/present/deck.svelte.ts';

export const SLIDES_CHANNEL = 'blake3-lab-slides';

/** The next slide in a few words: its heading and first lines. */
export interface SlidePreview {
  heading: string;
  lines: string[];
}

/** Where the slides are: the page's address and which of its parts shows (1-based). */
export interface SlidePosition {
  hash: string;
  part: number;
  parts: number;
  /** The page's next part, when it has one; the notes window names the next page itself. */
  next?: SlidePreview;
}

const PREVIEW_LINES = 2;
const PREVIEW_CHARS = 160;
const words = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim();
const cut = (text: string) => (text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1).trimEnd()}…` : text);

/** A part of the page, in a few words: its first heading (or first line) and the lines after it. */
export function previewOf(part: Element): SlidePreview {
  const heading = part.querySelector('h1, h2, h3');
  // Words, not controls: a row of size buttons would read "1 KiB64 KiB".
  const lines = [...part.querySelectorAll('p, li, figcaption')]
    .filter((element) => !element.querySelector('button, input, select, [role="tab"]'))
    .map(words)
    .filter((text) => text !== '');
  const first = heading ? words(heading) : (lines.shift() ?? '');
  return { heading: cut(first), lines: lines.slice(0, PREVIEW_LINES).map(cut) };
}

const text = (value: unknown, max: number) => typeof value === 'string' && value.length <= max;
function readPreview(value: unknown): SlidePreview | null {
  if (typeof value !== 'object' || value === null) return null;
  const { heading, lines } = value as Record<string, unknown>;
  if (!text(heading, PREVIEW_CHARS) || !Array.isArray(lines) || lines.length > PREVIEW_LINES || !lines.every((line) => text(line, PREVIEW_CHARS))) return null;
  return { heading: heading as string, lines: [...(lines as string[])] };
}

export type SlideMessage = ({ kind: 'slide' } & SlidePosition) | { kind: 'where' } | { kind: 'step'; direction: -1 | 1 };

const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) < 1000;

/** The message, if it is one of ours and well formed; anything else is dropped. */
export function readSlideMessage(data: unknown): SlideMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.kind === 'where') return { kind: 'where' };
  if (message.kind === 'step') return message.direction === -1 || message.direction === 1 ? { kind: 'step', direction: message.direction } : null;
  if (message.kind !== 'slide') return null;
  const { hash, part, parts, next } = message;
  if (typeof hash !== 'string' || !/^#\/[\w/.%-]{0,200}$/.test(hash) || !count(part) || !count(parts)) return null;
  const preview = next === undefined ? null : readPreview(next);
  if (next !== undefined && preview === null) return null;
  return { kind: 'slide', hash, part: part as number, parts: parts as number, ...(preview && { next: preview }) };
}

/** The notes under the slide, toggled with N. */
class NotesPanel {
  open = $state(false);

  toggle(): void {
    this.open = !this.open;
  }
}

export const notesPanel = new NotesPanel();

/** Opens the notes window, or brings the open one forward. */
export function openNotesWindow(): void {
  window.open(`${location.pathname}?notes`, 'blake3-lab-notes', 'popup,width=1000,height=760');
}

/**
 * The slides' side: tells the notes window where the slides are whenever `position`
 * changes or the notes window asks, and steps when it says so. Returns the closer.
 */
export function broadcastSlides(position: () => SlidePosition, step: (direction: -1 | 1) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(SLIDES_CHANNEL);
  const tell = () => {
    const following = deck.parts[deck.current + 1];
    channel.postMessage({ kind: 'slide', ...position(), ...(following && { next: previewOf(following) }) } satisfies SlideMessage);
  };
  channel.onmessage = (event) => {
    const message = readSlideMessage(event.data);
    if (message?.kind === 'where') tell();
    if (message?.kind === 'step') step(message.direction);
  };
  const stop = $effect.root(() => {
    $effect(tell);
  });
  return () => {
    stop();
    channel.close();
  };
}

/** The notes window's side: where the slides are, and a timer for the talk. */
export class NotesWindowState {
  slide = $state<SlidePosition | null>(null);
  /** When the timer started, ms since the epoch; it starts with the window. */
  started = $state(Date.now());
  now = $state(Date.now());
  readonly #channel: BroadcastChannel | null;
  readonly #tick: ReturnType<typeof setInterval>;

  constructor() {
    this.#channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SLIDES_CHANNEL);
    if (this.#channel) {
      this.#channel.onmessage = (event) => {
        const message = readSlideMessage(event.data);
        if (message?.kind === 'slide') this.slide = { hash: message.hash, part: message.part, parts: message.parts, next: message.next };
      };
      this.#channel.postMessage({ kind: 'where' } satisfies SlideMessage);
    }
    this.#tick = setInterval(() => (this.now = Date.now()), 1000);
  }

  get supported(): boolean {
    return this.#channel !== null;
  }

  /** Time since the timer started, "m:ss" (or "h:mm:ss" past an hour). */
  get elapsed(): string {
    return formatElapsed(this.now - this.started);
  }

  step(direction: -1 | 1): void {
    this.#channel?.postMessage({ kind: 'step', direction } satisfies SlideMessage);
  }

  resetTimer(): void {
    this.started = this.now = Date.now();
  }

  close(): void {
    clearInterval(this.#tick);
    this.#channel?.close();
  }
}

export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}
