// Where the code view gets its text: the stages' own source files, bundled as raw text
// (each file its own small chunk, fetched only when shown), paired by file name with
// the stage before, plus the WebAssembly of stages 9 and on, printed as WAT by the stage itself.

import { STAGES, type Stage } from '../../../../steps/index.ts';

const RAW = import.meta.glob<string>('/steps/*/*.ts', { query: '?raw', import: 'default' });

/** One entry of the code view's file picker. */
export interface CodeFile {
  /** File name, the same across stages: "compress.ts". */
  name: string;
  /** Repo-relative path in this stage; absent when the stage dropped the file. */
  path?: string;
  /** The same name in the previous stage; absent when the file is new here. */
  previousPath?: string;
  /** Written by a generator (registry `generated` list); confirmed again from the text. */
  generated: boolean;
  /** Text computed at runtime rather than read from a file (the WAT of stages 9 and on). */
  runtime?: 'wat';
}

/** The name the WAT of a SIMD stage goes by when its registry entry gives none. */
export const WAT_FILE = 'compress4x.wat';

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The files of `stage`, each paired with the file of the same name in the stage before,
 * then the previous stage's files this stage does not have (shown whole, as the previous stage's).
 */
export function stageFiles(stage: Stage, previous: Stage | undefined): CodeFile[] {
  const before = new Map((previous?.files ?? []).map((path) => [baseName(path), path]));
  const files: CodeFile[] = stage.files.map((path) => ({
    name: baseName(path),
    path,
    previousPath: before.get(baseName(path)),
    generated: stage.generated.includes(path),
  }));
  for (const [name, previousPath] of before) {
    if (!files.some((file) => file.name === name)) files.push({ name, previousPath, generated: false });
  }
  if (stage.requires === 'wasm-simd') files.push({ name: stage.watFile ?? WAT_FILE, generated: true, runtime: 'wat' });
  return files;
}

/** The text of a repo-relative source file, or a clear error when it is not bundled. */
export async function loadSource(path: string): Promise<string> {
  const load = RAW['/' + path];
  if (!load) throw new Error(`${path} is not among the bundled stage sources.`);
  return load();
}

/** Go's convention, which tools and reviewers recognise, marks generated files. */
export function isGeneratedText(text: string): boolean {
  return text.startsWith('// Code generated ');
}

/** A SIMD stage prints the module(s) it assembles; the text is what the bytes say. */
export async function loadWat(stage: Stage): Promise<string> {
  const module = (await stage.load()) as unknown as { wat?: () => string };
  if (typeof module.wat !== 'function') throw new Error(`Stage ${stage.index} does not export wat().`);
  return module.wat();
}

export function stageBefore(stage: Stage): Stage | undefined {
  return STAGES[stage.index - 1];
}
