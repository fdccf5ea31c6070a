// Where each Go step spends its time, as pprof sees it: a CPU profile of the step's three
// benchmarks (and, on the steps the talk's "Allocations and copies" covers, the bytes
// they allocate), stored as data the step pages show beside the talk's own pprof tables.
// `npm run gen` writes data/go/profiles/<step>.json; tests/go-profile.test.ts profiles
// again and holds the result to the stored one's bands.
//
// Every step hashes the same fixed work, so shares compare across steps and do not
// depend on how busy the machine is: 8,000,000 hashes of 8 bytes, 600,000 of 1 KiB and
// 72,000 of 8 KiB, about 3 s of CPU time each at stage 0 (as `go test -bench .` gives
// each benchmark equal time), so a share moves by about 2 points between runs. The allocation profile records every allocation
// (-memprofilerate 1) of a hundredth of that work, which allocates the same per hash,
// and keeps what the benchmark allocated (-focus=stagetest.Bench, shares of that): the
// test binary's own start-up allocates too, and would be all there is to see at stage 5.
//
// The CPU profiles run with asynchronous preemption off (GODEBUG=asyncpreemptoff=1).
// With it on, the runtime interrupts a loop that runs for more than 10 ms of wall time
// with a signal, and on a busy machine the profiler charged 8 to 20% of stage 1's samples
// to runtime.asyncPreempt, different on every run, while stage 1's CPU time per hash
// was the same with it off (3.3 to 3.6 µs at 1 KiB either way). Off, the samples land in
// the code that ran; the talk's Go (2018) had no asynchronous preemption at all.
//
// Each profile is `go test -cpuprofile` (or -memprofile) once per benchmark, read back
// with `go tool pprof -raw`, whose text holds every sample and stack; the conversion is
// src/core/profile/pprof.ts. A stored file whose profiles a fresh run keeps within the
// bands (src/core/profile/drift.ts) is left as it is: samples differ on every run.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profileDrift } from '../src/core/profile/drift.ts';
import { parsePprofRaw, pprofToStageProfile } from '../src/core/profile/pprof.ts';
import type { StageProfile } from '../src/core/profile/profile.ts';
import { ALLOC_STEPS, type GoStepProfiles } from '../src/core/profile/go-profiles.ts';
import { GO_DIR, goMissing, goStageDirs } from './go-evidence.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const GENERATOR = 'scripts/go-profiles.ts';
const ENV = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=readonly' };

/** The fixed work of every CPU profile: each benchmark and how many hashes it runs. */
export const PROFILE_WORK = [
  { benchmark: 'Hash8Bytes', bytes: 8, hashes: 8_000_000, file: '8B' },
  { benchmark: 'Hash1K', bytes: 1024, hashes: 600_000, file: '1K' },
  { benchmark: 'Hash8K', bytes: 8192, hashes: 72_000, file: '8K' },
];
/** The allocation profile runs this fraction of the work: it records every allocation, which is slow. */
export const ALLOC_DIVISOR = 100;
/** What the CPU profiles set in the environment (see the header). */
const CPU_GODEBUG = 'asyncpreemptoff=1';

export const profilesPath = (stage: string) => `data/go/profiles/${stage}.json`;

type Kind = 'cpu' | 'alloc';

/** The `go test` arguments of one benchmark's profile, with file names under `dir`. */
function testArgs(stage: string, kind: Kind, run: (typeof PROFILE_WORK)[number], dir: string): string[] {
  const hashes = kind === 'cpu' ? run.hashes : run.hashes / ALLOC_DIVISOR;
  const profile = kind === 'cpu' ? ['-cpuprofile', `${dir}cpu-${run.file}.out`] : ['-memprofile', `${dir}mem-${run.file}.out`, '-memprofilerate', '1'];
  return ['test', '-trimpath', '-run', '^$', '-bench', `^Benchmark${run.benchmark}$`, '-benchtime', `${hashes}x`, ...profile, '-o', `${dir}${stage}.test`, `./${stage}`];
}

function pprofArgs(stage: string, kind: Kind, report: string[], dir: string): string[] {
  const files = PROFILE_WORK.map((run) => `${dir}${kind === 'cpu' ? 'cpu' : 'mem'}-${run.file}.out`);
  const alloc = ['-sample_index=alloc_space', '-focus=stagetest.Bench', '-relative_percentages'];
  return ['tool', 'pprof', ...(kind === 'alloc' ? alloc : []), ...report, `${dir}${stage}.test`, ...files];
}

/** The commands as a reader types them in go/ (the shell quotes the regular expressions). */
export function commandsOf(stage: string, kind: Kind): string[] {
  const quote = (arg: string) => (/[$^]/.test(arg) ? `'${arg}'` : arg);
  return [
    ...PROFILE_WORK.map((run) => [...(kind === 'cpu' ? [`GODEBUG=${CPU_GODEBUG}`] : []), 'go', ...testArgs(stage, kind, run, '')].map(quote).join(' ')),
    ['go', ...pprofArgs(stage, kind, ['-top'], '')].join(' '),
  ];
}

function go(args: string[], what: string, godebug?: string): string {
  const env = godebug ? { ...ENV, GODEBUG: godebug } : ENV;
  const result = spawnSync('go', args, { cwd: GO_DIR, encoding: 'utf8', env, maxBuffer: 256 << 20 });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${what} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** A path as the -trimpath binary names it -> repo-relative; the module blake2slab is go/. */
const repoFile = (path: string) => (path.startsWith('blake2slab/') ? `go/${path.slice('blake2slab/'.length)}` : '');

export interface FreshProfiles {
  profiles: GoStepProfiles;
  /** `go tool pprof -top -nodefraction=0` of the same files, in ms or bytes: for checking the conversion. */
  top: { cpu: string; alloc: string | null };
}

/** Profiles one step now. Needs Go (see goMissing()). */
export function profileStep(stage: string): FreshProfiles {
  const dir = `${mkdtempSync(join(tmpdir(), `go-profile-${stage}-`))}/`;
  try {
    const version = execFileSync('go', ['env', 'GOVERSION', 'GOOS', 'GOARCH'], { cwd: GO_DIR, encoding: 'utf8', env: ENV }).trim().split('\n');
    const take = (kind: Kind): { profile: StageProfile; top: string } => {
      for (const run of PROFILE_WORK) go(testArgs(stage, kind, run, dir), `go test ${stage} ${run.benchmark} (${kind})`, kind === 'cpu' ? CPU_GODEBUG : undefined);
      const divisor = kind === 'cpu' ? 1 : ALLOC_DIVISOR;
      const profile = pprofToStageProfile(parsePprofRaw(go(pprofArgs(stage, kind, ['-raw'], dir), 'go tool pprof -raw')), {
        stage,
        source: {
          tool: kind === 'cpu' ? 'go test -cpuprofile, go tool pprof' : 'go test -memprofile -memprofilerate 1 (alloc_space), go tool pprof',
          engine: version[0],
          runtime: `${version[1]}/${version[2]}`,
          cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
          intervalUs: kind === 'cpu' ? 10_000 : 0,
        },
        value: kind === 'cpu' ? 'cpu' : 'alloc_space',
        inputBytes: Math.max(...PROFILE_WORK.map((run) => run.bytes)),
        inputs: PROFILE_WORK.map((run) => ({ bytes: run.bytes, hashes: run.hashes / divisor })),
        repoFile,
      });
      const top = go(pprofArgs(stage, kind, ['-top', '-nodefraction=0', kind === 'cpu' ? '-unit=ms' : '-unit=B'], dir), 'go tool pprof -top');
      return { profile, top };
    };
    const cpu = take('cpu');
    const alloc = ALLOC_STEPS.includes(stage) ? take('alloc') : null;
    return {
      profiles: {
        generated: `Code generated by ${GENERATOR}; DO NOT EDIT.`,
        stage,
        commands: [...commandsOf(stage, 'cpu'), ...(alloc ? commandsOf(stage, 'alloc') : [])],
        cpu: cpu.profile,
        alloc: alloc?.profile ?? null,
      },
      top: { cpu: cpu.top, alloc: alloc?.top ?? null },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** JSON with one line per function, so a diff of two runs shows which shares moved. */
export function formatProfiles(p: GoStepProfiles): string {
  const profile = (s: StageProfile) => {
    const { functions, tree, ...head } = s;
    const fields = Object.entries(head).map(([key, value]) => `    ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
    const rows = functions.map((f) => `      ${JSON.stringify(f)}`).join(',\n');
    return `{\n${fields.join(',\n')},\n    "functions": [\n${rows}\n    ],\n    "tree": ${JSON.stringify(tree)}\n  }`;
  };
  return [
    '{',
    `  "generated": ${JSON.stringify(p.generated)},`,
    `  "stage": ${JSON.stringify(p.stage)},`,
    `  "commands": [\n${p.commands.map((c) => `    ${JSON.stringify(c)}`).join(',\n')}\n  ],`,
    `  "cpu": ${profile(p.cpu)},`,
    `  "alloc": ${p.alloc ? profile(p.alloc) : 'null'}`,
    '}',
    '',
  ].join('\n');
}

/** "go1.26" of "go1.26.8": releases differ in inlining and the runtime, patch versions do not. */
export const releaseOf = (engine: string) => /^go\d+\.\d+/.exec(engine)?.[0] ?? engine;

/** Where a fresh run leaves the stored profiles' bands (the Go release first, when it differs). */
export function profilesDrift(stored: GoStepProfiles, fresh: GoStepProfiles): string[] {
  const [was, is] = [releaseOf(stored.cpu.source.engine), releaseOf(fresh.cpu.source.engine)];
  if (was !== is) return [`Go ${was} → ${is}`];
  const problems = [...profileDrift(stored.cpu, fresh.cpu).map((p) => `cpu: ${p}`)];
  if (JSON.stringify(stored.commands) !== JSON.stringify(fresh.commands)) problems.push('the commands changed');
  if (stored.alloc && fresh.alloc) problems.push(...profileDrift(stored.alloc, fresh.alloc).map((p) => `alloc: ${p}`));
  else if (stored.alloc !== fresh.alloc) problems.push(`alloc: stored ${stored.alloc ? 'a profile' : 'none'}, now ${fresh.alloc ? 'a profile' : 'none'}`);
  return problems;
}

export interface GoProfileFile {
  path: string;
  generator: string;
  text: string;
  /** Why the stored file is rewritten: where the fresh run left its bands. */
  changes: string[];
}

/** Every step's profile file: the stored text when a fresh run stays in its bands, else the fresh one. Throws without Go. */
export function generateGoProfiles(): GoProfileFile[] {
  const missing = goMissing();
  if (missing !== null) throw new Error(missing);
  return goStageDirs().map((stage) => {
    const path = profilesPath(stage);
    const fresh = profileStep(stage).profiles;
    const freshText = formatProfiles(fresh);
    if (!existsSync(join(ROOT, path))) return { path, generator: GENERATOR, text: freshText, changes: ['new'] };
    const storedText = readFileSync(join(ROOT, path), 'utf8');
    const changes = profilesDrift(JSON.parse(storedText) as GoStepProfiles, fresh);
    return { path, generator: GENERATOR, text: changes.length === 0 ? storedText : freshText, changes };
  });
}
