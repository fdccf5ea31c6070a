// npm test: the unit tests and the browser tests at the same time (the unit tests use the
// processor while the browser project builds the app and waits on pages), then the ten
// slowest test files. Arguments go to both, e.g. `npm test -- tests/share-link.test.ts`.
// The unit project's output is shown as it comes; the browser project's from when the
// unit project ends, so the two never interleave. Exits non-zero if either fails.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileTime } from './file-times-reporter.ts';

const SLOWEST = 10;

function run(project: string, times: string, live: () => boolean, held: Buffer[]) {
  // With a filter, a project may have no file that matches it: that is not a failure.
  const filter = process.argv.slice(2);
  const child = spawn('npx', ['vitest', 'run', '--project', project, ...filter, ...(filter.length > 0 ? ['--passWithNoTests'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      BLAKE3_LAB_FILE_TIMES: times,
      // Every temporary folder of the run (class databases, downloads, browser profiles,
      // certificates, the build) goes in this one, removed when the run ends.
      TMPDIR: dir,
      // Beside the browser project, whose pages keep the cores busy, the unit project takes a
      // worker per core, not the two per core it takes alone (vitest.config.ts): more would
      // only take the processor from the browser files, the longer of the two.
      BLAKE3_LAB_UNIT_WORKERS: String(availableParallelism()),
      FORCE_COLOR: process.stdout.isTTY ? '1' : '0',
    },
  });
  const forward = (to: NodeJS.WriteStream) => (chunk: Buffer) => (live() ? to.write(chunk) : held.push(chunk));
  child.stdout.on('data', forward(process.stdout));
  child.stderr.on('data', forward(process.stderr));
  return new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const dir = mkdtempSync(join(tmpdir(), 'blake3-lab-test-'));
const times = join(dir, 'times.jsonl');
const started = performance.now();
let unitDone = false;
const held: Buffer[] = [];
const unit = run('unit', times, () => true, []).then((code) => {
  unitDone = true;
  for (const chunk of held.splice(0)) process.stdout.write(chunk);
  return code;
});
const browser = run('browser', times, () => unitDone, held);
const [unitCode, browserCode] = await Promise.all([unit, browser]);

let rows: FileTime[] = [];
try {
  rows = readFileSync(times, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as FileTime);
} catch {
  // No file: neither project ran a file.
}
rmSync(dir, { recursive: true, force: true });
rows.sort((a, b) => b.seconds - a.seconds);
// Every file's time, slowest first, when asked for (e.g. to compare two runs).
if (process.env.BLAKE3_LAB_TIMES_OUT) writeFileSync(process.env.BLAKE3_LAB_TIMES_OUT, `${JSON.stringify(rows, null, 1)}\n`);
console.log(`\nnpm test: unit ${unitCode === 0 ? 'passed' : 'FAILED'}, browser ${browserCode === 0 ? 'passed' : 'FAILED'}, in ${((performance.now() - started) / 1000).toFixed(0)} s. The ${SLOWEST} slowest test files:`);
for (const row of rows.slice(0, SLOWEST)) console.log(`${row.seconds.toFixed(1).padStart(8)} s  ${row.project.padEnd(8)} ${row.file}`);
process.exitCode = unitCode === 0 && browserCode === 0 ? 0 : 1;
