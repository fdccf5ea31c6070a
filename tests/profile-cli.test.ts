// `npm run profile`: wrong arguments stop it with status 2 and a message naming what was
// wrong and what is allowed; a short real run prints pprof's top table, hottest first,
// and writes V8's profile as a .cpuprofile that the converter (and DevTools) reads.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProfileArgs } from '../src/node/profile/cli-args.ts';
import { fromV8, type V8Profile } from '../src/core/profile/from-v8.ts';
import { hottest } from '../src/core/profile/profile.ts';
import { pprofDuration } from '../src/core/profile/pprof-text.ts';

const ROOT = new URL('../', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'profile-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function profileCommand(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/profile.ts', ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run profile: arguments', () => {
  it('reads a stage by number or id, a size, seconds and --browser, with defaults', () => {
    expect(parseProfileArgs(['--stage', '5'])).toMatchObject({ stage: 5, bytes: 65536, seconds: 3, browser: false, out: 'results/profile-05-no-copies-64KiB.cpuprofile' });
    expect(parseProfileArgs(['--stage=09-simd-wasm', '--size', '1KiB', '--seconds=0.5', '--browser', '--out', 'x.cpuprofile'])).toMatchObject({
      stage: 9,
      bytes: 1024,
      seconds: 0.5,
      browser: true,
      out: 'x.cpuprofile',
    });
    expect(parseProfileArgs(['--stage', '11', '--browser']).out).toBe('results/profile-11-every-core-64KiB-chromium.cpuprofile');
  });

  it.each([
    [['--stage', '12'], /there is no stage "12"; give a number from 0 to 11 or an id/],
    [['--stage', 'fast'], /there is no stage "fast"/],
    [['--size', '1KiB'], /--stage is required/],
    [['--stage', '1', '--size', '12XB'], /--size: "12XB" is not a size: .*B, KiB or MiB/],
    [['--stage', '1', '--size', '1GiB'], /--size: "1GiB" is not a size/],
    [['--stage', '1', '--seconds', '0'], /--seconds: "0" is not a number of seconds more than 0 and at most 600/],
    [['--stage', '1', '--seconds', 'long'], /--seconds: "long"/],
    [['--stage', '1', '--out'], /--out needs a value/],
    [['--stage', '1', '--frobnicate'], /unknown option "--frobnicate"; the options are --stage, --size, --seconds, --browser, --out and --help/],
  ])('refuses %j', (args, message) => {
    expect(() => parseProfileArgs(args)).toThrow(message);
  });

  it('exits with status 2 and the message, and runs nothing', async () => {
    for (const args of [['--stage', '12'], ['--stage', '3', '--size', 'big'], ['--stage', '3', '--frobnicate']]) {
      const { code, stdout, stderr } = await profileCommand(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^profile: (--stage: there is no stage "12"|--size: "big" is not a size|unknown option "--frobnicate")/);
    }
  }, 60_000);
});

describe('npm run profile: a short run', () => {
  it('prints the top table hottest first and writes a .cpuprofile that reads back', async () => {
    const out = join(dir, 'stage5.cpuprofile');
    const { code, stdout, stderr } = await profileCommand('--stage', '5', '--size', '1KiB', '--seconds', '1', '--out', out);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`wrote ${out}`);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Stage: 05-no-copies (No copies), hashing 1 KiB over and over');
    expect(lines).toContain('Type: cpu');
    expect(stdout).toMatch(/^Tool: V8 sampling profiler \(node:inspector, --no-concurrent-recompilation\), V8 \S+, Node v\d+\.\d+\.\d+, on /m);
    expect(stdout).toMatch(/^Duration: \S+s, Total samples = \d+ \(one every \S+; asked every 250us\)$/m);
    const header = lines.findIndex((line) => /^\s+flat\s+flat%\s+sum%\s+cum\s+cum%\s+name$/.test(line));
    expect(header).toBeGreaterThan(0);
    const rows = lines.slice(header + 1).map((line) => /^\s*(\S+) +([\d.]+)% +([\d.]+)% +(\S+) +([\d.]+)%  (.+)$/.exec(line));
    expect(rows.length).toBeGreaterThan(2);
    expect(rows.every(Boolean)).toBe(true);
    const flat = rows.map((m) => Number(m![2]));
    // Hottest first, and sum% is the running sum of flat%.
    expect([...flat].sort((a, b) => b - a)).toEqual(flat);
    expect(Number(rows[1]![3])).toBeCloseTo(flat[0] + flat[1], 1);

    // V8's own profile: what DevTools and speedscope load.
    const v8 = JSON.parse(readFileSync(out, 'utf8')) as V8Profile;
    expect(v8.nodes[0].callFrame.functionName).toBe('(root)');
    expect(v8.samples!.length).toBe(v8.timeDeltas!.length);
    expect(v8.samples!.length).toBeGreaterThan(100);
    const ids = new Set(v8.nodes.map((n) => n.id));
    expect(v8.samples!.every((id) => ids.has(id))).toBe(true);
    expect(v8.endTime).toBeGreaterThan(v8.startTime);
    // Read back, it names the table's first function the hottest.
    const again = fromV8(v8, { stage: 's', source: { tool: '', engine: '', runtime: '', cpu: '', intervalUs: 250 }, inputBytes: 1024, roots: [ROOT.href] });
    expect(rows[0]![6]).toMatch(/^compress steps\/05-no-copies\/compress\.ts:\d+$/);
    expect(hottest(again)?.name).toBe('compress');
    expect(rows[0]![1]).toBe(pprofDuration((again.durationMs * hottest(again)!.selfSamples) / again.samples));
  }, 120_000);
});
