// Whether the page was served by the class server (`npm run classroom`). One same-origin
// request on load: the class server answers it with JSON; a static host answers with its
// index page or a 404, which is read as "no class server" without a word to the user.
// Nothing else of the class features loads until the answer is yes. A yes is remembered
// in this browser: a class page reloaded while the server is out of reach (its files from
// the service worker's cache) is still a class page, and keeps what it waits to send.
// The teacher's link (`npm run classroom` prints it) carries the host's key in its query:
// it is kept in this browser and taken out of the address bar before anything else runs,
// so it is not left in a screenshot of the projector or a link copied from it.
import { rememberHost } from './identity.ts';
import { setExerciseRelay } from '../../core/class/exercise-relay.ts';
import { HOST_KEY_PARAM, path, TOKEN_PATTERN } from '../../core/class/protocol.ts';

/** This origin answered as a class server (the join address it gave), so an unreachable probe is a lost connection, not another host. */
const SEEN_KEY = 'blake3-lab:class:server';

function seenBefore(): string | null {
  try {
    return localStorage.getItem(SEEN_KEY);
  } catch {
    return null; // storage disabled: nothing is remembered
  }
}

function rememberSeen(joinOrigin: string | null): void {
  try {
    if (joinOrigin === null) localStorage.removeItem(SEEN_KEY);
    else localStorage.setItem(SEEN_KEY, joinOrigin);
  } catch {
    // storage disabled: nothing is remembered
  }
}

function takeHostKey(): void {
  const query = new URLSearchParams(location.search);
  const key = query.get(HOST_KEY_PARAM);
  if (key === null) return;
  if (TOKEN_PATTERN.test(key)) rememberHost(key);
  // Written by hand: URLSearchParams would turn a bare flag such as ?present into "?present=".
  const rest = location.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !part.startsWith(`${HOST_KEY_PARAM}=`));
  history.replaceState(history.state, '', `${location.pathname}${rest.length ? `?${rest.join('&')}` : ''}${location.hash}`);
}

class ClassServerProbe {
  /** True once the class server answered; the class link appears then. */
  present = $state(false);
  /** The address students open (the server's address on the local network). */
  joinOrigin = $state<string | null>(null);
  /** False until the probe has answered either way. */
  settled = $state(false);
  /** Settles when the probe has answered either way. */
  answered: Promise<void> = Promise.resolve();

  start(): void {
    takeHostKey();
    // No Accept header: a static host then sends its index page (HTML) rather than a 404 that browsers log.
    this.answered = fetch(path('probe'))
      .then(
        (response) => (response.ok && response.headers.get('content-type')?.startsWith('application/json') ? response.json() : null),
        () => {
          // Unreachable: a class server this browser has met here before is taken to be down for a moment.
          const before = seenBefore();
          return before === null ? null : { app: 'blake3-lab-class', joinOrigin: before };
        },
      )
      .then((body: unknown) => {
        const answer = body as { app?: unknown; joinOrigin?: unknown } | null;
        if (answer?.app !== 'blake3-lab-class') return rememberSeen(null);
        this.present = true;
        this.joinOrigin = typeof answer.joinOrigin === 'string' && /^https?:\/\//.test(answer.joinOrigin) ? answer.joinOrigin : location.origin;
        rememberSeen(this.joinOrigin);
      })
      .catch(() => {})
      .finally(() => (this.settled = true));
  }
}

export const classServer = new ClassServerProbe();

/**
 * Asks once, when the app starts (src/app/shell/main.ts), before the first page shows; and
 * gives the exercise pages their way to the class board, loaded only once the class server
 * has answered and an exercise page asks for it.
 */
export function startClassProbe(): void {
  classServer.start();
  const relay = async () => {
    await classServer.answered;
    return classServer.present ? (await import('./exercise-relay.ts')).exerciseRelay : null;
  };
  setExerciseRelay({
    classFor: async (exercise) => (await relay())?.classFor(exercise) ?? null,
    send: async (outcome) => (await relay())?.send(outcome) ?? null,
  });
}
