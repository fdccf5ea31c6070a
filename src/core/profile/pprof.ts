// Go's profiles into a StageProfile. The input is what `go tool pprof -raw` prints: every
// sample with its stack of location ids, and every location with its function, file and
// line, an inlined call as one more line of the same location (innermost first). That is
// the whole profile as text, so nothing has to decode pprof's protobuf here, and the
// result can be checked against `go tool pprof -top` figure for figure
// (tests/go-profile.test.ts): flat counts the innermost frame, cum counts every function
// once per sample, and a function is "(inline)" when every call that reached it was
// inlined (pprof's own rule, in its report package).

import { percent, type CallNode, type ProfileFunction, type ProfileSource, type StageProfile } from './profile.ts';

/** One line of a location: a function, and where in its source the sampled code is. */
export interface PprofLine {
  name: string;
  file: string;
  line: number;
  /** The function's first line ("s=" in pprof's text), 0 when unknown. */
  startLine: number;
}

export interface PprofRaw {
  /** "cpu/nanoseconds", "alloc_space/bytes", ... in the order of each sample's values. */
  sampleTypes: string[];
  samples: { values: number[]; locations: number[] }[];
  /** Location id -> its lines, innermost (the inlined callee) first. */
  locations: Map<number, PprofLine[]>;
}

const LOCATION = /^\s*(\d+): 0x[0-9a-f]+(?: M=\d+)?(?: (.*))?$/;
const LINE = /^(.*) (\S+?):(\d+)(?::\d+)? s=(\d+)$/;

function parseLine(text: string): PprofLine {
  const m = LINE.exec(text.trim());
  return m ? { name: m[1], file: m[2], line: Number(m[3]), startLine: Number(m[4]) } : { name: text.trim(), file: '', line: 0, startLine: 0 };
}

/** Reads `go tool pprof -raw` output. Throws when the text is not that. */
export function parsePprofRaw(text: string): PprofRaw {
  const lines = text.split('\n');
  const start = lines.indexOf('Samples:');
  if (start < 0 || !lines.includes('Locations')) throw new Error('not the output of go tool pprof -raw: no "Samples:" or "Locations" section');
  const sampleTypes = lines[start + 1].trim().split(/\s+/).map((type) => type.replace(/\[dflt\]$/, ''));
  const samples: PprofRaw['samples'] = [];
  let i = start + 2;
  for (; i < lines.length && lines[i] !== 'Locations'; i++) {
    // A sample: its values, a colon, its location ids. Label lines ("bytes:[96]") follow some.
    const m = /^\s*([\d\s]+):((?:\s+\d+)*)\s*$/.exec(lines[i]);
    if (!m) continue;
    const values = m[1].trim().split(/\s+/).map(Number);
    if (values.length !== sampleTypes.length) throw new Error(`pprof -raw: a sample with ${values.length} values for ${sampleTypes.length} types`);
    samples.push({ values, locations: m[2].trim().split(/\s+/).filter(Boolean).map(Number) });
  }
  const locations = new Map<number, PprofLine[]>();
  let current: PprofLine[] | null = null;
  for (i++; i < lines.length && lines[i] !== 'Mappings'; i++) {
    const m = LOCATION.exec(lines[i]);
    if (m) {
      current = m[2] ? [parseLine(m[2])] : [];
      locations.set(Number(m[1]), current);
    } else if (current && lines[i].trim() !== '') {
      current.push(parseLine(lines[i]));
    }
  }
  return { sampleTypes, samples, locations };
}

export interface PprofConversion {
  stage: string;
  source: ProfileSource;
  /** Which value of each sample to count: 'cpu' (nanoseconds) or 'alloc_space' (bytes). */
  value: 'cpu' | 'alloc_space';
  inputBytes: number;
  inputs?: StageProfile['inputs'];
  /** A source path as the binary names it -> repo-relative, or '' when it is not in the repo. */
  repoFile: (path: string) => string;
}

/** Folds tree nodes under this share of all samples into their parent's self. */
const TREE_CUTOFF = 0.005;
/** pprof's default -edgefraction: `top` ignores calls under this share when it labels a function inlined. */
const EDGE_FRACTION = 0.001;

interface Frame {
  name: string;
  /** An inlined call: not the last line of its location. */
  inlined: boolean;
}

/** A pprof profile as a StageProfile: one function per name, the call tree merged by function. */
export function pprofToStageProfile(raw: PprofRaw, options: PprofConversion): StageProfile {
  const { stacks, firstLine } = weightedStacks(raw, options.value);
  const { self, cum, root, total, valueTotal } = tally(stacks);
  const label = inlineLabeler(stacks, valueTotal);
  const names = [...cum.keys()].sort((a, b) => (self.get(b) ?? 0) - (self.get(a) ?? 0) || cum.get(b)! - cum.get(a)! || (a < b ? -1 : 1));
  const index = new Map(names.map((name, i) => [name, i]));
  const functions: ProfileFunction[] = names.map((name) => {
    const line = firstLine.get(name)!;
    const file = line.file ? options.repoFile(line.file) : '';
    return {
      name: label(name),
      file,
      line: file ? line.startLine : 0,
      kind: 'go',
      selfSamples: self.get(name) ?? 0,
      totalSamples: cum.get(name)!,
      selfPercent: percent(self.get(name) ?? 0, total),
      totalPercent: percent(cum.get(name)!, total),
    };
  });
  return {
    stage: options.stage,
    source: options.source,
    ...(options.value === 'alloc_space' ? { unit: 'bytes' as const } : {}),
    inputBytes: options.inputBytes,
    ...(options.inputs ? { inputs: options.inputs } : {}),
    durationMs: options.value === 'cpu' ? valueTotal / 1e6 : 0,
    samples: total,
    functions,
    tree: fold(root, index, total * TREE_CUTOFF),
  };
}

interface Stack {
  /** What the sample counts for: CPU, samples (each one interval); allocations, bytes. */
  weight: number;
  /** The sample's value in the profile's own unit (nanoseconds, bytes). */
  value: number;
  /** Outermost first. */
  frames: Frame[];
}

/** Each sample's weight and stack (samples weighing nothing left out), and the first line seen of each function. */
function weightedStacks(raw: PprofRaw, value: PprofConversion['value']): { stacks: Stack[]; firstLine: Map<string, PprofLine> } {
  const column = raw.sampleTypes.findIndex((type) => type.startsWith(`${value}/`));
  if (column < 0) throw new Error(`pprof -raw: no ${value} values (the profile has ${raw.sampleTypes.join(', ')})`);
  const countColumn = raw.sampleTypes.indexOf('samples/count');
  const firstLine = new Map<string, PprofLine>();
  const stacks = raw.samples.flatMap((sample) => {
    const weight = value === 'cpu' && countColumn >= 0 ? sample.values[countColumn] : sample.values[column];
    if (weight === 0) return [];
    const frames: Frame[] = sample.locations
      .flatMap((id) => (raw.locations.get(id) ?? []).map((line, i, all) => {
        if (!firstLine.has(line.name)) firstLine.set(line.name, line);
        return { name: line.name, inlined: i < all.length - 1 };
      }))
      .reverse();
    return [{ weight, value: sample.values[column], frames }];
  });
  return { stacks, firstLine };
}

/** Flat (the innermost frame) and cum (each function once per sample) by function, the call tree, and the totals of weight and value. */
function tally(stacks: Stack[]) {
  const self = new Map<string, number>();
  const cum = new Map<string, number>();
  const root: Tree = { fn: '', self: 0, total: 0, children: new Map() };
  let total = 0;
  let valueTotal = 0;
  for (const { weight, value, frames } of stacks) {
    total += weight;
    valueTotal += value;
    root.total += weight;
    let node = root;
    for (const name of new Set(frames.map((f) => f.name))) cum.set(name, (cum.get(name) ?? 0) + weight);
    for (const [i, { name }] of frames.entries()) {
      if (i > 0 && frames[i - 1].name === name) continue; // recursion: one node, as pprof draws it
      let child = node.children.get(name);
      if (!child) node.children.set(name, (child = { fn: name, self: 0, total: 0, children: new Map() }));
      child.total += weight;
      node = child;
    }
    const leaf = frames.at(-1);
    if (leaf) self.set(leaf.name, (self.get(leaf.name) ?? 0) + weight);
    node.self += weight;
  }
  return { self, cum, root, total, valueTotal };
}

/**
 * pprof's "(inline)": every caller of the function inlined it; "(partial-inline)": some
 * did. A caller counts as inlining it only if it always did, and, as in pprof's `top`,
 * callers behind less than 0.1% of the samples (its default -edgefraction) do not count.
 */
function inlineLabeler(stacks: Stack[], valueTotal: number): (name: string) => string {
  const edges = new Map<string, Map<string, { inlined: boolean; weight: number }>>();
  for (const { value: weight, frames } of stacks) {
    const seen = new Set<string>();
    let parent = '';
    for (const { name, inlined } of frames) {
      if (parent !== '' && parent !== name) {
        const into = edges.get(name) ?? new Map<string, { inlined: boolean; weight: number }>();
        const edge = into.get(parent) ?? { inlined: true, weight: 0 };
        edge.inlined &&= inlined;
        if (!seen.has(`${parent}\n${name}`)) edge.weight += weight;
        seen.add(`${parent}\n${name}`);
        into.set(parent, edge);
        edges.set(name, into);
      }
      parent = name;
    }
  }
  return (name: string) => {
    // In the profile's own unit (nanoseconds, bytes) and cut to a whole number, as pprof does.
    const cutoff = Math.trunc(valueTotal * EDGE_FRACTION);
    const calls = [...(edges.get(name)?.values() ?? [])].filter((edge) => edge.weight >= cutoff).map((edge) => edge.inlined);
    if (!calls.includes(true)) return name;
    return `${name} ${calls.includes(false) ? '(partial-inline)' : '(inline)'}`;
  };
}

interface Tree {
  fn: string;
  self: number;
  total: number;
  children: Map<string, Tree>;
}

/** The tree as CallNodes, heaviest child first; a child under `cutoff` joins its parent's self. */
function fold(tree: Tree, index: Map<string, number>, cutoff: number): CallNode {
  const node: CallNode = { fn: tree.fn === '' ? -1 : index.get(tree.fn)!, selfSamples: tree.self, totalSamples: tree.total, children: [] };
  const children = [...tree.children.values()].sort((a, b) => b.total - a.total || (a.fn < b.fn ? -1 : 1));
  for (const child of children) {
    if (child.total < cutoff) node.selfSamples += child.total;
    else node.children.push(fold(child, index, cutoff));
  }
  return node;
}
