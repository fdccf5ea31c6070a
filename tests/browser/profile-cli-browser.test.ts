// `npm run profile -- --browser`: the stage profiled on a page of headless Chromium over
// the DevTools protocol, the table hottest first with our file names (the dev server
// keeps them), and V8's profile written for DevTools.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { V8Profile } from '../../src/core/profile/from-v8.ts';

const dir = mkdtempSync(join(tmpdir(), 'profile-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run profile -- --browser', () => {
  it('profiles stage 9 in Chromium: its WebAssembly named and placed, the table hottest first, a .cpuprofile written', async () => {
    const out = join(dir, 'stage9.cpuprofile');
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/profile.ts', '--stage', '9', '--seconds', '1.5', '--browser', '--out', out],
      { cwd: new URL('../../', import.meta.url) },
    );
    expect(stderr).toContain(`wrote ${out}`);
    expect(stdout).toMatch(/^Tool: V8 sampling profiler \(Chromium DevTools Protocol\), V8 [\d.]+, \S*Chrome\/[\d.]+, on /m);
    expect(stdout).toMatch(/^Note: Sampled on a page's main thread\.$/m);
    const lines = stdout.trimEnd().split('\n');
    const header = lines.findIndex((line) => /^\s+flat\s+flat%\s+sum%\s+cum\s+cum%\s+name$/.test(line));
    const rows = lines.slice(header + 1);
    // At 64 KiB the four-lane WebAssembly function is among the hottest (on a busy machine
    // the call into it may take samples of its own), placed where stage 9 builds its module.
    expect(rows.slice(0, 3).some((row) => /%  compress4x steps\/09-simd-wasm\/blake3\.ts:\d+$/.test(row)), rows.slice(0, 3).join('\n')).toBe(true);
    const flat = rows.map((row) => Number(/^\s*\S+ +([\d.]+)%/.exec(row)![1]));
    expect([...flat].sort((a, b) => b - a)).toEqual(flat);
    expect(stdout).toMatch(/%  subtreeChainingValue steps\/09-simd-wasm\/blake3\.ts:\d+$/m);
    const v8 = JSON.parse(readFileSync(out, 'utf8')) as V8Profile;
    expect(v8.samples!.length).toBe(v8.timeDeltas!.length);
    expect(v8.nodes.some((n) => n.callFrame.url.endsWith('/steps/09-simd-wasm/blake3.ts'))).toBe(true);
  }, 180_000);
});
