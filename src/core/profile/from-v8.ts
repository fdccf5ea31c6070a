// V8's CPU profile (the `.cpuprofile` JSON that node:inspector's and Chrome DevTools
// Protocol's Profiler.stop return, and DevTools and speedscope open) as a StageProfile.
//
// V8 gives a call tree whose nodes are call frames (function, script url, 0-based line
// and column) under their caller, the node on top of the stack at each sample, and the
// time between samples. Here rows are functions merged by name, file and line (one
// function called from two places is one row, as pprof counts it), self and total
// samples are counted per sample (a function twice on one stack counts once in its
// total), and the tree is merged by function along each path, nodes under 0.5% of all
// samples folded into their parent's self.

import { percent, type CallNode, type FunctionKind, type ProfileFunction, type ProfileSource, type StageProfile } from './profile.ts';

/** A call frame as V8 reports it: line and column are 0-based, -1 when there is none. */
export interface V8CallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export interface V8ProfileNode {
  id: number;
  callFrame: V8CallFrame;
  hitCount?: number;
  children?: number[];
}

/** Profiler.Profile of the DevTools protocol: times in microseconds. */
export interface V8Profile {
  nodes: V8ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Nodes of the merged tree below this share of all samples are folded into their parent. */
export const FOLD_BELOW_PERCENT = 0.5;

/** V8's own buckets, by the names it gives them; "(root)" is the tree's root, not a row. */
const BUCKETS: Record<string, FunctionKind> = {
  '(garbage collector)': 'gc',
  '(program)': 'program',
  '(idle)': 'idle',
};

export interface FromV8Options {
  stage: string;
  source: ProfileSource;
  inputBytes: number;
  /**
   * Where the repository's files are found, as url prefixes ending in "/"
   * ('file:///home/me/blake3-lab/', 'http://127.0.0.1:4200/'): a url under one of them
   * becomes a repo-relative path, and its function our code ('js').
   */
  roots: string[];
  /**
   * Where a frame's function is in the source, when the code ran transformed (TypeScript
   * stripped, or a WebAssembly module: where our code built it): its url and 0-based line.
   * Frames it has no answer for keep V8's position.
   */
  original?: (frame: V8CallFrame) => { url: string; lineNumber: number } | undefined;
  /**
   * Where stacks start: at their outermost frame of a function this holds for (the
   * stage's code), leaving out the frames that called it (the profiler's loop), so the
   * tree and the totals show the stage alone, however V8 inlined the loop. Stacks with
   * no such frame are kept whole.
   */
  startAt?: (fn: Pick<ProfileFunction, 'kind' | 'file' | 'name'>) => boolean;
  /** What the profile does not show, said once (stage 11: its pool's workers are not sampled). */
  note?: string;
}

/** A frame's key in tables of positions: V8 gives one call frame per function and script. */
export function frameKey(frame: V8CallFrame): string {
  return `${frame.url}:${frame.lineNumber}:${frame.columnNumber}`;
}

function describe(frame: V8CallFrame, options: FromV8Options): Omit<ProfileFunction, 'selfSamples' | 'totalSamples' | 'selfPercent' | 'totalPercent'> {
  const bucket = BUCKETS[frame.functionName];
  if (bucket) return { name: frame.functionName, file: '', line: 0, kind: bucket };
  const where = options.original?.(frame) ?? { url: frame.url, lineNumber: frame.lineNumber };
  const root = options.roots.find((prefix) => where.url.startsWith(prefix));
  const file = root ? decodeURIComponent(where.url.slice(root.length).split(/[?#]/)[0]) : where.url;
  const kind: FunctionKind = frame.url.startsWith('wasm://') ? 'wasm' : root ? 'js' : 'native';
  return { name: frame.functionName || '(anonymous)', file, line: where.lineNumber + 1, kind };
}

/** Samples per node: from the samples array when there is one (it is exact), else V8's hit counts. */
function hitsByNode(profile: V8Profile): Map<number, number> {
  const hits = new Map<number, number>();
  if (profile.samples) {
    for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  } else {
    for (const node of profile.nodes) hits.set(node.id, node.hitCount ?? 0);
  }
  return hits;
}

interface Building {
  fn: number;
  selfSamples: number;
  totalSamples: number;
  children: Map<number, Building>;
}

function fold(node: Building, minimum: number): CallNode {
  const children: CallNode[] = [];
  let selfSamples = node.selfSamples;
  for (const child of node.children.values()) {
    if (child.totalSamples < minimum) selfSamples += child.totalSamples;
    else children.push(fold(child, minimum));
  }
  children.sort((a, b) => b.totalSamples - a.totalSamples);
  return { fn: node.fn, selfSamples, totalSamples: node.totalSamples, children };
}

export function fromV8(profile: V8Profile, options: FromV8Options): StageProfile {
  const root = rootOf(profile);
  const { rows, fnOf } = functionRows(profile, root, options);
  const hits = hitsByNode(profile);
  const total = [...hits.values()].reduce((a, b) => a + b, 0);
  const merged = mergedTree(profile, root, { rows, fnOf, hits }, options.startAt);
  const functions = hottestFirst(rows, merged, total);
  return {
    stage: options.stage,
    source: options.source,
    inputBytes: options.inputBytes,
    durationMs: (profile.endTime - profile.startTime) / 1000,
    samples: total,
    functions,
    tree: fold(merged, (total * FOLD_BELOW_PERCENT) / 100),
    ...(options.note !== undefined && { note: options.note }),
  };
}

/** The one node no other node names as its child. */
function rootOf(profile: V8Profile): V8ProfileNode {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const root = profile.nodes.find((node) => !parent.has(node.id));
  if (!root) throw new Error('a V8 profile has a root node');
  return root;
}

/** One row per function; the engine's three buckets always, so a view can say "0%". `fnOf` is each node's row (the root has none). */
function functionRows(profile: V8Profile, root: V8ProfileNode, options: FromV8Options): { rows: ProfileFunction[]; fnOf: Map<number, number> } {
  const rows: ProfileFunction[] = [];
  const rowOf = new Map<string, number>();
  const rowFor = (info: ReturnType<typeof describe>) => {
    const key = `${info.kind}\0${info.name}\0${info.file}\0${info.line}`;
    let index = rowOf.get(key);
    if (index === undefined) {
      index = rows.push({ ...info, selfSamples: 0, totalSamples: 0, selfPercent: 0, totalPercent: 0 }) - 1;
      rowOf.set(key, index);
    }
    return index;
  };
  for (const [name, kind] of Object.entries(BUCKETS)) rowFor({ name, file: '', line: 0, kind });
  const fnOf = new Map<number, number>();
  for (const node of profile.nodes) {
    if (node !== root) fnOf.set(node.id, rowFor(describe(node.callFrame, options)));
  }
  return { rows, fnOf };
}

/**
 * The call tree merged by function, walked from the root: each node's merged tree node,
 * and the functions on its path, whose rows get its samples. Stacks start where `startAt`
 * says (FromV8Options.startAt).
 */
function mergedTree(
  profile: V8Profile,
  root: V8ProfileNode,
  { rows, fnOf, hits }: { rows: ProfileFunction[]; fnOf: Map<number, number>; hits: Map<number, number> },
  startAt: FromV8Options['startAt'],
): Building {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const merged: Building = { fn: -1, selfSamples: hits.get(root.id) ?? 0, totalSamples: 0, children: new Map() };
  const stack: { id: number; into: Building; path: number[]; started: boolean }[] = (root.children ?? []).map((id) => ({ id, into: merged, path: [], started: false }));
  while (stack.length > 0) {
    const { id, into: caller, path: callers, started: inStage } = stack.pop()!;
    const node = byId.get(id);
    if (!node) throw new Error(`a V8 profile names node ${id} as a child but has no such node`);
    const fn = fnOf.get(id)!;
    const starts = !inStage && startAt?.(rows[fn]) === true;
    const [into, path] = starts ? [merged, []] : [caller, callers];
    let target = into.children.get(fn);
    if (!target) into.children.set(fn, (target = { fn, selfSamples: 0, totalSamples: 0, children: new Map() }));
    const onPath = path.includes(fn) ? path : [...path, fn];
    const count = hits.get(id) ?? 0;
    if (count > 0) {
      target.selfSamples += count;
      rows[fn].selfSamples += count;
      for (const f of onPath) rows[f].totalSamples += count;
    }
    for (const child of node.children ?? []) stack.push({ id: child, into: target, path: onPath, started: inStage || starts });
  }
  // Totals of the merged tree, from its leaves up.
  const sum = (node: Building): number => {
    node.totalSamples = node.selfSamples + [...node.children.values()].reduce((n, child) => n + sum(child), 0);
    return node.totalSamples;
  };
  sum(merged);
  return merged;
}

/** Rows hottest self first, with their shares of `total`; the tree's indices are changed to follow the new order. */
function hottestFirst(rows: ProfileFunction[], merged: Building, total: number): ProfileFunction[] {
  const order = rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => b.row.selfSamples - a.row.selfSamples || b.row.totalSamples - a.row.totalSamples || a.row.name.localeCompare(b.row.name));
  const newIndex = new Map(order.map(({ index }, i) => [index, i]));
  const renumber = (node: Building): void => {
    node.fn = node.fn < 0 ? -1 : newIndex.get(node.fn)!;
    for (const child of node.children.values()) renumber(child);
  };
  renumber(merged);
  return order.map(({ row }) => ({
    ...row,
    selfPercent: percent(row.selfSamples, total),
    totalPercent: percent(row.totalSamples, total),
  }));
}
