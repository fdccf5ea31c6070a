// `npm run load:class`: class servers on 127.0.0.1 under real classes and their attackers,
// every check of the class board's limits, printed as one table. Each scenario starts a
// server of its own and stops it.
//
//   --students N            students at the app's pace (default 200)
//   --seconds S             how long they post (default 30); the whole run stays within a few minutes
//   --scenario A[,B]        which to run (default class,slow,storm,restart; "all" adds school):
//                             class    students on devices of their own, a flood, every hostile check
//                             school   a class behind one address, with its size and a script on it
//                             slow     650 slow heads and 650 slow bodies against the projector and joins
//                             storm    200 pages reconnecting while the class posts: the projector's lag
//                             restart  kill -9 mid-class, then a restart on the same data
//   --slow N                slow connections of each kind (default 650)
//   --json                  the rows as JSON instead of the table
//
// Loopback only, bounded, and it stops its servers by itself. Exit status 1 if a check fails.
import { classScenario } from './class-scenario.ts';
import { restartScenario } from './restart.ts';
import { schoolScenario } from './school.ts';
import { slowClientsScenario } from './slow-clients.ts';
import { stormScenario } from './storm.ts';
import { formatTable, type Row } from './report.ts';

export const SCENARIOS = ['class', 'school', 'slow', 'storm', 'restart'] as const;
export type Scenario = (typeof SCENARIOS)[number];
export const DEFAULT_SCENARIOS: Scenario[] = ['class', 'slow', 'storm', 'restart'];

export interface LoadOptions {
  students: number;
  seconds: number;
  scenarios?: Scenario[];
  /** Slow connections of each kind in the slow scenario. */
  slow?: number;
  /** Progress lines (to stderr), so a long run shows where it is. */
  log?: (line: string) => void;
}

export async function runLoad({ students, seconds, scenarios = DEFAULT_SCENARIOS, slow = 650, log = () => {} }: LoadOptions): Promise<Row[]> {
  const rows: Row[] = [];
  for (const scenario of scenarios) {
    log(`scenario ${scenario}`);
    if (scenario === 'class') rows.push(...(await classScenario(students, seconds, log)));
    else if (scenario === 'school') rows.push(...(await schoolScenario(students, seconds, log)));
    else if (scenario === 'slow') rows.push(...(await slowClientsScenario(slow, log)));
    else if (scenario === 'storm') rows.push(...(await stormScenario(students, seconds, log)));
    else rows.push(...(await restartScenario(Math.min(students, 60), Math.max(10, Math.min(seconds, 20)), log)));
  }
  return rows;
}

function parseScenarios(value: string): Scenario[] {
  if (value === 'all') return [...SCENARIOS];
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown !== undefined) throw new Error(`--scenario ${value}: the scenarios are ${SCENARIOS.join(', ')} (or all)`);
  return names as Scenario[];
}

function parseArgs(args: string[]) {
  const options = { students: 200, seconds: 30, json: false, scenarios: DEFAULT_SCENARIOS, slow: 650 };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--json') {
      options.json = true;
      continue;
    }
    const text = args[++i] ?? '';
    const value = Number(text);
    if (flag === '--students' && Number.isInteger(value) && value >= 10 && value <= 480) options.students = value;
    else if (flag === '--seconds' && value >= 5 && value <= 120) options.seconds = value;
    else if (flag === '--slow' && Number.isInteger(value) && value >= 10 && value <= 2000) options.slow = value;
    else if (flag === '--scenario') options.scenarios = parseScenarios(text);
    else throw new Error(`${flag} ${text}: the options are --students 10..480, --seconds 5..120, --scenario ${SCENARIOS.join('|')}|all, --slow 10..2000 and --json`);
  }
  return options;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const rows = await runLoad({ ...options, log: (line) => process.stderr.write(`load:class: ${line}\n`) });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (options.json) process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
  else process.stdout.write(`Class server under load, ${options.students} students (${options.scenarios.join(', ')}), on 127.0.0.1 (${seconds} s)\n\n${formatTable(rows)}\n`);
  process.exit(rows.every((row) => row.pass) ? 0 : 1);
}
