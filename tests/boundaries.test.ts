// The rooms of the code and what each may load, as the README's Layout lists them.
// A room that reaches into another one's files is refused here: src/core runs in every
// runtime (a page, a worker, Node, the class server) and so may load only steps/ and
// itself; the server, the command line and the Node drivers load core, never a page; a
// worker entry loads core, never a page folder; shared widgets never load a tab. And no
// two folders import each other, even for types only: a circle makes both harder to read
// and to load in isolation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Each room, the rooms it may import (itself always), longest prefix first. */
const RULES: [room: string, mayImport: string[]][] = [
  ['src/app/shell', ['src/app', 'src/core', 'steps', 'go']],
  ['src/app/ui', ['src/core', 'steps', 'go']],
  ['src/app', ['src/core', 'steps', 'go', 'data', 'content', 'workers']],
  ['src/core', ['steps']],
  ['src/node', ['src/core', 'steps']],
  ['workers', ['src/core', 'steps', 'data']],
  ['server', ['src/core', 'steps']],
  ['scripts', ['src/core', 'src/node', 'steps', 'go', 'data']],
  ['steps', []],
  ['go', ['src/core']],
  ['data', ['src/core']],
  ['content', []],
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

/** Pairs of folders that import each other, one file of each direction named. */
export function twoWayFolders(refs: readonly Reference[]): string[] {
  const edges = new Map<string, string>();
  for (const { from, to, starts } of refs) {
    if (starts || !isLocal(to)) continue;
    const [a, b] = [dirname(from), dirname(to)];
    if (a !== b && !edges.has(`${a} ${b}`)) edges.set(`${a} ${b}`, `${from} -> ${to}`);
  }
  const pairs: string[] = [];
  for (const [key, example] of edges) {
    const [a, b] = key.split(' ');
    if (a < b && edges.has(`${b} ${a}`)) pairs.push(`${a} <-> ${b}: ${example}; ${edges.get(`${b} ${a}`)}`);
  }
  return pairs;
}

const allReferences = (): Reference[] =>
  SCANNED.flatMap((top) => walk(top)).flatMap((file) => references(relative('.', file), readFileSync(file, 'utf8')));

describe('rooms and what they may import', () => {
  it('refuses a reference across the rules, and a pair of folders that import each other (the check itself works)', () => {
    const refs = [
      ...references('src/core/bench/runner.ts', "import { x } from '../../app/bench/browser.ts';\nimport { y } from 'node:fs';"),
      ...references('workers/bench.worker.ts', "import type { Z } from '../src/app/playground/checks.ts';"),
      ...references('src/node/node.ts', "const entry = new URL('../../workers/bench.node-worker.mjs', import.meta.url);"),
      ...references('src/app/ui/routes.ts', "import { GO_STAGES } from '../go/stages.ts';"),
      ...references('src/app/go/stages.ts', "import type { Part } from '../ui/story-types.ts';"),
    ];
    expect(crossings(refs)).toEqual([
      'src/core/bench/runner.ts -> src/app/ui/run/browser.ts (src/core may import src/core, steps)',
      'src/core/bench/runner.ts -> node:fs (only Node can load it)',
      'workers/bench.worker.ts -> src/app/playground/checks.ts (workers may import workers, src/core, steps, data)',
      'src/app/ui/routes.ts -> src/app/go/stages.ts (src/app/ui may import src/app/ui, src/core, steps, go)',
    ]);
    expect(twoWayFolders(refs)).toEqual(['src/app/go <-> src/app/ui: src/app/go/stages.ts -> src/app/ui/story-types.ts; src/app/ui/routes.ts -> src/app/go/stages.ts']);
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

  it('has no two folders that import each other', () => {
    expect(twoWayFolders(allReferences())).toEqual([]);
  });
});
