// Node only: the real b3sum, built by cargo from the crate on crates.io that
// native/b3sum/Cargo.lock pins, for the file page's oracle test and for
// `npm run bench -- --file PATH --native`. Without cargo there is no b3sum, and the
// callers say so and go on without it.

import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const B3SUM_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../native/b3sum');

/** The first build fetches and compiles about 40 crates: a minute or two on 2 cores. */
const BUILD_TIMEOUT_MS = 10 * 60_000;

export interface B3sum {
  binary: string;
  /** "1.8.7", from native/b3sum/Cargo.lock. */
  version: string;
}

/** The b3sum version the lock file pins. */
export function lockedB3sumVersion(lock = readFileSync(join(B3SUM_DIR, 'Cargo.lock'), 'utf8')): string {
  const match = /\[\[package\]\]\s*name = "b3sum"\s*version = "([^"]+)"/.exec(lock);
  if (!match) throw new Error('native/b3sum/Cargo.lock pins no b3sum version');
  return match[1];
}

/** Builds b3sum (release, locked) and returns it; throws with cargo's last lines on failure. */
export async function buildB3sum(cargo: string): Promise<B3sum> {
  try {
    // b3sum has no library: -p builds the dependency's own binary, from this lock.
    await run(cargo, ['build', '--release', '--locked', '--quiet', '-p', 'b3sum'], { cwd: B3SUM_DIR, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 << 20 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split('\n').slice(-8).join('\n');
    throw new Error(`cargo could not build b3sum in native/b3sum:\n${stderr}`);
  }
  const binary = join(B3SUM_DIR, 'target', 'release', process.platform === 'win32' ? 'b3sum.exe' : 'b3sum');
  if (!existsSync(binary)) throw new Error(`cargo built native/b3sum but ${binary} is not there`);
  return { binary, version: lockedB3sumVersion() };
}

/** What b3sum prints for `args` run in `cwd` (file names as given, relative to it). */
export async function b3sum(program: B3sum, args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await run(program.binary, [...args], { cwd, maxBuffer: 64 << 20, timeout: 10 * 60_000 });
  return stdout;
}
