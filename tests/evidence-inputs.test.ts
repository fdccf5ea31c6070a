// Every stored measurement (profiles, V8's evidence, the Go compiler's evidence and
// profiles, the committed benchmark runs) must have been made from the files as they are:
// src/node/evidence-inputs.ts compares data/evidence-inputs.json with the files in
// milliseconds, so a stale measurement fails here, naming the command that makes it again,
// without measuring anything. `npm run test:evidence` measures them again.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { importClosure, inputsNow, MANIFEST, measurements, readManifest, staleMeasurements, type Reader } from '../src/node/evidence-inputs.ts';

const ROOT = new URL('../', import.meta.url);
const read: Reader = (path) => readFileSync(new URL(path, ROOT), 'utf8');
/** The repository as it is, but for the files given. */
const editedRead = (edits: Record<string, (text: string) => string>): Reader => (path) => (edits[path] ?? ((t) => t))(read(path));

describe('what the stored measurements were made from', () => {
  it('is recorded for every one, and none is stale', () => {
    const all = measurements();
    // Two per stage, two per Go step, and the committed benchmark runs.
    expect(all.filter((m) => m.path.startsWith('data/profiles/'))).toHaveLength(STAGES.length);
    expect(all.filter((m) => m.path.startsWith('data/v8/'))).toHaveLength(STAGES.length);
    expect(all.filter((m) => m.path.endsWith('/evidence.json') && m.path.startsWith('go/'))).toHaveLength(6);
    expect(all.filter((m) => m.path.startsWith('data/go/profiles/'))).toHaveLength(6);
    expect(all.filter((m) => /^data\/(engines|native)\//.test(m.path)).length).toBeGreaterThanOrEqual(2);
    const problems = staleMeasurements();
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it("follows a stage's imports: stage 11 is made from stage 10's files too, and no other stage's", () => {
    const files = importClosure(STAGES[11].files);
    expect(files).toEqual(expect.arrayContaining(['steps/11-every-core/worker.ts', 'steps/10-simd-one-block/compress4x.ts']));
    expect(files.filter((f) => f.startsWith('steps/') && !/^steps\/1[01]-/.test(f))).toEqual([]);
    // The profile generator loads stages 10 and 11 by name; stage 5's profile is still made from stage 5 alone.
    const profile5 = measurements().find((m) => m.path === 'data/profiles/05-no-copies.json')!;
    const inputs = Object.keys(inputsNow(profile5));
    expect(inputs).toEqual(expect.arrayContaining(['steps/05-no-copies/compress.ts', 'src/node/profile/probe.ts', 'src/core/profile/from-v8.ts']));
    expect(inputs.filter((f) => f.startsWith('steps/') && !f.startsWith('steps/05-'))).toEqual([]);
  });

  it('names the stale measurement, the file that changed and the command, when a stage is edited without npm run gen', () => {
    const comment = editedRead({ 'steps/03-inline-round/blake3.ts': (t) => t.replace('export function hash(', 'export function hash(/* a comment */') });
    expect(staleMeasurements(comment), 'a comment that keeps the lines changes no measurement').toEqual([]);
    const edited = editedRead({ 'steps/03-inline-round/blake3.ts': (t) => t.replace('export function hash(', 'export const edited = 1;\nexport function hash(') });
    expect(staleMeasurements(edited)).toEqual([
      'data/profiles/03-inline-round.json is stale: steps/03-inline-round/blake3.ts changed since it was made (run npm run gen)',
      'data/v8/03-inline-round.json is stale: steps/03-inline-round/blake3.ts changed since it was made (run npm run gen)',
      expect.stringMatching(/^data\/engines\/.* is stale: steps\/03-inline-round\/blake3\.ts changed since it was made \(run npm run bench -- .*, then npm run evidence:stamp -- data\/engines\//),
    ]);
  });

  it("holds a benchmark run to the code it measured, not its comments; a profile to every line (it stores line numbers)", () => {
    const comment = editedRead({ 'steps/10-simd-one-block/blake3.ts': (t) => `// one more line of comment\n${t}` });
    const stale = staleMeasurements(comment).map((p) => p.split(' ')[0]);
    // Stage 11 imports stage 10's code, so its profile and evidence go stale with it.
    expect(stale).toEqual(['data/profiles/10-simd-one-block.json', 'data/v8/10-simd-one-block.json', 'data/profiles/11-every-core.json', 'data/v8/11-every-core.json']);
    const code = editedRead({ 'steps/10-simd-one-block/blake3.ts': (t) => `${t}\nexport const edited = 1;\n` });
    const runs = measurements().filter((m) => /^data\/(engines|native)\//.test(m.path)).map((m) => m.path);
    expect(staleMeasurements(code).map((p) => p.split(' ')[0]).sort()).toEqual([...stale, ...runs].sort());
  });

  it('notices a Go step edited, a file a generator newly imports, and a measurement with no record', () => {
    expect(staleMeasurements(editedRead({ 'go/02-bounds-checks/blake2s.go': (t) => `${t}\n// edited\n` })).map((p) => p.split(' ')[0]).sort()).toEqual([
      'data/go/bench-2026-11-23-vm.txt',
      'data/go/bench-2026-11-23-xeon.txt',
      'data/go/profiles/02-bounds-checks.json',
      'go/02-bounds-checks/evidence.json',
    ]);
    const newImport = editedRead({ 'scripts/go-profiles.ts': (t) => `import '../src/core/stats/median.ts';\n${t}` });
    const fromNewImport = staleMeasurements(newImport);
    expect(fromNewImport).toHaveLength(6);
    expect(fromNewImport.filter((p) => /^data\/go\/profiles\/.* is stale: scripts\/go-profiles\.ts changed, .*src\/core\/stats\/median\.ts is new/.test(p))).toHaveLength(6);
    const manifest = readManifest();
    delete manifest.measurements['data/v8/07-reuse-buffers.json'];
    expect(staleMeasurements(read, manifest)).toEqual([`data/v8/07-reuse-buffers.json: no record of what it was made from in ${MANIFEST} (run npm run gen)`]);
  });
});
