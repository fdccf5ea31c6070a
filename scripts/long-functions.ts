// Lists every function of 60 lines or more in the project's own code, so that none grows
// long without a reason given where it is written.
//
//   npx tsx scripts/long-functions.ts    print `lines  file:line  name`, longest first;
//                                        exit 1 when one has no reason
//
// A function counts from the line it starts on to the line it ends on, comments inside
// included. Its reason is a comment directly above it (or above the statement that holds
// it) whose line starts with `long:`, e.g. `// long: the 7 rounds inlined, the lesson of
// stage 3` (so a sentence that merely says "this long: ..." gives no reason).
// Scanned: the .ts files and the <script> parts of the .svelte files under src/, server/,
// scripts/ and workers/, and the top-level files of steps/. The stages' own folders
// (steps/<nn-slug>/) are left out: their inlined rounds are the lesson itself.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** A function this many lines long or longer needs a `long:` reason above it. */
export const LONG_LINES = 60;

export interface LongFunction {
  file: string;
  /** The line it starts on, from 1. */
  line: number;
  lines: number;
  name: string;
  /** The text of its `long:` comment, or null when it has none. */
  reason: string | null;
}

const FOLDERS = ['src', 'server', 'scripts', 'workers'];
const SOURCE = /\.(ts|svelte)$/;
/** A comment line that starts with `long:`, after `//`, `/*` or a JSDoc `*`. */
const REASON = /^\s*(?:\/\/+|\/\*+|\*)?\s*long:/m;
const SCRIPT_BLOCK = /<script\b[^>]*>([\s\S]*?)<\/script>/g;

/** The name a reader would look for: the function's own, or that of what holds it. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(file).slice(0, 40)}(...) callback`;
  if (ts.isExportAssignment(parent)) return 'default export';
  return '(anonymous)';
}

/** The `long:` comment directly above the function or above the outermost node that starts on its line. */
function reasonOf(node: ts.Node, file: ts.SourceFile): string | null {
  const line = (at: number) => file.getLineAndCharacterOfPosition(at).line;
  const startLine = line(node.getStart(file));
  let head = node;
  while (head.parent && !ts.isSourceFile(head.parent) && !ts.isBlock(head.parent) && line(head.parent.getStart(file)) === startLine) head = head.parent;
  for (const candidate of new Set([node, head])) {
    for (const range of ts.getLeadingCommentRanges(file.text, candidate.getFullStart()) ?? []) {
      const text = file.text.slice(range.pos, range.end);
      if (REASON.test(text)) return text;
    }
  }
  return null;
}

/** The functions of LONG_LINES lines or more in one script, `firstLine` being the line of the file it starts on. */
export function longFunctionsIn(fileName: string, text: string, firstLine = 1): LongFunction[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines >= LONG_LINES) {
        const declaration = node as ts.FunctionLikeDeclaration;
        found.push({ file: fileName, line: start + firstLine, lines, name: nameOf(declaration, file), reason: reasonOf(node, file) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The long functions of a .ts file, or of each <script> part of a .svelte file. */
export function longFunctionsInFile(fileName: string, text: string): LongFunction[] {
  if (!fileName.endsWith('.svelte')) return longFunctionsIn(fileName, text);
  return [...text.matchAll(SCRIPT_BLOCK)].flatMap((match) => {
    const bodyStart = match.index + match[0].indexOf('>') + 1;
    const firstLine = text.slice(0, bodyStart).split('\n').length;
    return longFunctionsIn(fileName, match[1], firstLine);
  });
}

function walk(path: string, out: string[]): string[] {
  if (statSync(path).isFile()) {
    if (SOURCE.test(path) && !path.endsWith('.d.ts')) out.push(path);
  } else {
    for (const name of readdirSync(path)) if (name !== 'node_modules' && name !== 'target') walk(join(path, name), out);
  }
  return out;
}

/** The scanned files, as paths from `root`: the four folders whole, and steps/ without its stage folders. */
export function scannedFiles(root = '.'): string[] {
  const files = FOLDERS.flatMap((folder) => walk(join(root, folder), []));
  const steps = readdirSync(join(root, 'steps')).map((name) => join(root, 'steps', name));
  files.push(...steps.filter((path) => statSync(path).isFile() && SOURCE.test(path)));
  return files.map((file) => relative(root, file).replace(/\\/g, '/')).sort();
}

/** Every long function of the project, longest first. */
export function findLongFunctions(root = '.'): LongFunction[] {
  const found = scannedFiles(root).flatMap((file) => longFunctionsInFile(file, readFileSync(join(root, file), 'utf8')));
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const found = findLongFunctions();
  for (const { lines, file, line, name, reason } of found) {
    console.log(`${String(lines).padStart(5)}  ${file}:${line}  ${name}${reason ? '  (reason given)' : ''}`);
  }
  const unexplained = found.filter((fn) => fn.reason === null);
  console.log(`\n${found.length} functions of ${LONG_LINES} lines or more, ${unexplained.length} without a \`long:\` reason`);
  if (unexplained.length > 0) process.exitCode = 1;
}
