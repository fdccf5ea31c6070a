// The playground's guided experiments and its linker, on the real stage files: every
// experiment's patch still applies to today's stage, the result type-checks with the
// playground's compiler options, and it hashes right (or, for an experiment that breaks
// the code on purpose, wrong) once linked the way the sandbox links it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { blake3 } from '@noble/hashes/blake3.js';
import { STAGES } from '../steps/index.ts';
import { applyPatch, experimentsFor } from '../src/app/ui/lesson/experiments.ts';
import { importSites, linkOrder, NODE_ONLY, rewriteImports } from '../src/core/playground/link.ts';
import { checkDigest, checkInput, checkSteps } from '../src/core/playground/checks.ts';
import { OFFICIAL_LENGTHS, type VectorFile } from '../src/core/vectors.ts';

const root = new URL('../', import.meta.url);
const read = async (path: string) => readFileSync(new URL(path, root), 'utf8');
const vectors = JSON.parse(readFileSync(new URL('data/blake3-vectors.json', root), 'utf8')) as VectorFile;
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const folders: string[] = [];
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The options src/app/playground/compiler.ts gives Monaco's TypeScript. */
const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.webworker.d.ts'],
  strict: true,
  isolatedModules: true,
  rewriteRelativeImportExtensions: true,
  types: [],
  // TypeScript's own .d.ts files are not what is being checked.
  skipLibCheck: true,
  outDir: 'out',
};

// One compiler host for every check, so TypeScript's own library files are parsed once.
const host = ts.createCompilerHost(OPTIONS);
const parsed = new Map<string, ts.SourceFile | undefined>();
const getSourceFile = host.getSourceFile;
host.getSourceFile = (fileName, language, ...rest) => {
  if (!fileName.includes('/typescript/lib/')) return getSourceFile(fileName, language, ...rest);
  if (!parsed.has(fileName)) parsed.set(fileName, getSourceFile(fileName, language, ...rest));
  return parsed.get(fileName);
};

/** Writes the files to a fresh folder, type-checks from the entry and returns the errors and the folder. */
function typeCheck(files: Record<string, string>): { errors: string[]; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'blake3-lab-playground-'));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const program = ts.createProgram([join(dir, 'blake3.ts')], OPTIONS, host);
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => `${d.file ? baseName(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  return { errors, dir };
}

/** Whether the files hash every check input right, first failure otherwise. */
async function firstFailure(dir: string): Promise<string | null> {
  const module = (await import(pathToFileURL(join(dir, 'blake3.ts')).href)) as { hash(input: Uint8Array): Uint8Array };
  for (const step of checkSteps(OFFICIAL_LENGTHS.length).filter((s) => s.kind === 'vector' || s.length <= 65537)) {
    const { input, expected, label } = checkInput(step, vectors.cases, blake3);
    const outcome = checkDigest(label, module.hash(input), expected);
    if (!outcome.ok) return `${label}: ${outcome.message}`;
  }
  return null;
}

async function stageTexts(index: number): Promise<Record<string, string>> {
  const stage = STAGES[index];
  return Object.fromEntries(await Promise.all(stage.files.map(async (path) => [baseName(path), await read(path)])));
}

describe('guided experiments', () => {
  for (const stage of STAGES) {
    for (const experiment of experimentsFor(stage)) {
      it(`stage ${stage.index}, "${experiment.title}": applies, type-checks and is ${experiment.correct ? 'correct' : 'caught by the check'}`, async () => {
        const original = await stageTexts(stage.index);
        const patched = await applyPatch(original, experiment.patch, read);
        expect(patched, 'the experiment changes something').not.toEqual(original);
        const { errors, dir } = typeCheck(patched);
        expect(errors).toEqual([]);
        const failure = await firstFailure(dir);
        if (experiment.correct) expect(failure).toBeNull();
        else expect(failure).toMatch(/official vector 1 of 35: 0 bytes.*first differ at byte \d+/);
      });
    }
  }

  it('stage 6 offers to undo the message locals with one click: stage 5 compress.ts in place of its own', () => {
    const undo = experimentsFor(STAGES[6]).find((e) => e.id === 'undo');
    expect(undo?.patch).toContainEqual({ file: 'compress.ts', fromStage: '05-no-copies' });
  });

  it('refuses an edit that no longer fits, naming the file', async () => {
    const files = await stageTexts(7);
    await expect(applyPatch(files, [{ file: 'blake3.ts', find: 'no such text', replace: '' }], read)).rejects.toThrow(
      /edit of blake3\.ts no longer fits the stage \(the text it replaces is gone\)/,
    );
  });
});

describe('linking compiled files', () => {
  it('finds static, re-exported and dynamic imports but not paths in comments or strings', () => {
    const js = [
      "import { compress } from './compress.js';",
      "import * as simd from './compress4x.js';",
      "export { x } from './wasm.js';",
      "import './side.js';",
      "// import { fake } from './comment.js';",
      "const s = \"import { fake } from './string.js';\";",
      "const m = await import('./lazy.js');",
    ].join('\n');
    expect(importSites(js).map((site) => js.slice(site.start, site.end))).toEqual(['./compress.js', './compress4x.js', './wasm.js', './side.js', './lazy.js']);
  });

  it('orders dependencies first, rewrites them, and names what cannot be linked', () => {
    const program = { id: 'draft', title: 'd', entry: 'blake3.ts', modules: { 'blake3.ts': "import { a } from './a.js';", 'a.ts': "import { b } from './b.ts';", 'b.ts': 'export const b = 1;', 'gen.ts': "import fs from 'node:fs';" } };
    expect(linkOrder(program)).toEqual(['b.ts', 'a.ts', 'blake3.ts']);
    expect(rewriteImports(program.modules['blake3.ts'], 'blake3.ts', Object.keys(program.modules), (f) => `blob:${f}`)).toBe("import { a } from 'blob:a.ts';");
    expect(() => linkOrder({ ...program, entry: 'gen.ts' })).toThrow(/gen\.ts imports "node:fs": in the playground a stage's files can import each other/);
    expect(() => linkOrder({ ...program, modules: { ...program.modules, 'b.ts': "import './blake3.js';" } })).toThrow(/blake3\.ts → a\.ts → b\.ts → blake3\.ts: these files import each other in a circle/);
    expect(() => linkOrder({ ...program, modules: { 'blake3.ts': "import './missing.js';" } })).toThrow(/imports "\.\/missing\.js", which is not one of this stage's files/);
  });

  it("links a generator's Node-only tail, a dynamic import of node:, to a module that refuses, and never follows it", () => {
    const gen = "export function generate() { return ''; }\nif (typeof process !== 'undefined') { const { writeFileSync } = await import('node:fs'); }";
    const program = { id: 'generator', title: 'gen.ts', entry: 'gen.ts', modules: { 'gen.ts': gen } };
    expect(linkOrder(program)).toEqual(['gen.ts']);
    expect(rewriteImports(gen, 'gen.ts', ['gen.ts'], (f) => `blob:${f}`)).toContain(`await import('blob:${NODE_ONLY}')`);
    // A static import of Node's modules is still refused, with the sentence above.
    expect(() => linkOrder({ ...program, modules: { 'gen.ts': "import { writeFileSync } from 'node:fs';" } })).toThrow(/gen\.ts imports "node:fs"/);
  });

  it("links every registered stage's own files (so a new stage works in the playground by being registered)", async () => {
    // A stage the playground cannot open says why instead (stage 11: files in another folder, threads).
    for (const stage of STAGES.filter((s) => s.playgroundUnavailable === undefined)) {
      const files = await stageTexts(stage.index);
      const modules = Object.fromEntries(Object.entries(files).map(([name, text]) => [name, ts.transpileModule(text, { compilerOptions: OPTIONS }).outputText]));
      const order = linkOrder({ id: stage.id, title: stage.title, entry: baseName(stage.files[0]), modules });
      expect(order.at(-1), stage.id).toBe(baseName(stage.files[0]));
      expect(order, stage.id).not.toContain('gen.ts');
    }
  });
});
