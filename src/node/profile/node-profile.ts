// Profiles a stage in a child Node process (probe.ts) and turns what it sends back into a
// StageProfile. A child of its own for every profile: the stage's code is then optimized
// for that one input size, as it would be in a program that hashes only that size.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STAGES } from '../../../steps/index.ts';
import { fromV8, frameKey, type V8Profile } from '../../core/profile/from-v8.ts';
import type { StageProfile } from '../../core/profile/profile.ts';
import { isStageCode } from '../../core/profile/workload.ts';
import type { ProbeOutput } from './probe.ts';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PROBE = 'src/node/profile/probe.ts';
export const NODE_TOOL = 'V8 sampling profiler (node:inspector, --no-concurrent-recompilation)';
/** The sampling interval every profile here asks of V8: a quarter of Node's default for --cpu-prof (1000 µs), for more samples a second. */
export const PROFILE_INTERVAL_US = 250;

/**
 * TurboFan compiles on the main thread, as for V8's evidence (scripts/v8-evidence.ts), so
 * it decides what to inline at a point the code fixes, not the machine's timing. What it
 * inlines moves time from one function to another in a profile: with background
 * compilation, six runs of stage 1 at 1 KiB split between two outcomes (compress 11% and
 * chunkChainingValue 21%, or compress 28% and chunkChainingValue 3%); without, eight
 * runs gave the first. Compiling happens in the warm-up, before the samples are taken.
 */
export const PROBE_FLAGS = ['--no-concurrent-recompilation', '--no-concurrent-osr'];

export interface ProfileSettings {
  /** How long to sample at first; a run with too few samples is taken again, longer. */
  seconds: number;
  /** The sampling interval asked of V8. */
  intervalUs: number;
  minSamples: number;
}

/** The processor, as V8's evidence names it (scripts/v8-evidence.ts). */
export function cpuName(): string {
  return `${process.arch} ${cpus()[0]?.model.trim() ?? 'unknown'}`;
}

/** Runs the probe for one stage at one size and returns what it wrote. */
export function runProbe(index: number, bytes: number, settings: ProfileSettings): Promise<ProbeOutput> {
  const dir = mkdtempSync(join(tmpdir(), 'blake3-lab-profile-'));
  const result = join(dir, 'result.json');
  const args = [index, bytes, settings.seconds, settings.intervalUs, settings.minSamples].map(String);
  const child = spawn(process.execPath, [...PROBE_FLAGS, '--import', 'tsx', PROBE, ...args, result], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const err: Buffer[] = [];
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        if (code !== 0) throw new Error(`${PROBE} ${args.join(' ')} exited with ${code}:\n${Buffer.concat(err).toString()}`);
        resolve(JSON.parse(readFileSync(result, 'utf8')) as ProbeOutput);
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** The probe's output as a StageProfile. */
export function nodeStageProfile(index: number, bytes: number, intervalUs: number, output: ProbeOutput): StageProfile {
  const positions = new Map(output.positions);
  return fromV8(output.profile, {
    stage: STAGES[index].id,
    source: { tool: NODE_TOOL, engine: output.v8, runtime: output.node, cpu: cpuName(), intervalUs },
    inputBytes: bytes,
    roots: [pathToFileURL(ROOT).href.replace(/\/?$/, '/')],
    original: (frame) => positions.get(frameKey(frame)),
    startAt: isStageCode,
    note: output.note,
  });
}

/** Profiles a stage in Node: V8's own profile (for a .cpuprofile file) and the StageProfile. */
export async function profileInNode(index: number, bytes: number, settings: ProfileSettings): Promise<{ v8: V8Profile; profile: StageProfile }> {
  const output = await runProbe(index, bytes, settings);
  return { v8: output.profile, profile: nodeStageProfile(index, bytes, settings.intervalUs, output) };
}
