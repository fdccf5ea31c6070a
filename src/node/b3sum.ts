// Node only: the real b3sum, built by cargo from the crate on crates.io that
// native/b3sum/Cargo.lock pins, for the file page's oracle test and for
// `npm run bench -- --file PATH --native`. Without cargo there is no b3sum, and the
// callers say so and go on without it.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildNativeProgram } from './native-build.ts';

const run = promisify(execFile);

export const B3SUM_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../native/b3sum');

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
  return { binary: await buildNativeProgram(cargo, 'b3sum', 'b3sum in native/b3sum'), version: lockedB3sumVersion() };
}

/** What b3sum prints for `args` run in `cwd` (file names as given, relative to it). */
export async function b3sum(program: B3sum, args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await run(program.binary, [...args], { cwd, maxBuffer: 64 << 20, timeout: 10 * 60_000 });
  return stdout;
}
