// The rooms of the code and what each may load, as the README's Layout lists them.
// A room that reaches into another one's files is refused here: src/core runs in every
// runtime (a page, a worker, Node, the class server) and so may load only steps/ and
// itself; the server, the command line and the Node drivers load core, never a page; a
// worker entry loads core, never a page folder. In the app each tab is a room: it loads
// the shared widgets (src/app/ui), never another tab, and only the shell loads tabs; a
// widget only one tab (or the shell) imports belongs in that tab, and ui keeps every file
// in a folder named for its job.
// No rooms, folders or files import one another in a loop of any length, even for types
// only: a loop makes each part harder to read and to load alone. A file in no room fails,
// so a new folder starts with its rule.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** What a tab of the app may import: the shared widgets, core, the stages, the Go track, data, content and worker entries; never another tab. */
const TAB = ['src/app/ui', 'src/core', 'steps', 'go', 'data', 'content', 'workers'];
/** The app's tabs (one per item of the top bar): each a room of its own. */
const TABS = ['story', 'bench', 'results', 'compare', 'go', 'class', 'playground', 'file', 'teach'];

/** Each room, the rooms it may import (itself always), longest prefix first. A scanned file in no room fails. */
const RULES: [room: string, mayImport: string[]][] = [
  ['src/app/shell', ['src/app', 'src/core', 'steps', 'go', 'content']],
  ['src/app/ui', ['src/core', 'steps', 'go', 'data', 'content', 'workers']],
  ...TABS.map((tab): [string, string[]] => [`src/app/${tab}`, TAB]),
  ['src/core', ['steps']],
  ['src/node', ['src/core', 'steps']],
  ['workers', ['src/core', 'steps', 'data']],
  ['server', ['src/core', 'steps']],
  ['scripts', ['src/core', 'src/node', 'steps', 'go', 'data']],
  ['steps', []],
  ['go', []],
  ['data', []],
  ['content', []],
  ['vite.config.ts', ['src/core', 'src/node', 'src/app']],
  ['vitest.config.ts', ['src/node', 'scripts']],
  ['src/vite-env.d.ts', []],
];

const SCANNED = ['src', 'workers', 'server', 'scripts', 'steps', 'go', 'data', 'content', 'vite.config.ts', 'vitest.config.ts'];
const SOURCE = /\.(ts|svelte|mjs)$/;
/** Modules only Node can load: its own, the browser drivers, the server's, Vite. */
const NODE_ONLY = /^(node:|playwright-core|puppeteer-core|selenium-webdriver|vite$|fastify|@fastify\/|better-sqlite3)/;
/** A worker entry, which a page or a driver starts by address (that is not an import of its code). */
const WORKER_ENTRY = /^workers\/[\w.-]+\.(worker|node-worker)\.(ts|mjs)$/;

const HASH_LIBRARY = /^(@noble\/hashes|hash-wasm|blake3-wasm|blake3-jit)/;

/** A worker entry this long is doing work that belongs in core, where it can be tested and shared. */
const MAX_ENTRY_LINES = 40;

export interface Reference {
  from: string;
  to: string;
  /** A file started as a worker (`new URL(..., import.meta.url)`, Vite's `?worker`), not imported. */
  starts: boolean;
  /** Loaded only when called for (`import(...)`, a glob), not when the importer loads. */
  lazy: boolean;
}

const SPECIFIER = /\b(?:from|import)\s*(\(?)\s*(['"])([^'"]+)\2|new URL\(\s*(['"])([^'"]+)\4\s*,\s*import\.meta\.url|import\.meta\.glob(?:<[^>]*>)?\(\s*(['"])([^'"]+)\6/g;

/** Every file `file` imports or starts, as paths from the root; bare package names as they are. */
export function references(file: string, text: string): Reference[] {
  const found: Reference[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const spec = match[3] ?? match[5] ?? match[7];
    const started = match[5] !== undefined || /[?&]worker\b/.test(spec);
    const lazy = match[1] === '(' || match[7] !== undefined;
    const bare = spec.split('?')[0];
    const path = bare.startsWith('.') ? normalize(join(dirname(file), bare)) : bare.startsWith('/') ? bare.slice(1) : bare;
    found.push({ from: file, to: path.replace(/\\/g, '/'), starts: started && !path.includes('*'), lazy });
  }
  return found;
}

function walk(path: string, out: string[] = []): string[] {
  if (statSync(path).isFile()) {
    if (SOURCE.test(path)) out.push(path);
  } else {
    for (const name of readdirSync(path)) if (name !== 'node_modules' && name !== 'target') walk(join(path, name), out);
  }
  return out;
}

/** Core, the app and the browser's workers run in a browser (the stages choose at run time). */
const loadedByBrowsers = (file: string) => /^src\/(core|app)\//.test(file) || (file.startsWith('workers/') && !/\.node-worker\./.test(file));

export const roomOf = (path: string): string | null => RULES.find(([room]) => path === room || path.startsWith(`${room}/`))?.[0] ?? null;
const isLocal = (path: string) => SCANNED.some((top) => path === top || path.startsWith(`${top}/`)) || path.startsWith('tests/');

/** Every reference that breaks a room's rules, as "from -> to (why)". */
export function crossings(refs: readonly Reference[]): string[] {
  const problems: string[] = [];
  for (const { from, to, starts } of refs) {
    const room = roomOf(from);
    if (!room) continue;
    const allowed = RULES.find(([name]) => name === room)![1];
    if (!isLocal(to)) {
      if (NODE_ONLY.test(to) && loadedByBrowsers(from)) problems.push(`${from} -> ${to} (only Node can load it)`);
      continue;
    }
    const target = roomOf(to) ?? to.split('/')[0];
    if (target === room || to.startsWith(`${room}/`)) continue;
    if (starts && WORKER_ENTRY.test(to)) continue;
    if (allowed.some((other) => target === other || target.startsWith(`${other}/`))) continue;
    problems.push(`${from} -> ${to} (${room} may import ${[room, ...allowed].join(', ')})`);
  }
  return problems;
}

/** Every loop in a graph: each group of two or more nodes that reach one another (Tarjan's strongly connected components), sorted. */
export function loops(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    order.set(node, order.size);
    low.set(node, order.get(node)!);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!order.has(next)) visit(next);
      if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, low.get(next)!));
    }
    if (low.get(node) !== order.get(node)) return;
    const group = stack.splice(stack.indexOf(node));
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of edges.keys()) if (!order.has(node)) visit(node);
  return found.sort((x, y) => x[0].localeCompare(y[0]));
}

/** The loops among `refs` seen through `key` (a file's room, its folder, or the file itself), each with the imports that close it. */
export function loopsBy(refs: readonly Reference[], key: (path: string) => string): string[] {
  const edges = new Map<string, Set<string>>();
  const examples = new Map<string, string>();
  for (const { from, to, starts } of refs) {
    if (starts || !isLocal(to)) continue;
    const [a, b] = [key(from), key(to)];
    if (a === b) continue;
    edges.set(a, (edges.get(a) ?? new Set()).add(b));
    if (!examples.has(`${a} ${b}`)) examples.set(`${a} ${b}`, `${from} -> ${to}`);
  }
  return loops(edges).map((group) => {
    const closing = [...examples].filter(([pair]) => pair.split(' ').every((end) => group.includes(end))).map(([, example]) => example);
    return `${group.join(', ')}: ${closing.join('; ')}`;
  });
}

const byRoom = (path: string) => roomOf(path) ?? path.split('/')[0];

const UI = 'src/app/ui';

/**
 * The shared widgets that are not shared: a module of src/app/ui that one tab (or the shell)
 * imports and no other module of ui belongs in that tab; and ui holds its files in folders
 * by job, none loose. The tests' own imports do not count.
 */
export function misplacedInUi(files: readonly string[], refs: readonly Reference[]): string[] {
  const problems: string[] = [];
  for (const file of files.filter((path) => path.startsWith(`${UI}/`))) {
    if (dirname(file) === UI) {
      problems.push(`${file} lies loose in ${UI}: it belongs in one of its folders`);
      continue;
    }
    const importers = refs.filter((ref) => ref.to === file && !ref.starts && !ref.from.startsWith('tests/')).map((ref) => ref.from);
    if (importers.some((from) => from.startsWith(`${UI}/`))) continue;
    const rooms = [...new Set(importers.map(byRoom))];
    if (rooms.length === 1) problems.push(`${file} is imported only by ${rooms[0]}: it belongs in ${rooms[0]}`);
  }
  return problems;
}

/** Scanned files that no rule covers: a new folder gets a rule before it gets code. */
export const unruled = (files: readonly string[]): string[] => files.filter((file) => roomOf(file) === null);

const scannedFiles = (): string[] => SCANNED.flatMap((top) => walk(top)).map((file) => relative('.', file));
const allReferences = (): Reference[] => scannedFiles().flatMap((file) => references(file, readFileSync(file, 'utf8')));

describe('rooms and what they may import', () => {
  it('refuses a reference across the rules, a loop of any length, a file in no room, and a ui module with one user (the checks themselves work)', () => {
    const refs = [
      ...references('src/core/bench/runner.ts', "import { x } from '../../app/ui/run/browser.ts';\nimport { y } from 'node:fs';"),
      ...references('workers/bench.worker.ts', "import type { Z } from '../src/app/playground/checks.ts';"),
      ...references('src/node/node.ts', "const entry = new URL('../../workers/bench.node-worker.mjs', import.meta.url);"),
      ...references('src/app/ui/nav/routes.ts', "import { GO_STAGES } from '../../go/stages.ts';"),
      ...references('src/app/compare/ComparePage.svelte', "import ResultsPage from '../results/ResultsPage.svelte';"),
    ];
    expect(crossings(refs)).toEqual([
      'src/core/bench/runner.ts -> src/app/ui/run/browser.ts (src/core may import src/core, steps)',
      'src/core/bench/runner.ts -> node:fs (only Node can load it)',
      'workers/bench.worker.ts -> src/app/playground/checks.ts (workers may import workers, src/core, steps, data)',
      'src/app/ui/nav/routes.ts -> src/app/go/stages.ts (src/app/ui may import src/app/ui, src/core, steps, go, data, content, workers)',
      'src/app/compare/ComparePage.svelte -> src/app/results/ResultsPage.svelte (src/app/compare may import src/app/compare, src/app/ui, src/core, steps, go, data, content, workers)',
    ]);
    // Three rooms in a ring, each import allowed on its own but the ring is not.
    const ring = [
      ...references('src/app/ui/a.ts', "import '../story/b.ts';"),
      ...references('src/app/story/b.ts', "import '../shell/c.ts';"),
      ...references('src/app/shell/c.ts', "import '../ui/a.ts';"),
    ];
    expect(loopsBy(ring, byRoom)).toEqual([
      'src/app/shell, src/app/story, src/app/ui: src/app/ui/a.ts -> src/app/story/b.ts; src/app/story/b.ts -> src/app/shell/c.ts; src/app/shell/c.ts -> src/app/ui/a.ts',
    ]);
    // Three folders of one room in a ring, and three files of one folder.
    const folders = [
      ...references('src/core/x/a.ts', "import '../y/b.ts';"),
      ...references('src/core/y/b.ts', "import type { C } from '../z/c.ts';"),
      ...references('src/core/z/c.ts', "import '../x/a.ts';"),
    ];
    expect(loopsBy(folders, byRoom)).toEqual([]);
    expect(loopsBy(folders, dirname)).toEqual([
      'src/core/x, src/core/y, src/core/z: src/core/x/a.ts -> src/core/y/b.ts; src/core/y/b.ts -> src/core/z/c.ts; src/core/z/c.ts -> src/core/x/a.ts',
    ]);
    const files = [
      ...references('src/core/x/a.ts', "import './b.ts';"),
      ...references('src/core/x/b.ts', "import './c.ts';"),
      ...references('src/core/x/c.ts', "export { a } from './a.ts';"),
      ...references('src/core/x/d.ts', "import './a.ts';"),
    ];
    expect(loopsBy(files, dirname)).toEqual([]);
    expect(loopsBy(files, (file) => file)).toEqual([
      'src/core/x/a.ts, src/core/x/b.ts, src/core/x/c.ts: src/core/x/a.ts -> src/core/x/b.ts; src/core/x/b.ts -> src/core/x/c.ts; src/core/x/c.ts -> src/core/x/a.ts',
    ]);
    expect(unruled(['src/app/story/StagePage.svelte', 'src/app/newtab/Page.svelte', 'misc/tool.ts'])).toEqual(['src/app/newtab/Page.svelte', 'misc/tool.ts']);
    // A ui module one tab imports (twice), one two tabs import, one only another ui module
    // imports, one only a test imports, and a loose file: the first and the last are refused.
    const shared = [
      'src/app/ui/lesson/Lonely.svelte',
      'src/app/ui/lesson/Shared.svelte',
      'src/app/ui/lesson/helper.ts',
      'src/app/ui/lesson/tested.ts',
      'src/app/ui/loose.ts',
    ];
    const uses = [
      ...references('src/app/story/StagePage.svelte', "import Lonely from '../ui/lesson/Lonely.svelte';\nimport Shared from '../ui/lesson/Shared.svelte';"),
      ...references('src/app/story/IntroPage.svelte', "const load = () => import('../ui/lesson/Lonely.svelte');"),
      ...references('src/app/go/GoStagePage.svelte', "import Shared from '../ui/lesson/Shared.svelte';"),
      ...references('src/app/ui/lesson/Shared.svelte', "import { help } from './helper.ts';"),
      ...references('tests/tested.test.ts', "import { x } from '../src/app/ui/lesson/tested.ts';"),
      ...references('src/app/shell/App.svelte', "import '../ui/loose.ts';"),
    ];
    expect(misplacedInUi(shared, uses)).toEqual([
      'src/app/ui/lesson/Lonely.svelte is imported only by src/app/story: it belongs in src/app/story',
      'src/app/ui/loose.ts lies loose in src/app/ui: it belongs in one of its folders',
    ]);
    // A test's import of the lonely module does not make it shared.
    expect(misplacedInUi(shared, [...uses, ...references('tests/lonely.test.ts', "import '../src/app/ui/lesson/Lonely.svelte';")])).toHaveLength(2);
  });

  it('finds the imports it checks', () => {
    const refs = allReferences();
    expect(refs.length).toBeGreaterThan(500);
    expect(refs).toContainEqual({ from: 'src/app/ui/run/browser.ts', to: 'workers/bench.worker.ts', starts: true, lazy: false });
    expect(refs).toContainEqual({ from: 'workers/bench.worker.ts', to: 'src/core/bench/bench-core.ts', starts: false, lazy: false });
    expect(refs).toContainEqual({ from: 'steps/index.ts', to: 'steps/00-reference/blake3.ts', starts: false, lazy: true });
    expect(refs).toContainEqual({ from: 'src/app/story/narrative.ts', to: 'content/stages/*.md', starts: false, lazy: true });
  });

  it('has no import across the rooms', () => {
    expect(crossings(allReferences())).toEqual([]);
  });

  it('keeps every worker entry thin: its work lives in core, the entry only exposes it', () => {
    const entries = readdirSync('workers').filter((name) => WORKER_ENTRY.test(`workers/${name}`));
    expect(entries).toContain('selftest.worker.ts');
    const long = entries.filter((name) => readFileSync(join('workers', name), 'utf8').split('\n').length > MAX_ENTRY_LINES);
    expect(long, `worker entries over ${MAX_ENTRY_LINES} lines`).toEqual([]);
  });

  it('starts the class server without loading a hash library: it needs only the contestants\' names', () => {
    const refs = allReferences();
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const ref of refs) if (ref.from === file && !ref.lazy && !ref.starts) visit(ref.to);
    };
    visit('server/main.ts');
    expect(loaded).toContain('src/core/class/plan.ts');
    expect([...loaded].filter((file) => HASH_LIBRARY.test(file) || file === 'steps/baselines.ts')).toEqual([]);
  });

  it('has no loop of any length between rooms, between folders, or between files, even for types only', () => {
    const refs = allReferences();
    expect(loopsBy(refs, byRoom), 'rooms').toEqual([]);
    expect(loopsBy(refs, dirname), 'folders').toEqual([]);
    expect(loopsBy(refs, (file) => file), 'files').toEqual([]);
  });

  it('keeps in src/app/ui only what is shared: a module one tab imports lives in that tab', () => {
    expect(misplacedInUi(scannedFiles(), allReferences())).toEqual([]);
  });

  it('has a rule for every file it scans', () => {
    const files = scannedFiles();
    expect(files.length).toBeGreaterThan(300);
    expect(unruled(files)).toEqual([]);
  });
});
