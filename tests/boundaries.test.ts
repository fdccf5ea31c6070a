// The bench folders read top to bottom: no module in src/core/bench or src/node
// imports, even for types only, a module that imports it back. A circle makes both files
// harder to read and to load in isolation (a worker, the command line). And src/bench,
// which the app's pages and workers load, holds nothing that only runs in Node.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FOLDER = 'src/core/bench';
const NODE_FOLDER = 'src/node';

/** Modules a browser cannot load: Node's own, and the browser drivers and Vite. */
const NODE_ONLY = /^import\b[^;]*?from '(node:[\w/]+|playwright-core|puppeteer-core|selenium-webdriver|vite)'/m;

const modules = (folder: string) => readdirSync(folder).filter((file) => file.endsWith('.ts'));

/** Every module in the folder and the sibling modules it imports ("./plan.ts"). */
function importGraph(folder: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const name of modules(folder)) {
    const text = readFileSync(join(folder, name), 'utf8');
    const siblings = [...text.matchAll(/^(?:import|export)\b[^;]*?from '\.\/([\w.-]+\.ts)'/gms)].map((match) => match[1]);
    graph.set(name, siblings);
  }
  return graph;
}

/** The first circle found, as the path around it ("a.ts -> b.ts -> a.ts"), or null. */
function findCircle(graph: Map<string, string[]>): string | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (name: string): string | null => {
    if (state.get(name) === 'done') return null;
    if (state.get(name) === 'open') return [...path.slice(path.indexOf(name)), name].join(' -> ');
    state.set(name, 'open');
    path.push(name);
    for (const next of graph.get(name) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    state.set(name, 'done');
    return null;
  };
  for (const name of graph.keys()) {
    const circle = visit(name);
    if (circle) return circle;
  }
  return null;
}

describe('src/bench imports', () => {
  it('finds a circle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(findCircle(graph)).toBe('a.ts -> b.ts -> c.ts -> a.ts');
  });

  it('has no import circle', () => {
    const graph = importGraph(FOLDER);
    expect(graph.get('contestants.ts')).toContain('faults.ts');
    expect(findCircle(graph)).toBeNull();
    const nodeGraph = importGraph(NODE_FOLDER);
    expect(nodeGraph.get('browsers.ts')).toContain('bench-server.ts');
    expect(findCircle(nodeGraph)).toBeNull();
  });

  it('keeps Node-only modules in src/node', () => {
    expect(NODE_ONLY.test("import { spawn } from 'node:child_process';")).toBe(true);
    expect(NODE_ONLY.test("import puppeteer from 'puppeteer-core';")).toBe(true);
    expect(modules(NODE_FOLDER).filter((name) => NODE_ONLY.test(readFileSync(join(NODE_FOLDER, name), 'utf8')))).toContain('node.ts');
    expect(modules(FOLDER).filter((name) => NODE_ONLY.test(readFileSync(join(FOLDER, name), 'utf8')))).toEqual([]);
  });
});
