// The playground's compiler: TypeScript itself, as Monaco's TypeScript language service
// runs it in a worker of the app (loaded the first time the playground opens). The
// editor shows its diagnostics as markers while the learner types; before a run this
// module asks for them again, refuses to run while any error remains, and takes each
// file's JavaScript from the same service, so what runs is what was type-checked.

import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { MonacoApi } from '../ui/code/monaco.ts';
import { linkOrder, type Program } from '../../core/playground/link.ts';

type TypeScriptApi = typeof import('monaco-editor/languages/features/typescript/register');
type ModuleResolutionKind = TypeScriptApi['ModuleResolutionKind'][keyof TypeScriptApi['ModuleResolutionKind']];

let loading: Promise<TypeScriptApi> | undefined;

/**
 * What the stages' generators (gen.ts) use of Node, in the tail that writes their files
 * under `npx tsx` and is skipped where `process` does not exist, as in the sandbox: declared
 * so a generator type-checks in the editor like the rest of its stage.
 */
const NODE_FOR_GENERATORS = [
  'declare const process: { argv: string[] };',
  "declare module 'node:url' { export function pathToFileURL(path: string): URL; }",
  "declare module 'node:fs' {",
  '  export function writeFileSync(file: URL | string, text: string): void;',
  "  export function readFileSync(file: URL | string, encoding: 'utf8'): string;",
  '}',
].join('\n');

/** Registers TypeScript's language features (diagnostics, hovers, completion) with the stages' options. */
export function loadTypeScript(monaco: MonacoApi): Promise<TypeScriptApi> {
  loading ??= (async () => {
    // Monaco's registration starts the service when a model of its language first appears,
    // but only if none appeared earlier. Rather than depend on the order, make sure one has
    // appeared (the registration's own hook then never fires) and start the service here,
    // exactly once.
    monaco.editor.createModel('', 'typescript').dispose();
    const ts = await import('monaco-editor/languages/features/typescript/register');
    // These options replace Monaco's, which let the service take files without a .ts
    // extension. Every model it sees is a stage's file under /playground/ (the code views
    // use a language of their own, READING_TYPESCRIPT), so none is needed.
    ts.typescriptDefaults.setCompilerOptions({
      // The syntax goes out as written: every browser the lab supports runs it.
      target: ts.ScriptTarget.ESNext,
      module: ts.ModuleKind.ESNext,
      // As tsconfig.json resolves the stages' imports ("bundler"; this enum only names the older kinds).
      moduleResolution: 100 as ModuleResolutionKind,
      lib: ['lib.es2022.d.ts', 'lib.webworker.d.ts'],
      strict: true,
      isolatedModules: true,
      // The stages import "./compress.ts"; the output imports "./compress.js", which the sandbox links.
      rewriteRelativeImportExtensions: true,
      noEmitOnError: false,
      newLine: ts.NewLineKind.LineFeed,
    });
    ts.typescriptDefaults.addExtraLib(NODE_FOR_GENERATORS, 'file:///playground/node-for-generators.d.ts');
    ts.typescriptDefaults.setEagerModelSync(true);
    const mode = await import('monaco-editor/languages/features/typescript/tsMode.js');
    mode.setupTypeScript(ts.typescriptDefaults);
    return ts;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/**
 * Checks every TypeScript model again. A file is checked as soon as its model appears,
 * so blake3.ts, made before compress.ts, would keep a "cannot find ./compress.ts" marker
 * until edited; call this once a stage's files all exist.
 */
export async function recheckAll(): Promise<void> {
  const ts = await import('monaco-editor/languages/features/typescript/register');
  ts.typescriptDefaults.setDiagnosticsOptions({ ...ts.typescriptDefaults.getDiagnosticsOptions() });
}

/** One error, where the learner can find it. */
export interface CompileError {
  file: string;
  line: number;
  column: number;
  message: string;
  /** A syntax error: the file cannot even be parsed. */
  syntax: boolean;
}

export type Compiled = { ok: true; program: Program } | { ok: false; errors: CompileError[] };

function flatten(text: string | { messageText: string; next?: unknown[] }): string {
  if (typeof text === 'string') return text;
  const next = (text.next ?? []) as { messageText: string; next?: unknown[] }[];
  return [text.messageText, ...next.map(flatten)].join(' ');
}

/**
 * Compiles the files in `models` (file name to model; the entry first) into a program
 * the sandbox can link. Only the files the entry reaches count: a generator such as
 * gen.ts is shown and may be edited, but it does not run in the browser.
 */
export async function compile(
  models: Map<string, Monaco.editor.ITextModel>,
  program: Omit<Program, 'modules' | 'entry'>,
): Promise<Compiled> {
  const ts = await import('monaco-editor/languages/features/typescript/register');
  const all = [...models.values()];
  const worker = await (await ts.getTypeScriptWorker())(...all.map((m) => m.uri));
  const modules: Record<string, string> = {};
  for (const [name, model] of models) {
    const output = await worker.getEmitOutput(model.uri.toString());
    const js = output.outputFiles.find((file) => file.name.endsWith('.js'));
    modules[name] = js?.text ?? '';
  }
  const entry = [...models.keys()][0];
  const linked: Program = { ...program, entry, modules };
  const errors: CompileError[] = [];
  let reachable: string[];
  try {
    reachable = linkOrder(linked);
  } catch (error) {
    reachable = [...models.keys()];
    errors.push({ file: entry, line: 1, column: 1, message: error instanceof Error ? error.message : String(error), syntax: false });
  }
  for (const kind of ['syntax', 'types'] as const) {
    for (const name of reachable) {
      const model = models.get(name)!;
      const uri = model.uri.toString();
      const diagnostics = kind === 'syntax' ? await worker.getSyntacticDiagnostics(uri) : await worker.getSemanticDiagnostics(uri);
      for (const d of diagnostics) {
        if (d.category !== 1) continue;
        const at = model.getPositionAt(d.start ?? 0);
        errors.push({ file: name, line: at.lineNumber, column: at.column, message: flatten(d.messageText), syntax: kind === 'syntax' });
      }
    }
    // A file that does not parse gives type errors that only repeat it: stop at syntax.
    if (errors.length > 0) break;
  }
  if (errors.length > 0) return { ok: false, errors };
  // Keep only what runs: unreachable files (gen.ts) are not sent to the sandbox.
  return { ok: true, program: { ...linked, modules: Object.fromEntries(reachable.map((name) => [name, modules[name]])) } };
}
