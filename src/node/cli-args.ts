// The command line of `npm run bench`, parsed into a plan. Kept apart from the script so
// its rules (what "--stages 0,4,9" means, which sizes parse) are tested like any code.

import { STAGES } from '../../steps/index.ts';
import { BASELINES } from '../../steps/baselines.ts';
import { contestantById } from '../core/bench/contestants.ts';
import { BROWSER_IDS, type BrowserId } from '../core/bench/runtimes.ts';
import { FILE_DEFAULT_ROUNDS, FILE_STAGE_IDS } from '../core/file/bench-results.ts';
import { READER_KINDS, type ReaderKind } from '../core/file/readers.ts';
import { usage, valueOptions, type UsageOption } from '../core/usage.ts';
import { parseExercises } from './exercise-bench.ts';
import { checkPlan, parseSize, DEFAULT_ROUNDS, DEFAULT_SIZES, type BenchPlan } from '../core/bench/plan.ts';

/** Every option, in the order --help lists it; VALUE is what follows it, when something does. */
const OPTIONS: UsageOption[] = [
  { flag: '--stages', value: 'LIST', help: 'stages by number or id, and any other contestant by id (e.g. 0,4,9 or 08-little-endian,fault-hangs); default: all stages' },
  { flag: '--baselines', value: 'LIST', help: `baseline ids, or "none"; default: all (${BASELINES.map((b) => b.id).join(', ')})` },
  { flag: '--sizes', value: 'LIST', help: "input sizes, e.g. 96,1KiB,64KiB,1MiB; default: the article's seven" },
  { flag: '--rounds', value: 'N', help: `interleaved rounds, one sample each; default: ${DEFAULT_ROUNDS}` },
  { flag: '--sample-ms', value: 'MS', help: 'target length of one sample' },
  { flag: '--time-box-ms', value: 'MS', help: 'most time one contestant may spend at one size' },
  {
    flag: '--input',
    value: 'KIND',
    help: 'where the inputs live: "ordinary" (an ArrayBuffer, the default) or "shared" (a SharedArrayBuffer, as a program that shares its data with workers keeps it: stage 11\'s workers then copy their own pieces)',
  },
  {
    flag: '--browser',
    value: '[LIST]',
    help: `run in headless browsers instead, one after the other: ${BROWSER_IDS.join(', ')} (default: chromium). Chromium is /usr/bin/chromium or CHROMIUM_PATH; Firefox is /usr/bin/firefox-esr or FIREFOX_PATH; WebKit is Debian's WPEWebDriver with cog`,
  },
  {
    flag: '--native',
    help: 'also time the blake3 crate compiled natively (native/, built with cargo; skipped with a note where cargo is missing): one thread at SSE4.1, one thread at the widest SIMD, and all threads, in slices of rounds that take turns with the JavaScript runs; the tables then say "x native-sse41"',
  },
  {
    flag: '--file',
    value: 'PATH',
    help:
      `time stages 10 and 11 on one file, read as the file page reads it, in Chromium or each --browser: one worker, one per core, and the same workers reading only, in turns for --rounds rounds (default ${FILE_DEFAULT_ROUNDS}); ` +
      'with --native also b3sum on one and on every thread; the table says "x b3sum" and "x read-only"',
  },
  {
    flag: '--readers',
    value: 'LIST',
    help: `with --file: also hash and read only with each of these readers alone (${READER_KINDS.join(', ')}), rows hash.READER and read-only.READER, to compare them in each browser`,
  },
  {
    flag: '--exercise',
    value: 'N',
    help: 'check an exercise\'s goal here (a number, a list, or "all"): stage N-1 and stage N at the exercise\'s sizes, judged by the exercise page\'s rule; prints whether the reference meets the goal and the starting point does not',
  },
  { flag: '--json', value: 'FILE', help: 'also write the results document' },
  { flag: '--benchfmt', value: 'FILE', help: 'also write Go benchmark text, benchfmt (for benchstat); --gofmt is its old name, still read' },
  { flag: '--label', value: 'TEXT', help: 'a name for this machine, kept in the results' },
  { flag: '-h, --help', help: 'show this help' },
];

export const USAGE = usage(
  [
    'Usage: npm run bench -- [options]',
    'Times every stage and baseline in worker threads (or in a Web Worker of headless browsers) and prints each stage against the previous one and against blake3-wasm.',
  ],
  OPTIONS,
);

export interface CliOptions {
  plan: BenchPlan;
  /** Browsers to measure in, in order; empty for Node worker threads. */
  browsers: BrowserId[];
  /** Also time native code (native/), in the same run. */
  native: boolean;
  json?: string;
  /** Where to write the run as Go benchmark text (golang.org/x/perf calls the format benchfmt). */
  benchfmt?: string;
  label?: string;
  /** --file: the file to hash; the plan's contestants and sizes do not apply. */
  file?: string;
  /** --file --readers: readers to time alone, besides the page's order. */
  readers?: ReaderKind[];
  /** --exercise: the exercises to check, by stage index; the plan then holds only the rounds and engine settings. */
  exercises?: number[];
  help: boolean;
  /** Options given by an old name, each as a sentence to print. */
  deprecated: string[];
}

/** Old option names, still read: each with the name it has now. */
const ALIASES = new Map([['--gofmt', '--benchfmt']]);

/** Options followed by a value; --browser's list is optional and read on its own. */
const VALUE_OPTIONS = valueOptions(OPTIONS);

/** What --file decides for itself: these would be ignored, so they are refused. */
const NOT_WITH_FILE = ['--stages', '--baselines', '--sizes', '--sample-ms', '--time-box-ms', '--input', '--exercise'];

function list(text: string): string[] {
  return text.split(',').map((item) => item.trim()).filter(Boolean);
}

/** "4" or "04" is stage 4; anything else must be a contestant id. */
function contestantId(item: string): string {
  if (/^\d+$/.test(item)) {
    const stage = STAGES.find((s) => s.index === Number(item));
    if (!stage) throw new RangeError(`there is no stage ${item}; stages are numbered 0 to ${STAGES.length - 1}`);
    return stage.id;
  }
  if (!contestantById(item)) throw new RangeError(`unknown contestant "${item}" (see --help)`);
  return item;
}

/** "chromium,firefox" -> both, each once, in the order given. */
function browserList(text: string): BrowserId[] {
  const ids = list(text);
  if (ids.length === 0) throw new RangeError(`--browser needs browser names, e.g. ${BROWSER_IDS.join(',')}`);
  for (const id of ids) {
    if (!(BROWSER_IDS as readonly string[]).includes(id)) {
      throw new RangeError(`unknown browser "${id}" for --browser; choose from ${BROWSER_IDS.join(', ')}`);
    }
  }
  return [...new Set(ids)] as BrowserId[];
}

function number(option: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new RangeError(`${option} needs a number, got "${text}"`);
  return value;
}

export function parseCliArgs(argv: readonly string[]): CliOptions {
  const args = readArgv(argv);
  const { values, browsers, native, help, deprecated } = args;
  const file = values.get('--file');
  if (file !== undefined) return fileOptions(file, args);
  if (values.has('--readers')) throw new RangeError('--readers applies with --file only: it compares the ways a file can be read');
  const plan = benchPlan(values);
  checkPlan(plan);
  const options: CliOptions = { plan, browsers, native, json: values.get('--json'), benchfmt: values.get('--benchfmt'), label: values.get('--label'), help, deprecated };
  if (values.has('--exercise')) {
    // Each exercise decides its contestants and sizes; those options would be ignored, so they are refused.
    const clash = ['--stages', '--baselines', '--sizes', '--benchfmt'].find((flag) => values.has(flag)) ?? (native ? '--native' : undefined);
    if (clash) throw new RangeError(`${clash} does not apply with --exercise, which times stage N-1 and stage N at the exercise's own sizes`);
    options.exercises = parseExercises(values.get('--exercise')!);
  }
  return options;
}

interface Argv {
  /** Each option that takes a value, by its current name. */
  values: Map<string, string>;
  browsers: BrowserId[];
  help: boolean;
  native: boolean;
  /** An old option name's note, for each one used. */
  deprecated: string[];
}

/** The options as given, under their current names; an unknown option, or one without its value, throws. */
function readArgv(argv: readonly string[]): Argv {
  const values = new Map<string, string>();
  let browsers: BrowserId[] = [];
  let help = false;
  let native = false;
  const deprecated: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const given = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const name = ALIASES.get(given) ?? given;
    if (name !== given) deprecated.push(`${given} is now ${name} (the old name still works)`);
    if (name === '--browser') {
      // The list is optional: "--browser" alone is Chromium, as it always was.
      const next = argv[i + 1];
      if (eq > 0) browsers = browserList(arg.slice(eq + 1));
      else if (next !== undefined && !next.startsWith('-')) browsers = browserList(argv[++i]);
      else browsers = ['chromium'];
    }
    else if (name === '-h' || name === '--help') help = true;
    else if (arg === '--native') native = true;
    else if (VALUE_OPTIONS.has(name)) {
      const value = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new RangeError(`${name} needs a value (see --help)`);
      values.set(name, value);
    } else throw new RangeError(`unknown option "${arg}" (see --help)`);
  }
  return { values, browsers, help, native, deprecated };
}

/** --file's options: its readers and rounds checked, and no option that only a plan of stages and sizes takes. */
function fileOptions(file: string, { values, browsers, native, help, deprecated }: Argv): CliOptions {
  const clash = NOT_WITH_FILE.find((name) => values.has(name));
  if (clash) throw new RangeError(`${clash} does not apply with --file, which times stages 10 and 11 (and b3sum with --native) on the file`);
  if (file.trim() === '') throw new RangeError('--file needs the path of a file');
  const readers = values.has('--readers') ? list(values.get('--readers')!) : undefined;
  for (const reader of readers ?? []) {
    if (!(READER_KINDS as readonly string[]).includes(reader)) throw new RangeError(`unknown reader "${reader}" for --readers; choose from ${READER_KINDS.join(', ')}`);
  }
  const rounds = values.has('--rounds') ? number('--rounds', values.get('--rounds')!) : FILE_DEFAULT_ROUNDS;
  if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError(`--rounds is a whole number of rounds, at least 1, not ${rounds}`);
  // The plan only carries the rounds: the file is the one size, stages 10 and 11 the contestants.
  const plan: BenchPlan = { contestants: [...FILE_STAGE_IDS], sizes: [], rounds };
  return {
    plan,
    browsers: browsers.length > 0 ? browsers : ['chromium'],
    native,
    json: values.get('--json'),
    benchfmt: values.get('--benchfmt'),
    label: values.get('--label'),
    file,
    ...(readers && { readers: [...new Set(readers)] as ReaderKind[] }),
    help,
    deprecated,
  };
}

/** The plan the options ask for: stages and baselines, sizes, rounds, and the engine's settings given. */
function benchPlan(values: Map<string, string>): BenchPlan {
  const stages = values.has('--stages') ? list(values.get('--stages')!).map(contestantId) : STAGES.map((s) => s.id);
  const baselineText = values.get('--baselines');
  const baselines = baselineText === undefined ? BASELINES.map((b) => b.id) : baselineText === 'none' ? [] : list(baselineText).map(contestantId);
  const contestants = [...new Set([...stages, ...baselines])];
  const plan: BenchPlan = {
    contestants,
    sizes: values.has('--sizes') ? list(values.get('--sizes')!).map(parseSize) : [...DEFAULT_SIZES],
    rounds: values.has('--rounds') ? number('--rounds', values.get('--rounds')!) : DEFAULT_ROUNDS,
  };
  if (values.has('--sample-ms')) plan.sampleTargetMs = number('--sample-ms', values.get('--sample-ms')!);
  if (values.has('--time-box-ms')) plan.timeBoxMs = number('--time-box-ms', values.get('--time-box-ms')!);
  const input = values.get('--input') ?? 'ordinary';
  if (input !== 'ordinary' && input !== 'shared') throw new RangeError(`--input is "ordinary" or "shared", got "${input}"`);
  if (input === 'shared') plan.sharedInput = true;
  return plan;
}
