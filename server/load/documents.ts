// Results documents and what the board and the export cost: the plan and a small size
// cap are checked at the door, the board reads summaries only, and the zip export is
// written piece by piece while the server keeps answering.
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { Device, percentile, sleep } from './client.ts';
import { fmtMs, type ClassUnderTest } from './pace.ts';
import { planResults } from './server-process.ts';
import type { Row } from './report.ts';

export async function offPlanAndLarge(klass: ClassUnderTest): Promise<Row> {
  const student = klass.students[1];
  const results = klass.at('results', { id: student.id, done: true });
  const offPlan = planResults(0, { ...DEFAULT_CLASS_PLAN, sizes: [...DEFAULT_CLASS_PLAN.sizes, 1048576] });
  const tooMany = planResults(0, DEFAULT_CLASS_PLAN, DEFAULT_CLASS_PLAN.rounds + 5);
  // 7 MiB was the old cap: one long "reason" per run is what a hostile document can grow.
  const large = JSON.stringify(planResults(0, DEFAULT_CLASS_PLAN)).replace('{', `{${' '.repeat(1024 * 1024)}`);
  const statuses = [];
  for (const raw of [JSON.stringify(offPlan), JSON.stringify(tooMany), large]) {
    statuses.push((await student.device.call(results, { raw, token: student.token })).status);
  }
  return { check: '6 results vs plan', did: 'off-plan size; more samples than rounds; 1 MiB body', measured: statuses.join('; '), target: '400; 400; 413', pass: statuses.join() === '400,400,413' };
}

export async function boardReads(klass: ClassUnderTest, reads: number): Promise<Row> {
  const device = new Device();
  const times: number[] = [];
  let entries = 0;
  for (let i = 0; i < reads; i++) {
    const answer = await device.call(klass.at('board'));
    times.push(answer.ms);
    entries = answer.body.entries.length;
  }
  // Ten boards loading at once, as ten phones opening the class page.
  const burst = await Promise.all(Array.from({ length: 10 }, () => new Device().call(klass.at('board'))));
  const burstMs = Math.max(...burst.map((a) => a.ms));
  const p99 = percentile(times, 0.99);
  return { check: '6 board reads', did: `${reads} reads of a ${entries}-machine board, then 10 at once`, measured: `p99 ${fmtMs(p99)}; 10 at once ${fmtMs(burstMs)}`, target: 'p99 <= 100 ms; <= 1 s', pass: p99 <= 100 && burstMs <= 1000, speed: true };
}

export async function exportWhileServing(klass: ClassUnderTest): Promise<Row[]> {
  const teacher = new Device();
  const probe = new Device();
  let exporting = true;
  const pings: number[] = [];
  const pinging = (async () => {
    while (exporting) {
      pings.push((await probe.call(klass.at('probe'))).ms);
      await sleep(10);
    }
  })();
  const answer = await teacher.call(klass.at('exportZip'), { token: klass.teacherToken });
  exporting = false;
  await pinging;
  const zip = answer.body as Buffer;
  // The end-of-central-directory record's entry count: the CSV plus one file per machine.
  const files = zip.length >= 22 ? zip.readUInt16LE(zip.length - 22 + 10) : 0;
  // Machines that sent nothing have no document to export.
  const entries = (await teacher.call(klass.at('board'), { token: klass.teacherToken })).body.entries.filter((e: { silent: boolean }) => !e.silent).length;
  const worst = Math.max(...pings);
  // The export's files are held on any machine; the pings' time is a time alone (Row.speed).
  return [
    {
      check: '6 zip export',
      did: `export ${entries} documents (${(zip.length / 1024).toFixed(0)} KiB) in ${fmtMs(answer.ms)}`,
      measured: `${answer.status}; ${files} files`,
      target: `200; ${entries + 1} files`,
      pass: answer.status === 200 && files === entries + 1,
    },
    { check: '6 pings during export', did: 'the server answers pings while it zips', measured: `slowest ping ${fmtMs(worst)}`, target: '<= 250 ms', pass: worst <= 250, speed: true },
  ];
}
