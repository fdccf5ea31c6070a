// The JS Self-Profiling API's trace (Chromium's `new Profiler()`, https://wicg.github.io/js-self-profiling/)
// as a StageProfile. The trace is four tables: resources (script URLs), frames (a function
// at a place in a resource), stacks (a frame and its parent stack) and samples (a time and
// the stack on top, or none). Pure, so a unit test can feed it a trace by hand.
//
// The page profiles in slices with pauses between them (it must not freeze), so the caller
// may pass the slices' time windows: samples outside them are the page waiting, not the
// stage, and are dropped. A sample inside a window with no stack caught the engine with no
// JavaScript of ours running: garbage collection, compiling. The API does not tell those
// apart, so they are one row, "(program)", as V8's own profiler names such samples.

import { percent, type CallNode, type FunctionKind, type ProfileFunction, type ProfileSource, type StageProfile } from './profile.ts';

export interface SelfProfilingFrame {
  name: string;
  resourceId?: number;
  line?: number;
  column?: number;
}
export interface SelfProfilingStack {
  frameId: number;
  parentId?: number;
}
export interface SelfProfilingSample {
  timestamp: number;
  stackId?: number;
}
/** What `await profiler.stop()` resolves to. */
export interface SelfProfilingTrace {
  resources: string[];
  frames: SelfProfilingFrame[];
  stacks: SelfProfilingStack[];
  samples: SelfProfilingSample[];
}

export interface FromSelfProfilingOptions {
  stage: string;
  source: ProfileSource;
  inputBytes: number;
  /** [start, end] in the samples' clock (performance.now()); absent: every sample counts. */
  windows?: [number, number][];
  /** Call-tree nodes under this share of all samples fold into their parent's self time. */
  foldBelow?: number;
}

export const PROGRAM = '(program)';

/** A frame's script as a path of its origin ('assets/blake3-x.js'), or the URL when it is not http(s). */
function fileOf(url: string | undefined): string {
  if (url === undefined) return '';
  try {
    const parsed = new URL(url);
    return parsed.protocol.startsWith('http') ? parsed.pathname.replace(/^\//, '') : url;
  } catch {
    return url;
  }
}

function kindOf(frame: SelfProfilingFrame, url: string | undefined): FunctionKind {
  // V8 names WebAssembly frames by the module's name section, or "wasm-function[i]" without one.
  if (url?.startsWith('wasm://') || /^wasm-function\[\d+\]$/.test(frame.name) || /^\$/.test(frame.name)) return 'wasm';
  return url === undefined ? 'native' : 'js';
}

export function fromSelfProfiling(trace: SelfProfilingTrace, options: FromSelfProfilingOptions): StageProfile {
  const { windows } = options;
  const inWindow = (t: number) => !windows || windows.some(([start, end]) => t >= start && t <= end);
  const samples = trace.samples.filter((sample) => inWindow(sample.timestamp));
  const table = functionTable(trace);
  const root = callTree(samples, table, stackPaths(trace, table.frameFunction));
  fold(root, samples.length * (options.foldBelow ?? 0.005));
  const { functions, tree } = hottestFirst(table.functions, root, samples.length);
  return {
    stage: options.stage,
    source: options.source,
    inputBytes: options.inputBytes,
    durationMs: windows ? windows.reduce((sum, [start, end]) => sum + (end - start), 0) : span(samples),
    samples: samples.length,
    functions,
    tree,
  };
}

type FunctionTable = ReturnType<typeof functionTable>;

/**
 * One function per distinct frame; the API already lists each place once, but two frames
 * of one function may differ in column only when a script is loaded twice, so key by all.
 * `functionOf` adds one more (the "(program)" row) when it is first met.
 */
function functionTable(trace: SelfProfilingTrace) {
  const functions: ProfileFunction[] = [];
  const byKey = new Map<string, number>();
  const functionOf = (name: string, file: string, line: number, kind: FunctionKind, key: string): number => {
    let index = byKey.get(key);
    if (index === undefined) {
      index = functions.length;
      byKey.set(key, index);
      functions.push({ name, file, line, kind, selfSamples: 0, totalSamples: 0, selfPercent: 0, totalPercent: 0 });
    }
    return index;
  };
  const frameFunction = trace.frames.map((frame) => {
    const url = frame.resourceId === undefined ? undefined : trace.resources[frame.resourceId];
    const name = frame.name || '(anonymous)';
    const key = [name, url ?? '', frame.line ?? 0, frame.column ?? 0].join('\u0000');
    return functionOf(name, fileOf(url), frame.line ?? 0, kindOf(frame, url), key);
  });
  return { functions, functionOf, frameFunction };
}

/** Each stack as its path of functions from the outermost call in, computed once. */
function stackPaths(trace: SelfProfilingTrace, frameFunction: number[]): (stackId: number) => number[] {
  const paths = new Map<number, number[]>();
  return (stackId) => {
    const known = paths.get(stackId);
    if (known) return known;
    const path: number[] = [];
    for (let id: number | undefined = stackId; id !== undefined; id = trace.stacks[id].parentId) {
      path.push(frameFunction[trace.stacks[id].frameId]);
    }
    path.reverse();
    paths.set(stackId, path);
    return path;
  };
}

/** Counts each sample into its functions' self and total and into the call tree, whose root it returns. */
function callTree(samples: SelfProfilingSample[], { functions, functionOf }: FunctionTable, pathOf: (stackId: number) => number[]): CallNode {
  const root: CallNode = { fn: -1, selfSamples: 0, totalSamples: 0, children: [] };
  for (const sample of samples) {
    const path = sample.stackId === undefined ? [functionOf(PROGRAM, '', 0, 'program', PROGRAM)] : pathOf(sample.stackId);
    functions[path[path.length - 1]].selfSamples++;
    // A recursive function is on the stack twice but took the sample once.
    for (const fn of new Set(path)) functions[fn].totalSamples++;
    let node = root;
    node.totalSamples++;
    for (const fn of path) {
      let child = node.children.find((c) => c.fn === fn);
      if (!child) node.children.push((child = { fn, selfSamples: 0, totalSamples: 0, children: [] }));
      child.totalSamples++;
      node = child;
    }
    node.selfSamples++;
  }
  return root;
}

/**
 * Hottest self first, as StageProfile promises, with their shares of the `n` samples, and
 * the tree renumbered to match; functions never sampled (frames only reachable from other
 * windows) are left out.
 */
function hottestFirst(functions: ProfileFunction[], root: CallNode, n: number): { functions: ProfileFunction[]; tree: CallNode } {
  const order = functions
    .map((_, i) => i)
    .filter((i) => functions[i].totalSamples > 0)
    .sort((a, b) => functions[b].selfSamples - functions[a].selfSamples || functions[b].totalSamples - functions[a].totalSamples);
  const newIndex = new Map(order.map((old, i) => [old, i]));
  const renumber = (node: CallNode): CallNode => ({
    ...node,
    fn: node.fn < 0 ? -1 : newIndex.get(node.fn)!,
    children: node.children.map(renumber),
  });
  return {
    functions: order.map((i) => ({
      ...functions[i],
      selfPercent: percent(functions[i].selfSamples, n),
      totalPercent: percent(functions[i].totalSamples, n),
    })),
    tree: renumber(root),
  };
}

/** Drops children under `least` samples into their parent's self time; the rest hottest first. */
function fold(node: CallNode, least: number): void {
  node.children = node.children.filter((child) => {
    if (child.totalSamples >= least) return true;
    node.selfSamples += child.totalSamples;
    return false;
  });
  node.children.sort((a, b) => b.totalSamples - a.totalSamples);
  for (const child of node.children) fold(child, least);
}

/** From the first sample to the last plus one interval, for a trace taken without windows. */
function span(samples: SelfProfilingSample[]): number {
  if (samples.length < 2) return 0;
  const first = samples[0].timestamp;
  const last = samples[samples.length - 1].timestamp;
  return ((last - first) * samples.length) / (samples.length - 1);
}
