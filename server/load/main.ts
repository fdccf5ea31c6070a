// `npm run load:class`: a class server on 127.0.0.1 under a real class and its attackers,
// every check of the class board's limits in one run, printed as a table.
//
//   --students N   students at the app's pace (default 200)
//   --seconds S    how long they post (default 30); the whole run stays within a few minutes
//   --json         the rows as JSON instead of the table
//
// Loopback only, bounded, and it stops its server by itself. Exit status 1 if a check fails.
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import { Device } from './client.ts';
import { boardReads, exportWhileServing, offPlanAndLarge } from './documents.ts';
import { hiddenLeavesBoards, hostOnly, nicknames, oneDeviceFills, teacherControls } from './hostile.ts';
import { addressesOf, classAtPace, joinStudents, type ClassUnderTest } from './pace.ts';
import { startServer } from './server-process.ts';
import { manyStreams, slowReaders } from './streams.ts';
import { formatTable, type Row } from './report.ts';
import { path } from '../../src/core/class/protocol.ts';

export interface LoadOptions {
  students: number;
  seconds: number;
  /** Progress lines (to stderr), so a long run shows where it is. */
  log?: (line: string) => void;
}

export async function runLoad({ students, seconds, log = () => {} }: LoadOptions): Promise<Row[]> {
  const server = await startServer();
  try {
    const host = new Device();
    const started = await host.call(`${server.url}${path('start')}`, { body: { plan: DEFAULT_CLASS_PLAN }, token: server.hostKey });
    if (started.status !== 201) throw new Error(`starting the class: ${started.status} ${JSON.stringify(started.body)}`);
    const at = addressesOf(server.url, started.body.code);
    const projector = await new Device().stream(at('events'));
    const klass: ClassUnderTest = { url: server.url, at, teacherToken: started.body.teacherToken, projector, students: [] };
    const rows: Row[] = [];
    log(`${students} students join`);
    const joined = await joinStudents(klass, students, 'student');
    const joinedOk = joined.filter((s) => s === 201).length;
    rows.push({ check: '0 join', did: `${students} students join from their own devices`, measured: `${joinedOk} joined`, target: 'all', pass: joinedOk === students });
    log(`class at the app's pace for ${seconds} s, under a token-less flood`);
    rows.push(...(await classAtPace(klass, seconds)));
    log('nicknames, one device filling the class, the teacher’s controls, the host’s key');
    rows.push(...(await nicknames(klass)));
    rows.push(await oneDeviceFills(klass));
    rows.push(await teacherControls(klass));
    rows.push(await hostOnly(server.url, server.hostKey));
    log('event streams');
    rows.push(await manyStreams(klass, 600));
    rows.push(await slowReaders(server, 20, 30));
    log('results documents, the board, the export');
    rows.push(await offPlanAndLarge(klass));
    rows.push(await boardReads(klass, 100));
    rows.push(await exportWhileServing(klass));
    rows.push(await hiddenLeavesBoards(klass));
    projector.close();
    return rows;
  } finally {
    await server.stop();
  }
}

function parseArgs(args: string[]): { students: number; seconds: number; json: boolean } {
  const options = { students: 200, seconds: 30, json: false };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--json') {
      options.json = true;
      continue;
    }
    const value = Number(args[++i]);
    if (flag === '--students' && Number.isInteger(value) && value >= 10 && value <= 480) options.students = value;
    else if (flag === '--seconds' && value >= 5 && value <= 120) options.seconds = value;
    else throw new Error(`${flag} ${args[i] ?? ''}: the options are --students 10..480, --seconds 5..120 and --json`);
  }
  return options;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const rows = await runLoad({ ...options, log: (line) => process.stderr.write(`load:class: ${line}\n`) });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (options.json) process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
  else process.stdout.write(`Class server under load, ${options.students} students, on 127.0.0.1 (${seconds} s)\n\n${formatTable(rows)}\n`);
  process.exit(rows.every((row) => row.pass) ? 0 : 1);
}
