// npm run evidence:stamp -- FILE [FILE ...] [--command "THE COMMAND THAT MADE THEM"]
//
// Records in data/evidence-inputs.json what a committed benchmark run (data/engines/,
// data/native/, data/go/bench-*.txt) was made from, so `npm test` can tell when the code
// it measured has changed since. It refuses a run that did not measure the code as it is
// now: a results document whose stages carry another source version than the files have
// today, or a committed file whose inputs changed after the commit that last wrote it.
// (`npm run gen` records what it generates itself.)

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STAGES } from '../steps/index.ts';
import { contentVersion } from '../src/core/bench/source-version.ts';
import { importClosure, measurements, recordInputs } from '../src/node/evidence-inputs.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = async (path: string) => readFileSync(new URL(path, new URL('../', import.meta.url)), 'utf8');
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** Why `path` cannot be stamped, or null. */
export async function refusal(path: string): Promise<string | null> {
  const measurement = measurements().find((m) => m.path === path);
  if (!measurement) return `${path} is not a committed benchmark run (src/node/evidence-inputs.ts lists them)`;
  if (measurement.command === 'npm run gen') return `${path} is written by npm run gen, which records it itself`;
  if (path.endsWith('.json')) {
    const run = JSON.parse(await read(path)) as { contestants: { id: string; kind: string; version: string }[] };
    for (const c of run.contestants.filter((c) => c.kind === 'stage')) {
      const now = await contentVersion(STAGES.find((s) => s.id === c.id)!.files, read);
      if (now !== c.version) return `${path} measured ${c.id} at ${c.version}, and its files are now ${now}: run the benchmark again`;
    }
  }
  // A run already committed: its inputs must not have changed after the commit that wrote it.
  const modified = git('status', '--porcelain', '--', path) !== '';
  const written = modified ? '' : git('log', '-1', '--format=%H', '--', path);
  if (written) {
    const changed = git('diff', '--name-only', written, '--', ...importClosure([...measurement.code, ...measurement.generator]));
    if (changed) return `${path} was committed in ${written.slice(0, 7)}, and since then these changed: ${changed.split('\n').join(', ')}: run it again`;
  }
  return null;
}

/** The runtimes and machine a run names: "Chromium 156.0.8078.79 + Rust 1.95.0, AMD EPYC, 2 cores"; a version 2 run calls them engines. */
async function toolchainOf(path: string): Promise<string> {
  const text = await read(path);
  if (!path.endsWith('.json')) {
    return [...text.matchAll(/^# (go|machine): (.+)$/gm)].map((m) => m[2]).join(', ');
  }
  const run = JSON.parse(text) as { env: { cores: number }; runtimes?: { name: string; version: string }[]; engines?: { name: string; version: string }[] };
  return `${(run.runtimes ?? run.engines ?? []).map((r) => `${r.name} ${r.version}`).join(' + ')}, ${run.env.cores} cores`;
}

async function main(args: string[]): Promise<number> {
  const at = args.indexOf('--command');
  const command = at >= 0 ? args[at + 1] : undefined;
  const paths = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  if (paths.length === 0 || (at >= 0 && !command)) {
    console.error('usage: npm run evidence:stamp -- FILE [FILE ...] [--command "npm run bench -- ..."]   (a committed benchmark run in data/)');
    return 2;
  }
  for (const path of paths) {
    const why = await refusal(path);
    if (why) {
      console.error(`evidence:stamp: ${why}`);
      return 1;
    }
  }
  for (const path of paths) {
    recordInputs([path], await toolchainOf(path), command && `${command}, then npm run evidence:stamp -- ${path}`);
    console.log(`recorded what ${path} was made from`);
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
