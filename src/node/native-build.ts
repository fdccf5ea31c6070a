// Node only: runs native/build.sh, the one place the cargo commands of the native
// programs are written (CI builds with it too, before node_modules exists), and returns
// the binary it built.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

const BUILD_SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../native/build.sh');

/** A first build fetches and compiles the crates (b3sum's about 40: a minute or two on 2 cores), a moment after. */
const BUILD_TIMEOUT_MS = 10 * 60_000;

/** native/build.sh's builds: native/ at most SSE4.1, native/ at its best, the real b3sum. */
export type NativeBuild = 'sse41' | 'best' | 'b3sum';

/** Builds one program with `cargo` and returns its binary; throws with cargo's last lines, naming `what`, on failure. */
export async function buildNativeProgram(cargo: string, build: NativeBuild, what: string): Promise<string> {
  let stdout: string;
  try {
    ({ stdout } = await run('sh', [BUILD_SCRIPT, build], { env: { ...process.env, CARGO: cargo }, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 << 20 }));
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split('\n').slice(-8).join('\n');
    throw new Error(`cargo could not build ${what}:\n${stderr}`);
  }
  const binary = stdout.trim().split('\n').at(-1) ?? '';
  if (!existsSync(binary)) throw new Error(`cargo built ${what} but ${binary} is not there`);
  return binary;
}

/** `rustc --version` of the toolchain `cargo` belongs to ("rustc 1.91.0 (…)"), for the results' record. */
export async function rustcVersion(cargo: string): Promise<string> {
  const rustc = cargo === 'cargo' ? 'rustc' : join(dirname(cargo), 'rustc');
  return (await run(rustc, ['--version']).catch(() => ({ stdout: 'rustc (version unknown)' }))).stdout.trim();
}
