// The command line of `npm run profile`, parsed. Kept apart from the script so its rules
// are tested like any code; a wrong argument is a RangeError whose message says what was
// wrong and what is allowed (the script prints it and exits with status 2).

import { STAGES } from '../../../steps/index.ts';
import { parseSize } from '../../core/bench/plan.ts';
import { formatSize } from '../../core/format.ts';
import { usage, valueOptions, type UsageOption } from '../../core/usage.ts';

export const DEFAULT_SIZE = 64 * 1024;
export const DEFAULT_SECONDS = 3;
const MAX_SECONDS = 600;

const OPTIONS: UsageOption[] = [
  { flag: '--stage', value: 'N', help: `the stage: its number, 0 to ${STAGES.length - 1}, or its id (e.g. ${STAGES[5].id})` },
  { flag: '--size', value: 'SIZE', help: `the input: bytes, or with B, KiB or MiB (e.g. 96, 1KiB, 64KiB, 1MiB); default ${formatSize(DEFAULT_SIZE).replace(' ', '')}` },
  { flag: '--seconds', value: 'S', help: `how long to sample, more than 0 and at most ${MAX_SECONDS}; default ${DEFAULT_SECONDS}` },
  { flag: '--browser', help: 'profile on a page of headless Chromium (/usr/bin/chromium or CHROMIUM_PATH) through the DevTools protocol, instead of Node' },
  { flag: '--out', value: 'FILE', help: 'where to write the .cpuprofile; default results/profile-<stage id>-<size>[-chromium].cpuprofile' },
  { flag: '-h, --help', help: 'show this help' },
];

export const USAGE = usage(
  [
    'Usage: npm run profile -- --stage N [options]',
    'Profiles one stage with V8\'s sampling profiler while it hashes one input over and over, and prints where the time goes as pprof\'s top table (hottest function first).',
    'It also writes V8\'s own profile as a .cpuprofile file, which Chrome DevTools (Performance panel, "Load profile") and speedscope (https://www.speedscope.app) open.',
  ],
  OPTIONS,
  17,
);

export interface ProfileCliOptions {
  stage: number;
  bytes: number;
  seconds: number;
  browser: boolean;
  out: string;
  help: boolean;
}

const VALUE_OPTIONS = valueOptions(OPTIONS);

function stageIndex(text: string): number {
  const byNumber = /^\d+$/.test(text) ? STAGES.find((s) => s.index === Number(text)) : undefined;
  const stage = byNumber ?? STAGES.find((s) => s.id === text);
  if (!stage) {
    throw new RangeError(`--stage: there is no stage "${text}"; give a number from 0 to ${STAGES.length - 1} or an id (${STAGES[0].id} ... ${STAGES[STAGES.length - 1].id})`);
  }
  return stage.index;
}

export function parseProfileArgs(argv: readonly string[]): ProfileCliOptions {
  const values = new Map<string, string>();
  let browser = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (name === '-h' || name === '--help') help = true;
    else if (arg === '--browser') browser = true;
    else if (VALUE_OPTIONS.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new RangeError(`${name} needs a value (see --help)`);
      values.set(name, value);
    } else {
      throw new RangeError(`unknown option "${arg}"; the options are --stage, --size, --seconds, --browser, --out and --help`);
    }
  }
  if (help) return { stage: 0, bytes: DEFAULT_SIZE, seconds: DEFAULT_SECONDS, browser, out: '', help };
  const stageText = values.get('--stage');
  if (stageText === undefined) throw new RangeError(`--stage is required: a number from 0 to ${STAGES.length - 1} or a stage id (see --help)`);
  const stage = stageIndex(stageText);
  let bytes = DEFAULT_SIZE;
  if (values.has('--size')) {
    try {
      bytes = parseSize(values.get('--size')!);
    } catch (error) {
      throw new RangeError(`--size: ${(error as Error).message}`);
    }
  }
  const secondsText = values.get('--seconds');
  const seconds = secondsText === undefined ? DEFAULT_SECONDS : Number(secondsText);
  if (secondsText !== undefined && !(secondsText.trim() !== '' && Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_SECONDS)) {
    throw new RangeError(`--seconds: "${secondsText}" is not a number of seconds more than 0 and at most ${MAX_SECONDS}`);
  }
  const size = formatSize(bytes).replace(' ', '');
  const out = values.get('--out') ?? `results/profile-${STAGES[stage].id}-${size}${browser ? '-chromium' : ''}.cpuprofile`;
  return { stage, bytes, seconds, browser, out, help };
}
