// npm run profile -- --stage N [--size 64KiB] [--seconds S] [--browser] [--out FILE]
//
// Where one stage spends its time, on this machine: V8's sampling profiler runs while the
// stage hashes one input over and over (in a child Node process, or with --browser on a
// page of headless Chromium), stdout gets pprof's top table and the .cpuprofile file gets
// V8's own profile for Chrome DevTools and speedscope. Wrong arguments exit with status 2.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { STAGES } from '../steps/index.ts';
import { formatSize } from '../src/core/format.ts';
import { formatTop } from '../src/core/profile/pprof-text.ts';
import { parseProfileArgs, USAGE, type ProfileCliOptions } from '../src/node/profile/cli-args.ts';
import { PROFILE_INTERVAL_US } from '../src/node/profile/node-profile.ts';

async function main(argv: string[]): Promise<number> {
  let options: ProfileCliOptions;
  try {
    options = parseProfileArgs(argv);
  } catch (error) {
    process.stderr.write(`profile: ${(error as Error).message}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const stage = STAGES[options.stage];
  const where = options.browser ? 'headless Chromium' : 'Node';
  process.stderr.write(`profile: stage ${stage.index} (${stage.id}) hashing ${formatSize(options.bytes)} over and over in ${where}, sampled for ${options.seconds} s\n`);
  // Every run the length asked, whatever the sample count: minSamples 0.
  const settings = { seconds: options.seconds, intervalUs: PROFILE_INTERVAL_US, minSamples: 0 };
  let result;
  if (options.browser) {
    const { missingBrowser } = await import('../src/node/browsers.ts');
    const missing = missingBrowser('chromium');
    if (missing) {
      process.stderr.write(`profile: ${missing}\n`);
      return 1;
    }
    const { profileInChromium } = await import('../src/node/profile/chromium-profile.ts');
    result = await profileInChromium(stage.index, options.bytes, settings);
  } else {
    const { profileInNode } = await import('../src/node/profile/node-profile.ts');
    result = await profileInNode(stage.index, options.bytes, settings);
  }
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, JSON.stringify(result.v8));
  process.stdout.write(formatTop(result.profile, { title: stage.title }));
  process.stderr.write(`profile: wrote ${options.out}: open it in Chrome DevTools (Performance, "Load profile") or drop it on https://www.speedscope.app\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`profile: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
