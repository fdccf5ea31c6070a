// The bench's small pieces: sizes, the command line, the cost extrapolation behind the
// time box, capability overrides, environment names and stage versions.
import { afterEach, describe, expect, it } from 'vitest';
import { parseSize, checkPlan, DEFAULT_SIZES, MAX_PLAN_SIZE, OFFERED_SIZES } from '../src/core/bench/plan.ts';
import { formatSize, formatDuration } from '../src/core/format.ts';
import { parseCliArgs, USAGE } from '../src/node/cli-args.ts';
import { predictOneHash } from '../src/core/bench/predict.ts';
import { detectCapabilities, missingCapability, probeCapabilities } from '../src/core/bench/capabilities.ts';
import { describeBrowser, describeOs } from '../src/app/ui/run/browser.ts';
import { contentVersion } from '../src/core/bench/source-version.ts';
import { DEFAULT_CONTESTANT_IDS, listContestants, resolveContestants } from '../src/core/bench/contestants.ts';
import { STAGES } from '../steps/index.ts';
import { BASELINES } from '../steps/baselines.ts';

describe('sizes', () => {
  it('formats and parses the notation the app and the command line share', () => {
    expect(DEFAULT_SIZES.map(formatSize)).toEqual(['96 B', '512 B', '1 KiB', '32 KiB', '64 KiB', '256 KiB', '1 MiB']);
    expect(formatSize(1536)).toBe('1.5 KiB');
    expect(formatSize(1025)).toBe('1025 B');
    expect(['96', '96B', '1KiB', '64 KiB', '1MiB', '1k', '2M'].map(parseSize)).toEqual([96, 96, 1024, 65536, 1048576, 1024, 2097152]);
    expect(() => parseSize('1 GB')).toThrow(/"1 GB" is not a size/);
    // The message names the units it takes and the largest size the plan allows.
    expect(() => parseSize('5GiB')).toThrow(`"5GiB" is not a size: write a number of bytes with no unit or with B, KiB or MiB (k, KB, m and MB mean KiB and MiB), like 96, 1KiB or 1MiB; the largest is ${formatSize(MAX_PLAN_SIZE)}`);
    expect(() => parseSize(`${MAX_PLAN_SIZE / 1024 + 1}KiB`)).toThrow(`is larger than the largest size, ${formatSize(MAX_PLAN_SIZE)}`);
    expect(parseSize(formatSize(MAX_PLAN_SIZE))).toBe(MAX_PLAN_SIZE);
    expect(() => parseSize('0.3B')).toThrow(/whole number of bytes/);
  });

  it('offers 4 MiB and 16 MiB past the default seven, and the command line takes them', () => {
    expect(OFFERED_SIZES.slice(0, DEFAULT_SIZES.length)).toEqual(DEFAULT_SIZES);
    expect(OFFERED_SIZES.slice(DEFAULT_SIZES.length).map(formatSize)).toEqual(['4 MiB', '16 MiB']);
    const options = parseCliArgs(['--stages', '10', '--sizes', '4MiB,16MiB']);
    expect(options.plan.sizes).toEqual([4 * 1048576, 16 * 1048576]);
  });

  it('refuses a plan with duplicates or nonsense, naming the problem', () => {
    expect(() => checkPlan({ contestants: ['a', 'a'], sizes: [1], rounds: 1 })).toThrow(/"a" is listed twice/);
    expect(() => checkPlan({ contestants: ['a'], sizes: [64, 64], rounds: 1 })).toThrow(/64 B is listed twice/);
    expect(() => checkPlan({ contestants: ['a'], sizes: [64], rounds: 0 })).toThrow(/rounds must be a whole number/);
    expect(() => checkPlan({ contestants: [], sizes: [64], rounds: 1 })).toThrow(/no contestants/);
  });
});

describe('command line', () => {
  it('defaults to every stage and baseline at the article sizes', () => {
    const { plan, browsers } = parseCliArgs([]);
    expect(plan.contestants).toEqual([...STAGES.map((s) => s.id), ...BASELINES.map((b) => b.id)]);
    expect(plan.contestants).toEqual([...DEFAULT_CONTESTANT_IDS]);
    expect(plan.sizes).toEqual(DEFAULT_SIZES);
    expect(plan.rounds).toBe(10);
    expect(browsers).toEqual([]);
  });

  it('reads stages by number or id, sizes with units, and the output files', () => {
    const options = parseCliArgs(['--stages', '0,4,09-simd-wasm', '--baselines=blake3-wasm', '--sizes', '1KiB,64KiB', '--rounds', '3', '--browser', '--json', 'out/r.json', '--benchfmt=out/r.txt']);
    expect(options.plan).toEqual({ contestants: ['00-reference', '04-state-locals', '09-simd-wasm', 'blake3-wasm'], sizes: [1024, 65536], rounds: 3 });
    expect(options).toMatchObject({ browsers: ['chromium'], json: 'out/r.json', benchfmt: 'out/r.txt', deprecated: [] });
    expect(USAGE.split('\n').filter((line) => line.length > 80)).toEqual([]);
    expect(USAGE).toMatch(/^  --benchfmt FILE    also write Go benchmark text/m);
    // The old name of --benchfmt still works, and says so.
    expect(parseCliArgs(['--gofmt', 'old.txt'])).toMatchObject({ benchfmt: 'old.txt', deprecated: ['--gofmt is now --benchfmt (the old name still works)'] });
    expect(parseCliArgs(['--stages', '8', '--baselines', 'none']).plan.contestants).toEqual(['08-little-endian']);
    expect(parseCliArgs(['--stages', '8,fault-hangs', '--baselines', 'none']).plan.contestants).toEqual(['08-little-endian', 'fault-hangs']);
  });

  it('takes an optional list of browsers: --browser alone is Chromium', () => {
    expect(parseCliArgs(['--browser']).browsers).toEqual(['chromium']);
    expect(parseCliArgs(['--browser', '--rounds', '3']).browsers).toEqual(['chromium']);
    expect(parseCliArgs(['--browser', 'firefox']).browsers).toEqual(['firefox']);
    expect(parseCliArgs(['--browser', 'chromium,firefox', '--rounds', '3']).browsers).toEqual(['chromium', 'firefox']);
    expect(parseCliArgs(['--browser=firefox,chromium,firefox']).browsers).toEqual(['firefox', 'chromium']);
    expect(() => parseCliArgs(['--browser', 'opera'])).toThrow(/unknown browser "opera" for --browser; choose from chromium, firefox, webkit/);
    expect(() => parseCliArgs(['--browser='])).toThrow(/--browser needs browser names/);
  });

  it('keeps inputs ordinary unless told to put them in shared memory', () => {
    expect(parseCliArgs([]).plan.sharedInput).toBeUndefined();
    expect(parseCliArgs(['--input', 'ordinary']).plan.sharedInput).toBeUndefined();
    expect(parseCliArgs(['--input=shared']).plan.sharedInput).toBe(true);
    expect(() => parseCliArgs(['--input', 'SAB'])).toThrow(/--input is "ordinary" or "shared", got "SAB"/);
  });

  it('explains what is wrong with bad arguments', () => {
    expect(() => parseCliArgs(['--stages', String(STAGES.length)])).toThrow(new RegExp(`there is no stage ${STAGES.length}\\b`));
    expect(() => parseCliArgs(['--stages', 'sha3'])).toThrow(/unknown contestant "sha3"/);
    expect(() => parseCliArgs(['--rounds'])).toThrow(/--rounds needs a value/);
    expect(() => parseCliArgs(['--rounds', 'many'])).toThrow(/--rounds needs a number/);
    expect(() => parseCliArgs(['--fast'])).toThrow(/unknown option "--fast"/);
  });
});

describe('contestants', () => {
  it('keeps the fault contestants out of the default list but findable by id', () => {
    expect(DEFAULT_CONTESTANT_IDS.some((id) => id.startsWith('fault-'))).toBe(false);
    expect(listContestants({ faults: true }).map((c) => c.id)).toEqual(expect.arrayContaining(['fault-throws', 'fault-wrong-digest', 'fault-hangs', 'fault-oom']));
    expect(resolveContestants(['fault-hangs'])[0].title).toMatch(/hangs/);
    const sha = resolveContestants(['sha256'])[0];
    expect(sha).toMatchObject({ oracle: 'sha256', requires: 'webcrypto' });
    expect(resolveContestants(['09-simd-wasm'])[0]).toMatchObject({ oracle: 'blake3', requires: 'wasm-simd', kind: 'stage' });
  });
});

describe('time box extrapolation', () => {
  it('sees quadratic growth between the two largest sizes and says so', () => {
    // Stage 0 in V8: ~56 ms at 64 KiB, ~0.9 s at 256 KiB.
    const guess = predictOneHash([{ size: 1024, ns: 3e5 }, { size: 65536, ns: 56e6 }, { size: 262144, ns: 9e8 }], 1048576)!;
    expect(guess.ns / 1e9).toBeCloseTo(14.4, 0);
    expect(guess.basis).toBe('extrapolated from 256 KiB, where time grows as size^2.0, roughly quadratic');
  });

  it('never extrapolates below linear, and needs a measurement to guess at all', () => {
    expect(predictOneHash([{ size: 96, ns: 500 }, { size: 1024, ns: 1000 }], 2048)!.ns).toBeCloseTo(2000, 6);
    expect(predictOneHash([{ size: 1024, ns: 1000 }], 4096)!).toEqual({ ns: 4000, basis: 'extrapolated linearly from 1 KiB' });
    expect(predictOneHash([], 4096)).toBeUndefined();
    expect([850, 1500, 12_000, 180_000].map((ms) => formatDuration(ms))).toEqual(['850 ms', '1.5 s', '12 s', '3 min']);
  });
});

describe('capabilities', () => {
  afterEach(() => {
    globalThis.__BLAKE3_LAB_CAPABILITIES__ = undefined;
  });

  it('probes WebAssembly SIMD with a real module, and lets the page override any answer', () => {
    // Node 20's V8 has SIMD; the probe module must validate there.
    expect(probeCapabilities().wasmSimd).toBe(true);
    globalThis.__BLAKE3_LAB_CAPABILITIES__ = { wasmSimd: false, webCrypto: 'no' as unknown as boolean };
    const caps = detectCapabilities();
    expect(caps.wasmSimd).toBe(false);
    expect(caps.webCrypto).toBe(probeCapabilities().webCrypto);
    expect(missingCapability('wasm-simd', caps)).toMatch(/WebAssembly SIMD/);
    expect(missingCapability(undefined, caps)).toBeUndefined();
  });
});

describe('environment names', () => {
  const chromeLinux = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';
  it('names browsers and systems from the user agent, preferring full versions', () => {
    expect(describeBrowser(chromeLinux)).toBe('Chromium 156.0.0.0');
    expect(describeBrowser(chromeLinux, [{ brand: 'Not_A Brand', version: '99.0.0.0' }, { brand: 'Chromium', version: '156.0.8078.79' }, { brand: 'HeadlessChrome', version: '156.0.8078.79' }])).toBe('Chromium 156.0.8078.79');
    expect(describeBrowser('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:140.0) Gecko/20100101 Firefox/140.0')).toBe('Firefox 140.0');
    expect(describeBrowser('Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1')).toBe('Safari 18.2');
    expect(describeOs(chromeLinux)).toBe('Linux x86_64');
    expect(describeOs('Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X)')).toBe('iOS');
    expect(describeOs('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('Windows');
  });
});

describe('stage versions', () => {
  it('hash the path and text of each file, so any edit gives a new version', async () => {
    const files: Record<string, string> = { 'steps/x/blake3.ts': 'a', 'steps/x/gen.ts': 'b' };
    const read = async (path: string) => files[path];
    const version = await contentVersion(Object.keys(files), read);
    expect(version).toMatch(/^blake3:[0-9a-f]{12}$/);
    expect(await contentVersion(Object.keys(files), read)).toBe(version);
    files['steps/x/gen.ts'] = 'b ';
    expect(await contentVersion(Object.keys(files), read)).not.toBe(version);
    // Moving text across the file boundary is a change too.
    expect(await contentVersion(['p', 'q'], async (p) => (p === 'p' ? 'ab' : ''))).not.toBe(await contentVersion(['p', 'q'], async (p) => (p === 'p' ? 'a' : 'b')));
  });
});
