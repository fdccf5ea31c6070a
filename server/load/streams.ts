// Event streams under abuse: one device opening hundreds, and readers that stop reading
// while the class keeps sending (the server's memory must not follow their backlog).
import { DEFAULT_CONTESTANT_IDS } from '../../src/core/bench/contestants.ts';
import { DEFAULT_SIZES } from '../../src/core/bench/plan.ts';
import { anonymousStreams } from '../limits.ts';
import { address, addressesOf } from './addresses.ts';
import { Device, pool, sleep } from './client.ts';
import type { ClassUnderTest } from './pace.ts';
import { planResults, type LoadServer } from './server-process.ts';
import type { Row } from './report.ts';

/**
 * One device opens hundreds of streams without joining: it gets the pool of pages that
 * have not joined (twice the class's places, and twenty), never the teacher's places or a
 * joined machine's, which still connect.
 */
export async function manyStreams(klass: ClassUnderTest, count: number, size: number, teacherTicket: string): Promise<Row> {
  const device = new Device();
  const opened = await pool(Array.from({ length: count }, (_, i) => i), 50, () => device.stream(klass.at('events')));
  const accepted = opened.filter((s) => s.status === 200).length;
  const projector = await new Device().stream(klass.at('events', { ticket: teacherTicket }));
  const student = klass.students[klass.students.length - 1];
  const own = await student.device.stream(klass.at('events', { ticket: student.ticket }));
  for (const stream of [...opened, projector, own]) stream.close();
  const room = anonymousStreams(size);
  return {
    check: '5 streams without joining',
    did: `${count} idle streams from one device, then a projector and a student`,
    measured: `${accepted} accepted; projector ${projector.status}; student ${own.status}`,
    target: `<= ${room}; 200; 200`,
    pass: accepted <= room && projector.status === 200 && own.status === 200,
  };
}

/** Bytes each board is sent in the slow-reader check: past what the kernel holds for a reader that stopped (~4 MiB here), then some. */
const SLOW_READER_BYTES = 16 * 1024 * 1024;

/** A class of its own whose one machine measured every contestant at every size: each of its entries is a few kB. */
async function wideClass(server: LoadServer) {
  const plan = { contestants: DEFAULT_CONTESTANT_IDS.filter((id) => id !== 'sha256'), sizes: [...DEFAULT_SIZES], rounds: 3 };
  const host = new Device();
  const started = await host.call(address(server.url, 'start'), { body: { plan }, token: server.hostKey });
  const at = addressesOf(server.url, started.body.code);
  const student = (await host.call(at('join'), { body: { nickname: 'wide' } })).body;
  await host.call(at('results', { id: student.id, done: true }), { raw: JSON.stringify(planResults(1, plan)), token: student.token });
  host.close();
  return { at, teacherToken: started.body.teacherToken as string, id: student.id as string };
}

/**
 * Readers that never read, on devices of their own, while the teacher's toggling sends
 * entries to every board of the class, until a board that does read has been sent 16 MiB
 * (or `seconds` pass). The server drops each slow one once its backlog passes 256 KiB; a
 * dropped stream ends once its reader reads again, a kept one stays open.
 */
export async function slowReaders(server: LoadServer, readers: number, seconds: number): Promise<Row> {
  const wide = await wideClass(server);
  const slow = await Promise.all(Array.from({ length: readers }, () => new Device().stream(wide.at('events'))));
  for (const stream of slow) stream.pause();
  let ended = 0;
  for (const stream of slow) void stream.ended.then(() => ended++);
  const reader = await new Device().stream(wide.at('events'));
  const rssBefore = server.rssMiB();
  let rssPeak = rssBefore;
  const teachers = Array.from({ length: 4 }, () => new Device());
  const until = performance.now() + seconds * 1000;
  const enough = () => reader.bytes >= SLOW_READER_BYTES || performance.now() > until;
  let sent = 0;
  await Promise.all(
    teachers.flatMap((teacher) =>
      Array.from({ length: 4 }, async () => {
        while (!enough()) {
          await teacher.call(wide.at('hidden', { id: wide.id }), { body: { hidden: false }, token: wide.teacherToken });
          if (++sent % 100 === 0) rssPeak = Math.max(rssPeak, server.rssMiB());
        }
      }),
    ),
  );
  const startedAt = until - seconds * 1000;
  const took = (performance.now() - startedAt) / 1000;
  rssPeak = Math.max(rssPeak, server.rssMiB());
  for (const stream of slow) stream.drain();
  for (let waited = 0; ended < readers && waited < 10_000; waited += 250) await sleep(250);
  const dropped = ended;
  for (const stream of [...slow, reader]) stream.close();
  for (const teacher of teachers) teacher.close();
  const growth = rssPeak - rssBefore;
  return {
    check: '5 slow readers',
    did: `${readers} streams never read while ${(reader.bytes / 1048576).toFixed(0)} MiB of entries went out (${took.toFixed(1)} s)`,
    measured: `${dropped}/${readers} dropped; server memory +${growth.toFixed(0)} MiB (peak ${rssPeak.toFixed(0)} MiB)`,
    target: 'all dropped; < +100 MiB',
    pass: dropped === readers && growth < 100,
  };
}
