// `npm run bench -- --file PATH [--native]` end to end: a few rounds on a 3 MiB file in
// headless Chromium, stages 10 and 11 and stage 11's workers reading only, with b3sum where
// cargo is installed (without it, the oracle's digest checks the stages and the run says
// there are no b3sum rows): one valid results document, and the table saying "x read-only"
// and "x b3sum".
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliEnv } from './harness.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { findCargo } from '../../src/node/native-run.ts';
import type { Results } from '../../src/core/bench/results.ts';
import { validateResults } from '../../src/core/results/io/validate.ts';

const cargo = await findCargo();
const dir = mkdtempSync(join(tmpdir(), 'blake3-lab-file-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench --file', () => {
  it(`times stages 10 and 11, reading only${cargo ? ' and b3sum' : ''} on one file, in turns, into one results document`, { timeout: 600_000 }, async () => {
    const file = join(dir, 'three-MiB-and-7.bin');
    writeFileSync(file, randomBytes(3 * 1024 * 1024 + 7));
    const json = join(dir, 'file.json');
    const args = ['tsx', 'scripts/bench.ts', '--file', file, '--rounds', '3', '--json', json, ...(cargo ? ['--native'] : [])];
    const { stdout, stderr } = await promisify(execFile)('npx', args, { timeout: 580_000, maxBuffer: 16 << 20, env: cliEnv() });
    const results = JSON.parse(readFileSync(json, 'utf8')) as Results;
    expect(validateResults(results)).toMatchObject({ ok: true });
    expect(results.config.sizes).toEqual([3 * 1024 * 1024 + 7]);
    const ids = ['10-simd-one-block', '11-every-core', 'read-only', ...(cargo ? ['b3sum', 'b3sum-threads'] : [])];
    expect(results.runs.map((r) => [r.contestant, r.status, r.nsPerOp.length])).toEqual(ids.map((id) => [id, 'ok', 3]));
    expect(stderr).toMatch(/Chromium round 3\/3/);
    expect(stderr).toMatch(/read-only: stage 11's very \d+ workers?, pieces \(\d+ bytes\) and reader \(byob\)/);
    expect(stdout).toMatch(/x read-only/);
    expect(stdout).toMatch(/stage 11 \/ read-only: \d+\.\d\dx/);
    if (cargo) {
      expect(stdout).toMatch(/x b3sum │ x read-only/);
      expect(stdout).toMatch(/stage 11 \/ stage 10: \d+\.\d\dx/);
    }
  });
});
