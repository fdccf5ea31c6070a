// Linking a compiled draft inside the sandbox. A stage's files import each other
// ("./compress.ts"), but a blob: module has no folder to resolve such a path against:
// each file becomes its own blob: URL, and its imports are rewritten to the URLs of the
// files it names, dependencies first. Pure functions over the compiled JavaScript, so
// they are tested in Node; the sandbox worker does the URL part.

/** One stage's files compiled to JavaScript, ready to link and run. */
export interface Program {
  /** Contestant id: "draft", or the stage id for an original stage. */
  id: string;
  title: string;
  /** File name of the entry module, "blake3.ts". */
  entry: string;
  /** File name ("compress.ts") to its compiled JavaScript. */
  modules: Record<string, string>;
  requires?: 'wasm-simd';
}

/** One import specifier inside a module's text. */
export interface ImportSite {
  start: number;
  end: number;
  specifier: string;
  /** An `import('…')` expression, run only when reached. */
  dynamic: boolean;
}

/**
 * A generator's tail that writes its files runs only under Node: it imports node:fs with
 * await, behind a test for `process`. Such a dynamic import of Node's own modules is never
 * followed: it is linked to this name, a module that says so if it is ever reached. A
 * static import of one is refused like any other import from outside the stage.
 */
export const NODE_ONLY = 'node-only';
const nodeOnly = (site: ImportSite) => site.dynamic && site.specifier.startsWith('node:');

// `import x from '…'`, `import { a } from '…'`, `import * as m from '…'`, `export … from
// '…'` and `import '…'`, each at the start of a statement (compiled output puts them at
// the start of a line), so a path inside a comment or a string is left alone.
const STATIC_IMPORT = /(?:^|[;}])[ \t]*(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?(['"])([^'"\n]+)\1/gm;
// `import('…')` with a literal path.
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;

export function importSites(js: string): ImportSite[] {
  const sites: ImportSite[] = [];
  for (const pattern of [STATIC_IMPORT, DYNAMIC_IMPORT]) {
    for (const match of js.matchAll(pattern)) {
      const specifier = match[2];
      const end = match.index + match[0].lastIndexOf(match[1]);
      const start = end - specifier.length;
      sites.push({ start, end, specifier, dynamic: pattern === DYNAMIC_IMPORT });
    }
  }
  return sites.sort((a, b) => a.start - b.start);
}

/**
 * The file a specifier names among `files`: "./compress.ts", "./compress.js" and
 * "./compress" all name compress.ts. Throws a sentence a learner can act on otherwise.
 */
export function resolveSpecifier(specifier: string, from: string, files: readonly string[]): string {
  if (!specifier.startsWith('./')) {
    throw new Error(
      `${from} imports "${specifier}": in the playground a stage's files can import each other ("./compress.ts"), nothing else`,
    );
  }
  const name = specifier.slice(2);
  const stem = name.replace(/\.(ts|js)$/, '');
  const found = files.find((file) => file === name || file === `${stem}.ts`);
  if (!found) throw new Error(`${from} imports "${specifier}", which is not one of this stage's files (${files.join(', ')})`);
  return found;
}

/** The files the entry needs, each after the files it imports; throws on a cycle or a missing file. */
export function linkOrder(program: Program): string[] {
  const files = Object.keys(program.modules);
  const order: string[] = [];
  const visiting: string[] = [];
  const visit = (file: string) => {
    if (order.includes(file)) return;
    if (visiting.includes(file)) {
      throw new Error(`${[...visiting.slice(visiting.indexOf(file)), file].join(' → ')}: these files import each other in a circle, which the playground cannot link`);
    }
    visiting.push(file);
    for (const site of importSites(program.modules[file])) if (!nodeOnly(site)) visit(resolveSpecifier(site.specifier, file, files));
    visiting.pop();
    order.push(file);
  };
  if (!(program.entry in program.modules)) throw new Error(`the entry file ${program.entry} is missing`);
  visit(program.entry);
  return order;
}

/** `js` with every import specifier replaced by `urlOf(file it names)`. */
export function rewriteImports(js: string, from: string, files: readonly string[], urlOf: (file: string) => string): string {
  let out = '';
  let at = 0;
  for (const site of importSites(js)) {
    out += js.slice(at, site.start) + urlOf(nodeOnly(site) ? NODE_ONLY : resolveSpecifier(site.specifier, from, files));
    at = site.end;
  }
  return out + js.slice(at);
}
