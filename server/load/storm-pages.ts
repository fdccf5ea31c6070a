// The reconnect storm's pages, in a process of their own (storm.ts starts it): two hundred
// pages that drop their stream and reconnect again and again, each time reloading the
// board with the ETag of the copy they hold, as src/app/class/live.svelte.ts does. Apart from
// the process that times the projector, so the storm's own work never delays the clock
// that measures the server. When `seconds` are over and the class has stopped posting,
// every page drops and reconnects twice more: the board has not changed between those two
// reads, so the second must be answered 304 from the copy the page holds. Prints its tally
// as JSON.
import { addressesOf, type At } from './addresses.ts';
import { Device, sleep } from './client.ts';

/** A page holds its stream this long (at random, ms) before it drops again. */
const HOLD_MS = [300, 1500];

export interface StormTally {
  reconnects: number;
  reads: number;
  notModified: number;
  failed: number;
  /** Pages whose second reconnect after the class stopped posting was answered 304. */
  quietNotModified: number;
}

/** After `seconds`, the wait for the last posts to land before the quiet reconnects. */
const QUIET_AFTER_MS = 1000;

export interface StormPlan {
  /** The server's address (http://host:port) and the class's code. */
  server: string;
  code: string;
  /** Tickets of the joined machines' pages; the other pages have not joined. */
  tickets: string[];
  pages: number;
  seconds: number;
}

/** One reconnect: a new stream, then the board with the ETag of the copy held; returns the read's status. */
async function reconnect(device: Device, at: At, ticket: string | undefined, page: { etag?: string }, tally: StormTally): Promise<number> {
  const stream = await device.stream(at('events', { ticket }));
  tally.reconnects++;
  if (stream.status !== 200) tally.failed++;
  const board = await device.call(at('board'), { headers: page.etag ? { 'If-None-Match': page.etag } : {} });
  tally.reads++;
  if (board.status === 304) tally.notModified++;
  else if (board.status === 200) page.etag = String(board.headers.etag);
  else tally.failed++;
  await sleep(HOLD_MS[0] + Math.random() * (HOLD_MS[1] - HOLD_MS[0]));
  stream.close();
  return board.status;
}

async function stormPage(device: Device, at: At, ticket: string | undefined, until: number, tally: StormTally) {
  const page: { etag?: string } = {};
  while (performance.now() < until) {
    try {
      await reconnect(device, at, ticket, page, tally);
    } catch {
      tally.failed++;
    }
  }
  await sleep(Math.max(0, until + QUIET_AFTER_MS - performance.now()));
  try {
    await reconnect(device, at, ticket, page, tally);
    if ((await reconnect(device, at, ticket, page, tally)) === 304) tally.quietNotModified++;
  } catch {
    tally.failed++;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const plan = JSON.parse(process.argv[2]) as StormPlan;
  const until = performance.now() + plan.seconds * 1000;
  const tally: StormTally = { reconnects: 0, reads: 0, notModified: 0, failed: 0, quietNotModified: 0 };
  const at = addressesOf(plan.server, plan.code);
  await Promise.all(Array.from({ length: plan.pages }, (_, i) => stormPage(new Device(), at, plan.tickets[i], until, tally)));
  process.stdout.write(JSON.stringify(tally) + '\n');
  process.exit(0);
}
