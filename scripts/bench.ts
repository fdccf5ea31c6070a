// npm run bench -- [--stages 0,4,9] [--sizes 1KiB,64KiB] [--rounds N] [--browser] [--json FILE] [--gofmt FILE]
//
// Runs the benchmark engine from the command line: in Node worker threads, or with
// --browser in a Web Worker of headless Chromium. Progress goes to stderr; stdout gets
// the table benchstat would print for the lesson (every stage against the previous one
// and against blake3-wasm, with p-values, Holm-adjusted p and a verdict). Ctrl-C stops
// the run and still reports the samples taken so far.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseCliArgs, USAGE, type CliOptions } from '../src/bench/cli-args.ts';
import { formatSize } from '../src/bench/plan.ts';
import type { Progress } from '../src/bench/runner.ts';
import type { Results } from '../src/bench/results.ts';
import { compareStages } from '../src/results/compare.ts';
import { formatStageReport } from '../src/results/compare-text.ts';
import { toGoBench } from '../src/results/gofmt.ts';

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

async function run(options: CliOptions, signal: AbortSignal, onProgress: (p: Progress) => void): Promise<Results> {
  if (options.browser) {
    const { runInChromium } = await import('../src/bench/chromium.ts');
    return runInChromium(options.plan, {
      onProgress,
      signal,
      label: options.label,
      onPageError: (message) => process.stderr.write(`\n${message}\n`),
    });
  }
  const { startNodeBenchmark } = await import('../src/bench/node.ts');
  const running = startNodeBenchmark(options.plan, { onProgress }, { label: options.label });
  signal.addEventListener('abort', () => running.cancel(), { once: true });
  return running.done;
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
  const { plan } = options;
  process.stderr.write(
    `bench: ${plan.contestants.length} contestants x ${plan.sizes.length} sizes x ${plan.rounds} rounds in ${options.browser ? 'headless Chromium (Web Workers)' : 'Node worker threads'}\n`,
  );
  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\nbench: stopping; the samples so far will be reported (Ctrl-C again to quit at once)\n');
    controller.abort();
  });
  const started = Date.now();
  const printer = progressPrinter();
  const results = await run(options, controller.signal, (p) => printer.print(p));
  printer.end();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const { env } = results;
  // Three digits, and 5000 stays 5000: toPrecision alone would print "5.00e+3".
  const timerNs = Number(env.timerResolutionNs.toPrecision(3));
  process.stderr.write(
    `bench: done in ${seconds} s on ${env.runtimeVersion}, ${env.os}, ${env.cores} cores; timer ${timerNs} ns` +
      `${env.runtime === 'browser' ? `, cross-origin isolated: ${env.crossOriginIsolated ? 'yes' : 'no'}` : ''}\n`,
  );
  const remarks = notes(results);
  if (remarks.length) process.stderr.write(`not every run finished:\n${remarks.join('\n')}\n`);

  if (options.json) write(options.json, `${JSON.stringify(results, null, 2)}\n`);
  if (options.gofmt) write(options.gofmt, toGoBench(results));
  if (results.runs.some((r) => r.nsPerOp.length > 0)) process.stdout.write(formatStageReport(compareStages(results)));
  else process.stderr.write('bench: no samples were taken, so there is no table\n');
  return results.runs.some((r) => r.status === 'failed') ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
