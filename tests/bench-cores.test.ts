// `npm run bench:cores`, run small: it prints the machine's two-thread ceiling and stage
// 11's speedup, each a ratio with its interval, and refuses flags it cannot honour.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = (...args: string[]) => promisify(execFile)('npx', ['tsx', 'scripts/bench-cores.ts', ...args], { timeout: 110_000 });

describe('npm run bench:cores', () => {
  it('prints the ceiling of two independent hashes and stage 11 beside it', async () => {
    const { stdout, stderr } = await run('--size', '1MiB', '--rounds', '6');
    expect(stderr).toMatch(/1 MiB, 6 rounds of \d+ hashes each way/);
    const ratio = (label: RegExp) => {
      const match = new RegExp(`${label.source}\\s+(\\d+\\.\\d+)x  \\(95% interval (\\d+\\.\\d+|-?Infinity)x to`).exec(stdout);
      expect(match, stdout).not.toBeNull();
      return Number(match![1]);
    };
    // Ratios of real timings: positive and finite; not judged for speed (the machine is shared).
    expect(ratio(/two independent hashes at once \(the ceiling\)/)).toBeGreaterThan(0);
    expect(ratio(/stage 11: one hash split over the two threads/)).toBeGreaterThan(0);
    expect(stdout).toMatch(/stage 11 gets \d+% of the ceiling/);
  });

  it('refuses a size below where stage 11 uses its pool, and too few rounds for an interval', async () => {
    await expect(run('--size', '64KiB')).rejects.toMatchObject({ stderr: expect.stringMatching(/--size must be at least 256 KiB/) });
    await expect(run('--rounds', '3')).rejects.toMatchObject({ stderr: expect.stringMatching(/--rounds must be a whole number, at least 6/) });
  });
});
