// npm run bench -- [--stages 0,4,9] [--sizes 1KiB,64KiB] [--rounds N] [--browser [chromium,firefox]] [--native] [--json FILE] [--benchfmt FILE]
// npm run bench -- --file PATH [--browser LIST] [--native] [--rounds N] [--json FILE]
// npm run bench -- --exercise N|LIST|all [--browser LIST] [--rounds N]
//
// Runs the benchmark engine from the command line: in Node worker threads, or with
// --browser in a Web Worker of headless browsers, one after the other, each runtime's runs
// kept apart in one results document. Progress goes to stderr; stdout gets
// the table benchstat would print for the lesson (every stage against the previous one
// and against blake3-wasm, with p-values, Holm-adjusted p and a verdict). With --native
// the blake3 crate compiled natively is timed too, in slices of rounds that take turns
// with the JavaScript runs, and the tables say "x native-sse41". With --file, stages 10 and
// 11 hash one file from disk in headless Chromium (or each --browser), as the file page
// does, in turns with stage 11's workers reading only and with b3sum (--native), and the
// table says "x b3sum" and "x read-only". Ctrl-C stops the run and still reports the
// samples taken so far.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setMaxListeners } from 'node:events';
import { parseCliArgs, USAGE, type CliOptions } from '../src/node/cli-args.ts';
import { DEFAULT_SAMPLE_TARGET_MS, WARMUP_MS } from '../src/core/bench/plan.ts';
import { formatSize } from '../src/core/format.ts';
import type { Progress } from '../src/core/bench/runner.ts';
import type { Results } from '../src/core/bench/results.ts';
import { describeRuntime, runtimesOf, mergeRuntimeResults, splitByRuntime } from '../src/core/bench/runtimes.ts';
import { compareStages } from '../src/core/results/analysis/stage-report.ts';
import { formatStageReport } from '../src/core/results/text/report-text.ts';
import { toBenchfmt } from '../src/core/results/io/benchfmt-write.ts';
import { runtimeLadder, runtimeModels, ladderSizes } from '../src/core/results/analysis/runtime-ladder.ts';
import { formatLadderText } from '../src/core/results/text/ladder-text.ts';
import { NATIVE_REFERENCE_ID, withNative, type NativeOutput } from '../src/core/bench/native-results.ts';
import { formatLimitText } from '../src/core/results/text/native-summary.ts';
import { joinSlices, sliceRounds } from '../src/node/slices.ts';
import type { NativeProgram } from '../src/node/native-run.ts';

const tty = process.stderr.isTTY === true;
/** On a terminal the progress line redraws often; in a log, one line every few seconds. */
const PROGRESS_EVERY_MS = tty ? 100 : 5000;

function progressPrinter(): { print(progress: Progress): void; end(): void } {
  let last = 0;
  let drawn = false;
  return {
    print(p) {
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      const where = p.round === 0 ? 'preparing' : `round ${p.round}/${p.rounds}`;
      const line = `[${(p.fraction * 100).toFixed(0).padStart(3)}%] ${where}: ${p.contestant} at ${formatSize(p.size)}`;
      if (tty) {
        process.stderr.write(`\r\x1b[2K${line}`);
        drawn = true;
      } else process.stderr.write(`${line}\n`);
    },
    end() {
      if (drawn) process.stderr.write('\r\x1b[2K');
    },
  };
}

async function run(options: CliOptions, signal: AbortSignal, onProgress: (p: Progress) => void, endProgress: () => void): Promise<Results> {
  if (options.browsers.length > 0) {
    const { BROWSERS, runInBrowsers } = await import('../src/node/browsers.ts');
    const parts = await runInBrowsers(options.browsers, options.plan, {
      onProgress,
      signal,
      label: options.label,
      onPageError: (message) => process.stderr.write(`\n${message}\n`),
      onBrowser: (id) => {
        endProgress();
        process.stderr.write(`bench: now in headless ${BROWSERS[id].name} (${BROWSERS[id].jsEngine})\n`);
      },
    });
    return mergeRuntimeResults(parts);
  }
  const { startNodeBenchmark } = await import('../src/node/node.ts');
  const running = startNodeBenchmark(options.plan, { onProgress }, { label: options.label });
  signal.addEventListener('abort', () => running.cancel(), { once: true });
  return running.done;
}

/** The native program built, or null with the reason printed: the run goes on without it. */
async function nativeProgram(): Promise<NativeProgram | null> {
  const { buildNative, findCargo } = await import('../src/node/native-run.ts');
  const cargo = await findCargo();
  if (!cargo) {
    process.stderr.write('bench: --native: no cargo on PATH (or in ~/.cargo/bin), so no native rows; install Rust with rustup to get them\n');
    return null;
  }
  try {
    return await buildNative(cargo, (line) => process.stderr.write(`bench: ${line}\n`));
  } catch (error) {
    process.stderr.write(`bench: --native: ${(error as Error).message}\nbench: the run goes on without native rows\n`);
    return null;
  }
}

/** One slice of native rounds; later slices keep the hashes per sample the first one chose. */
async function timeNative(program: NativeProgram, options: CliOptions, rounds: number, earlier: NativeOutput[]): Promise<NativeOutput[]> {
  const { iterationsOf, runNative } = await import('../src/node/native-run.ts');
  return runNative(program, {
    sizes: options.plan.sizes,
    rounds,
    sampleTargetMs: options.plan.sampleTargetMs ?? DEFAULT_SAMPLE_TARGET_MS,
    warmupMs: WARMUP_MS,
    iterations: iterationsOf(earlier),
  });
}

/**
 * With native code: a few slices, each a slice of native rounds and then the same number
 * of JavaScript rounds, so both are measured in the same stretches of time (src/node/slices.ts).
 */
async function runWithNative(program: NativeProgram, options: CliOptions, signal: AbortSignal, onProgress: (p: Progress) => void, endProgress: () => void): Promise<Results> {
  const slices = sliceRounds(options.plan.rounds);
  process.stderr.write(`bench: native code and the JavaScript runs take turns, in ${slices.length} slices of ${slices.join(', ')} rounds\n`);
  const parts: Results[] = [];
  const outputs: NativeOutput[] = [];
  for (const [i, rounds] of slices.entries()) {
    if (signal.aborted) break;
    endProgress();
    process.stderr.write(`bench: slice ${i + 1} of ${slices.length}: native code, ${rounds} round${rounds === 1 ? '' : 's'}\n`);
    outputs.push(...(await timeNative(program, options, rounds, outputs)));
    parts.push(await run({ ...options, plan: { ...options.plan, rounds } }, signal, onProgress, endProgress));
  }
  const { measurementOf } = await import('../src/node/native-run.ts');
  return withNative(joinSlices(parts), measurementOf(program, outputs));
}

/** Everything that did not simply finish, with its reason, once per contestant and reason. */
function notes(results: Results): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const r of results.runs) {
    if (r.status === 'ok') continue;
    const key = `${r.contestant}\0${r.status}\0${r.status === 'timeboxed' ? r.size : r.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const at = r.status === 'timeboxed' || r.status === 'cancelled' ? ` at ${formatSize(r.size)}` : '';
    lines.push(`  ${r.contestant}${at}: ${r.status}${r.reason ? ` (${r.reason})` : ''}`);
  }
  return lines;
}

/** --file: stages 10 and 11, reading only (and b3sum) on one file, in each browser; the tables and the summaries on stdout. */
async function runFile(options: CliOptions, signal: AbortSignal): Promise<number> {
  const { runFileBench } = await import('../src/node/file-bench.ts');
  const { B3SUM_ID, B3SUM_THREADS_ID, READ_ONLY_ID, formatCpuTable, formatFileSummary } = await import('../src/core/file/bench-results.ts');
  const rounds = options.plan.rounds;
  const where = `headless ${options.browsers.join(', then ')}`;
  process.stderr.write(`bench: ${options.file}: stages 10 and 11, reading only${options.native ? ' and b3sum' : ''} in turns, ${rounds} round${rounds === 1 ? '' : 's'}, in ${where}\n`);
  const { results, cpu } = await runFileBench({ path: options.file!, rounds, browsers: options.browsers, readers: options.readers, native: options.native, label: options.label, signal, log: (line) => process.stderr.write(`bench: ${line}\n`) });
  if (options.json) write(options.json, `${JSON.stringify(results, null, 2)}\n`);
  if (options.benchfmt) write(options.benchfmt, toBenchfmt(results));
  for (const contestant of results.contestants) process.stderr.write(`bench: ${contestant.id}: ${contestant.note}\n`);
  if (!results.runs.some((r) => r.nsPerOp.length > 0)) process.stderr.write('bench: no samples were taken, so there is no table\n');
  else {
    const perRuntime = splitByRuntime(results);
    for (const part of perRuntime) {
      if (perRuntime.length > 1) process.stdout.write(`\n## ${describeRuntime(runtimesOf(part)[0])}\n\n`);
      process.stdout.write(`${formatStageReport(compareStages(part, { baseline: B3SUM_THREADS_ID, native: B3SUM_ID, ceiling: READ_ONLY_ID }))}\n${formatFileSummary(part)}`);
    }
    if (cpu.length > 0) process.stdout.write(`\n${formatCpuTable(cpu)}`);
  }
  const failed = results.runs.filter((r) => r.status === 'failed');
  for (const run of failed) process.stderr.write(`bench: ${run.contestant} failed: ${run.reason}\n`);
  return failed.length > 0 ? 1 : 0;
}

/** How many times --exercise runs an exercise again, with twice the rounds each time, while its verdict is "unclear". */
const EXERCISE_AGAIN = 2;

/** --exercise: each exercise's starting point and reference in one run, judged by the exercise page's rule; one table on stdout. */
async function runExercises(options: CliOptions, exercises: number[], signal: AbortSignal): Promise<number> {
  const { checkExercise, exercisePlan, formatExerciseTable } = await import('../src/node/exercise-bench.ts');
  // Each run listens for Ctrl-C on the one signal: as many listeners as runs is no leak.
  setMaxListeners(10 + exercises.length * Math.max(1, options.browsers.length), signal);
  const checks: Parameters<typeof formatExerciseTable>[0][number][] = [];
  const parts: Results[] = [];
  for (const index of exercises) {
    for (const browser of options.browsers.length > 0 ? options.browsers : [null]) {
      const where = browser ?? 'node';
      // As the exercise page offers "measure again with more rounds": a run that cannot
      // tell is run again with twice the rounds, up to EXERCISE_AGAIN times.
      for (let again = 0, rounds = options.plan.rounds; !signal.aborted; again++, rounds *= 2) {
        const plan = exercisePlan(index, { rounds, sampleTargetMs: options.plan.sampleTargetMs, timeBoxMs: options.plan.timeBoxMs, sharedInput: options.plan.sharedInput });
        process.stderr.write(`bench: exercise ${index} in ${where}: ${plan.contestants.join(' and ')} at ${plan.sizes.map(formatSize).join(', ')}, ${rounds} rounds\n`);
        const printer = progressPrinter();
        const results = await run({ ...options, browsers: browser ? [browser] : [], plan }, signal, (p) => printer.print(p), () => printer.end());
        printer.end();
        const check = checkExercise(index, results, where);
        const unclear = check !== null && (check.reference.status === 'unclear' || check.start.status === 'unclear');
        if (unclear && again < EXERCISE_AGAIN) continue;
        parts.push(results);
        checks.push(check ?? { index, where, missing: 'a side has no samples at one of its sizes' });
        break;
      }
    }
  }
  if (options.json) write(options.json, `${JSON.stringify(parts, null, 2)}\n`);
  process.stdout.write(formatExerciseTable(checks));
  const unsound = checks.filter((c) => 'missing' in c || !c.sound);
  process.stdout.write(unsound.length === 0 ? '\nEvery reference meets its goal here, and no starting point does.\n' : `\nNot as it should be here: exercise ${[...new Set(unsound.map((c) => c.index))].join(', ')} (a reference short of its goal or unclear, or a starting point that meets it: "unclear" asks for more --rounds).\n`);
  return unsound.length === 0 ? 0 : 1;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  process.stderr.write(`wrote ${path}\n`);
}

async function main(argv: string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  for (const note of options.deprecated) process.stderr.write(`bench: ${note}\n`);
  if (options.file !== undefined) return runFile(options, stopOnCtrlC('stopping after this hash'));
  if (options.exercises) return runExercises(options, options.exercises, stopOnCtrlC('stopping'));
  const { plan } = options;
  const where = options.browsers.length > 0 ? `headless ${options.browsers.join(', then ')} (Web Workers)` : 'Node worker threads';
  process.stderr.write(`bench: ${plan.contestants.length} contestants x ${plan.sizes.length} sizes x ${plan.rounds} rounds in ${where}${plan.sharedInput ? ', inputs in shared memory' : ''}\n`);
  const signal = stopOnCtrlC('stopping');
  const started = Date.now();
  const printer = progressPrinter();
  const program = options.native ? await nativeProgram() : null;
  const onProgress = (p: Progress) => printer.print(p);
  const endProgress = () => printer.end();
  const results = program ? await runWithNative(program, options, signal, onProgress, endProgress) : await run(options, signal, onProgress, endProgress);
  printer.end();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  printRuntimes(results, seconds);
  if (options.json) write(options.json, `${JSON.stringify(results, null, 2)}\n`);
  if (options.benchfmt) write(options.benchfmt, toBenchfmt(results));
  printTables(results);
  return results.runs.some((r) => r.status === 'failed') ? 1 : 0;
}

/** The first Ctrl-C aborts the run (`doing` says how), whose samples so far are still reported; a second one quits at once. */
function stopOnCtrlC(doing: string): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write(`\nbench: ${doing}; the samples so far will be reported (Ctrl-C again to quit at once)\n`);
    controller.abort();
  });
  return controller.signal;
}

/** To stderr: how long the run took, the contestants' notes, and each runtime's timer and the runs that did not finish. */
function printRuntimes(results: Results, seconds: string): void {
  const { env } = results;
  process.stderr.write(`bench: done in ${seconds} s on ${env.os}, ${env.cores} cores\n`);
  for (const contestant of results.contestants.filter((c) => c.note)) {
    process.stderr.write(`bench: ${contestant.id} ${contestant.note}\n`);
  }
  for (const part of splitByRuntime(results)) {
    const [runtime] = runtimesOf(part);
    // Three digits, and 5000 stays 5000: toPrecision alone would print "5.00e+3".
    const timerNs = Number(runtime.timerResolutionNs.toPrecision(3));
    process.stderr.write(
      `bench: ${describeRuntime(runtime)}: timer ${timerNs} ns` +
        `${part.env.runtime === 'browser' ? `, cross-origin isolated: ${runtime.crossOriginIsolated ? 'yes' : 'no'}` : ''}\n`,
    );
    const remarks = notes(part);
    if (remarks.length) process.stderr.write(`not every run finished in ${runtime.name}:\n${remarks.join('\n')}\n`);
  }
}

/** To stdout: each runtime's table of the stages (and its limit, with native rows), then the engines side by side when there are several. */
function printTables(results: Results): void {
  const perRuntime = splitByRuntime(results);
  if (!results.runs.some((r) => r.nsPerOp.length > 0)) process.stderr.write('bench: no samples were taken, so there is no table\n');
  for (const part of perRuntime) {
    if (!part.runs.some((r) => r.nsPerOp.length > 0)) continue;
    if (perRuntime.length > 1) process.stdout.write(`\n## ${describeRuntime(runtimesOf(part)[0])}\n\n`);
    process.stdout.write(formatStageReport(compareStages(part, { native: NATIVE_REFERENCE_ID })));
    const limit = formatLimitText(part);
    if (limit) process.stdout.write(`\n${limit}`);
  }
  if (perRuntime.length > 1) {
    // The engines side by side: each engine's MB/s, and its multiple of blake3-wasm in that same engine.
    const models = runtimeModels(results);
    process.stdout.write('\n## Engines side by side (median MB/s; x wasm = over blake3-wasm in the same engine)\n');
    for (const size of ladderSizes(models)) process.stdout.write(`\n${formatLadderText(runtimeLadder(models, size))}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
