// Node only: builds the native program (native/, the blake3 crate from the registry) with
// cargo and runs it, for `npm run bench -- --native`. Two builds: one limited to SSE4.1,
// one with the crate's own choice of instructions and rayon's threads. Where cargo is
// missing or the build fails, the bench goes on without native rows and says why.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { blake3 } from '@noble/hashes/blake3.js';
import { INPUT_MODULUS, patternInput, toHex } from '../core/vectors.ts';
import { buildNativeProgram, rustcVersion } from './native-build.ts';
import { nativeMeasurement, parseNativeOutput, type NativeMeasurement, type NativeOutput, type NativeToolchain } from '../core/bench/native-results.ts';

const run = promisify(execFile);

export const NATIVE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../native');

/** The two builds (native/build.sh): at most SSE4.1, and the crate's own choice with rayon's threads. */
const BUILDS = ['sse41', 'best'] as const;

export interface NativeProgram {
  binaries: string[];
  toolchain: NativeToolchain;
}

/** cargo on PATH, else where rustup puts it (CARGO_HOME or ~/.cargo); null when there is none. */
export async function findCargo(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const candidates = ['cargo', join(env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin', 'cargo')];
  for (const cargo of candidates) {
    try {
      await run(cargo, ['--version'], { timeout: 30_000 });
      return cargo;
    } catch {
      // not this one
    }
  }
  return null;
}

/** The blake3 version the lock file pins. */
export function lockedCrateVersion(lock = readFileSync(join(NATIVE_DIR, 'Cargo.lock'), 'utf8')): string {
  const match = /\[\[package\]\]\s*name = "blake3"\s*version = "([^"]+)"/.exec(lock);
  if (!match) throw new Error('native/Cargo.lock pins no blake3 version');
  return match[1];
}

/** Builds both binaries (release, locked to Cargo.lock); throws with cargo's last lines on failure. */
export async function buildNative(cargo: string, log: (line: string) => void = () => {}): Promise<NativeProgram> {
  const binaries: string[] = [];
  for (const build of BUILDS) {
    log(`native: native/build.sh ${build}`);
    binaries.push(await buildNativeProgram(cargo, build, `native/ (${build})`));
  }
  return { binaries, toolchain: { crateVersion: lockedCrateVersion(), rustc: await rustcVersion(cargo) } };
}

export interface NativeSettings {
  sizes: readonly number[];
  rounds: number;
  sampleTargetMs: number;
  warmupMs: number;
  /** Hashes per sample from an earlier call, so later samples are counted alike. */
  iterations?: Map<string, number>;
}

const iterationKey = (id: string, size: number) => `${id}@${size}`;

/** Runs each binary once with the bench's settings; returns what each printed. */
export async function runNative(program: NativeProgram, settings: NativeSettings): Promise<NativeOutput[]> {
  const outputs: NativeOutput[] = [];
  for (const binary of program.binaries) {
    const args = [
      ...['--sizes', settings.sizes.join(','), '--rounds', String(settings.rounds)],
      ...['--sample-ms', String(settings.sampleTargetMs), '--warmup-ms', String(settings.warmupMs), '--input-modulus', String(INPUT_MODULUS)],
    ];
    if (settings.iterations?.size) args.push('--iterations', [...settings.iterations].map(([key, n]) => `${key}=${n}`).join(','));
    const { stdout } = await run(binary, args, { maxBuffer: 16 << 20, timeout: 30 * 60_000 });
    outputs.push(parseNativeOutput(stdout));
  }
  return outputs;
}

/** The hashes per sample each contestant settled on, to hand to the next call. */
export function iterationsOf(outputs: readonly NativeOutput[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const output of outputs) for (const c of output.contestants) for (const r of c.runs) map.set(iterationKey(c.id, r.size), r.iterations);
  return map;
}

/** The oracle's digest of the bench's input of `size` bytes, in hex. */
export function expectedDigest(size: number): string {
  return toHex(blake3(patternInput(size)));
}

/** Native rows from the calls made in turns with the JavaScript runs. */
export function measurementOf(program: NativeProgram, outputs: readonly NativeOutput[]): NativeMeasurement {
  // Instant::now on Linux reads clock_gettime: nanoseconds; the samples last milliseconds.
  return nativeMeasurement(outputs, program.toolchain, expectedDigest, 1);
}
