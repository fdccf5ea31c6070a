// Reruns every code generator of the stages and writes their output.
//
//   npm run gen               rewrite every generated file
//   npm run gen -- --check    write nothing; list the checked-in files that differ from
//                             a fresh run and exit with status 1 if there are any
//
// Each generator is a module exporting `generate(): string` (pure: the same text on
// every run) and the file or files it writes, relative to itself: OUTPUT_FILE, or
// OUTPUT_FILES when several stages carry the same output.
//
// The Go track's compiler evidence (go/<stage>/evidence.json, scripts/go-evidence.ts)
// comes from the Go compiler, and its profiles (data/go/profiles/, scripts/go-profiles.ts)
// from pprof; without Go on PATH both are left as they are, with a warning. A stored
// profile that a fresh one keeps within its bands is kept as it is; one taken with
// another Go release is rewritten but not called stale.
// V8's evidence for the JavaScript stages (data/v8/<stage>.json, scripts/v8-evidence.ts)
// is measured in child Node processes; a stored file that agrees with the fresh run is
// kept as it is, and one measured by another V8 is rewritten but not called stale.
// The stored CPU profiles (data/profiles/<stage>.json, scripts/profiles.ts) are sampled
// the same way and kept when a fresh run agrees within their bands.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateGoEvidence, goMissing } from './go-evidence.ts';
import { generateGoProfiles } from './go-profiles.ts';
import { generateProfiles } from './profiles.ts';
import { generateV8Evidence } from './v8-evidence.ts';
import { measurements, MANIFEST, recordInputs } from '../src/node/evidence-inputs.ts';
import { STAGES } from '../steps/index.ts';

/** What a generator module exports. */
export interface GeneratorModule {
  generate(): string;
  OUTPUT_FILE?: string;
  OUTPUT_FILES?: string[];
}

/** The generators, repo-relative, in stage order: each stage's gen.ts and gen-<what>.ts, found in its registry entry's files. */
export const GENERATORS = STAGES.flatMap((stage) => stage.files.filter((file) => /\/gen(-[a-z0-9]+)?\.ts$/.test(file)));

const ROOT = new URL('../', import.meta.url);

export interface GeneratedFile {
  /** Repo-relative path of the output. */
  path: string;
  /** Repo-relative path of the generator that writes it. */
  generator: string;
  /** What the generator produces now. */
  text: string;
}

/** Runs every generator without writing anything; `check`: leave out V8 evidence of another V8 version. */
export async function generateAll(check = false): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  for (const generator of GENERATORS) {
    const url = new URL(generator, ROOT);
    if (!existsSync(url)) throw new Error(`${generator} is listed in steps/index.ts but does not exist`);
    const module = (await import(url.href)) as GeneratorModule;
    const outputs = module.OUTPUT_FILES ?? (module.OUTPUT_FILE ? [module.OUTPUT_FILE] : []);
    if (typeof module.generate !== 'function' || outputs.length === 0) {
      throw new Error(`${generator} must export generate() and OUTPUT_FILE or OUTPUT_FILES`);
    }
    const text = module.generate();
    for (const output of outputs) {
      const path = fileURLToPath(new URL(output, url)).slice(fileURLToPath(ROOT).length);
      files.push({ path, generator, text });
    }
  }
  const goProblem = goMissing();
  if (goProblem !== null) {
    console.warn(`gen: ${goProblem}: the Go track's compiler evidence (go/*/evidence.json) and profiles (data/go/profiles/) were not checked or rewritten`);
  } else {
    files.push(...generateGoEvidence());
    for (const { changes, ...file } of generateGoProfiles()) {
      if (check && changes[0]?.startsWith('Go ')) {
        console.warn(`gen: ${file.path} was profiled with another Go release (${changes[0]}): not checked`);
      } else {
        files.push(file);
      }
    }
  }
  const measured = [...(await generateV8Evidence()), ...(await generateProfiles(undefined, (id) => console.warn(`gen: profiling ${id}`)))];
  for (const { changes, ...file } of measured) {
    if (changes.length > 0 && changes[0] !== 'new') console.warn(`gen: ${file.path} differs from a fresh run:\n  ${changes.join('\n  ')}`);
    if (check && changes[0]?.startsWith('V8 ')) {
      console.warn(`gen: ${file.path} was measured by another V8 (${changes[0]}): not checked`);
    } else {
      files.push(file);
    }
  }
  return files;
}

/** The generated files whose checked-in text differs from a fresh run (or is missing). */
export async function staleFiles(): Promise<GeneratedFile[]> {
  const files = await generateAll(true);
  return files.filter(({ path, text }) => {
    const url = new URL(path, ROOT);
    return !existsSync(url) || readFileSync(url, 'utf8') !== text;
  });
}

async function main(args: string[]): Promise<number> {
  if (args.includes('--check')) {
    const stale = await staleFiles();
    for (const file of stale) {
      console.error(`stale: ${file.path} (run npm run gen to rewrite it from ${file.generator})`);
    }
    if (stale.length === 0) console.log('All generated files are up to date.');
    return stale.length === 0 ? 0 : 1;
  }
  const files = await generateAll();
  for (const file of files) {
    mkdirSync(new URL('.', new URL(file.path, ROOT)), { recursive: true });
    writeFileSync(new URL(file.path, ROOT), file.text);
    console.log(`wrote ${file.path}`);
  }
  // Every measurement just taken (or kept, a fresh run agreeing with it) is now known to
  // come from the files as they are: npm test checks that record instead of measuring again.
  const measured = new Set(measurements().map((m) => m.path));
  const recorded = files.map((f) => f.path).filter((path) => measured.has(path));
  recordInputs(recorded);
  console.log(`recorded in ${MANIFEST} what ${recorded.length} measurements were made from`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    console.error(`gen: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
