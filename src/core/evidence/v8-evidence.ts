// What V8 itself reports about each JavaScript stage (data/v8/<stage>.json, written by
// scripts/v8-evidence.ts and checked when read by stored.ts): the shape of that data, which parts of it a rerun must
// reproduce exactly and which only roughly. What the pages say with it: v8-why.ts.

import { amount, checked, count, fields, flag, list, oneOf, stamp, text } from './stored.ts';

export const V8_GENERATOR = 'scripts/v8-evidence.ts';

/** One function of a stage that TurboFan compiled (or threw away) during the run. */
export interface V8Function {
  name: string;
  /** Ignition bytecode, in bytes ("Bytecode length" of --print-bytecode). */
  bytecodeBytes: number;
  /** How many times TurboFan compiled it, on-stack replacements included. */
  optimizations: number;
  /** Whether the run ended with it in TurboFan code (its last event was an optimization). */
  optimizedAtEnd: boolean;
  /** Machine code of its last TurboFan compilation, in bytes (--print-opt-code), or null. */
  machineCodeBytes: number | null;
  /** Its deoptimizations (--trace-deopt), by phase of the run, kind and V8's reason. */
  deopts: V8Deopt[];
}

export interface V8Deopt {
  /** Where in the run: while the stage loaded, at 1 KiB, or at the large size. */
  phase: 'load' | 'kib' | 'large';
  /** "deopt-eager", "deopt-soft", "deopt-lazy"... as V8 prints it. */
  kind: string;
  reason: string;
  count: number;
}

/** The JS heap during the measured hashes at one size. */
export interface V8Heap {
  bytes: number;
  hashes: number;
  /** Bytes allocated on the JS heap per hash (growth plus what collections freed). */
  bytesPerHash: number;
  /** Garbage collections (scavenges plus mark-compacts) per hash. */
  gcsPerHash: number;
}

export interface V8Evidence {
  stage: string;
  node: string;
  v8: string;
  /** Machine code depends on the processor's features: where it was measured. */
  cpu: string;
  /** The hashes of the traced run, in order: warm-up and measured, at 1 KiB and at the large size. */
  run: string;
  heap: { kib: V8Heap; mib: V8Heap };
  /** The stage's functions TurboFan compiled or deoptimized while hashing, in order of size. */
  functions: V8Function[];
  /** Machine code TurboFan made of the stage's WebAssembly functions, in bytes, largest first. */
  wasmCode?: number[];
  /** Stage 11: threads that hashed 1 MiB in the heap run. */
  threads?: number;
}

/** Total deoptimizations of a stage while it hashed (not while it loaded). */
export function deoptCount(evidence: V8Evidence): number {
  return evidence.functions.reduce(
    (sum, f) => sum + f.deopts.filter((d) => d.phase !== 'load').reduce((n, d) => n + d.count, 0),
    0,
  );
}

/**
 * Figures that depend on timing or the machine (allocation, collections, machine code)
 * are compared in bands: two values agree when both are small, or within `ratio` of
 * each other. Everything else must match exactly.
 */
export function inBand(a: number, b: number, small: number, ratio: number): boolean {
  if (a <= small && b <= small) return true;
  const [low, high] = a < b ? [a, b] : [b, a];
  return low > 0 && high / low <= ratio;
}

/**
 * The bands. Bytes per hash: within 2x, or both small (under 1 KiB, or under 5% of the
 * input, whichever is more: a JIT compilation during the measured hashes allocates that
 * much). Collections: within 2x, or both under 0.05 a hash. Machine code: within 1.5x,
 * or both under 512 B: a small function's code grows by hundreds of bytes when TurboFan
 * inlines a callee into it on one run and not on the next (stage 10's assembler helper
 * `tokens` was stored at 228 B and measured again at 372 B on a busy machine).
 */
export const BANDS = {
  bytesPerHash: { small: (inputBytes: number) => Math.max(1024, inputBytes / 20), ratio: 2 },
  gcsPerHash: { small: () => 0.05, ratio: 2 },
  machineCode: { small: 512, ratio: 1.5 },
};

/** Whether a heap figure is small enough to count as none (see BANDS). */
export function negligible(heap: V8Heap): boolean {
  return heap.bytesPerHash <= BANDS.bytesPerHash.small(heap.bytes);
}

/** Where a fresh run disagrees with the stored evidence; empty when they agree. */
export function disagreements(stored: V8Evidence, fresh: V8Evidence): string[] {
  const problems: string[] = [];
  for (const size of ['kib', 'mib'] as const) {
    for (const key of ['bytesPerHash', 'gcsPerHash'] as const) {
      const { small, ratio } = BANDS[key];
      if (!inBand(stored.heap[size][key], fresh.heap[size][key], small(stored.heap[size].bytes), ratio)) {
        problems.push(`${size} ${key}: stored ${stored.heap[size][key]}, now ${fresh.heap[size][key]}`);
      }
    }
  }
  // With a worker pool (stage 11) the workers' functions are traced too, interleaved
  // with the calling thread's, and which pieces each thread hashes depends on timing:
  // only the bytecode of the functions both runs compiled is certain.
  const threaded = (stored.threads ?? 1) > 1 || (fresh.threads ?? 1) > 1;
  // A deoptimization for insufficient type feedback says only that TurboFan compiled the
  // function before one of its paths had run (stage 10's hash() at 1 KiB, before its first
  // large input): on some runs the compilation comes after that path, and there is none.
  // For a function with one in either run, that deopt and what follows it (a second
  // compilation, how the run ends) are left out; everything else is compared exactly.
  const early = (f: V8Function) => f.deopts.some((d) => /^Insufficient type feedback/.test(d.reason));
  const timed = new Set([...stored.functions, ...fresh.functions].filter(early).map((f) => f.name));
  const exact = (f: V8Function) =>
    JSON.stringify(
      timed.has(f.name)
        ? { name: f.name, bytecodeBytes: f.bytecodeBytes, deopts: f.deopts.filter((d) => !/^Insufficient type feedback/.test(d.reason)) }
        : { ...f, machineCodeBytes: f.machineCodeBytes !== null },
    );
  const bytecode = (e: V8Evidence) => new Map(e.functions.map((f) => [f.name.replace(/ #\d+$/, ''), f.bytecodeBytes]));
  if (threaded) {
    const freshBytecode = bytecode(fresh);
    for (const [name, bytes] of bytecode(stored)) {
      const now = freshBytecode.get(name);
      if (now !== undefined && now !== bytes) problems.push(`${name} bytecode: stored ${bytes}, now ${now}`);
    }
  } else if (JSON.stringify(stored.functions.map(exact)) !== JSON.stringify(fresh.functions.map(exact))) {
    problems.push(`functions: stored ${stored.functions.map(exact).join(' ')}\nnow ${fresh.functions.map(exact).join(' ')}`);
  } else {
    stored.functions.forEach((f, i) => {
      const now = fresh.functions[i].machineCodeBytes;
      if (f.machineCodeBytes !== null && now !== null && !inBand(f.machineCodeBytes, now, BANDS.machineCode.small, BANDS.machineCode.ratio)) {
        problems.push(`${f.name} machine code: stored ${f.machineCodeBytes}, now ${now}`);
      }
    });
  }
  const wasm = (e: V8Evidence) => e.wasmCode ?? [];
  if (!threaded && wasm(stored).length !== wasm(fresh).length) {
    problems.push(`WebAssembly functions TurboFan compiled: stored ${wasm(stored).length}, now ${wasm(fresh).length}`);
  }
  for (const key of ['stage', 'run', 'threads'] as const) {
    if (stored[key] !== fresh[key]) problems.push(`${key}: stored ${stored[key]}, now ${fresh[key]}`);
  }
  return problems;
}

const V8_FIELDS = ['stage', 'node', 'v8', 'cpu', 'run', 'heap', 'functions'];

function v8Heap(value: unknown, path: string): V8Heap {
  const f = fields(value, path, ['bytes', 'hashes', 'bytesPerHash', 'gcsPerHash']);
  return {
    bytes: count(f.bytes, `${path}.bytes`),
    hashes: count(f.hashes, `${path}.hashes`),
    bytesPerHash: amount(f.bytesPerHash, `${path}.bytesPerHash`),
    gcsPerHash: amount(f.gcsPerHash, `${path}.gcsPerHash`),
  };
}

function v8Deopt(value: unknown, path: string): V8Deopt {
  const f = fields(value, path, ['phase', 'kind', 'reason', 'count']);
  return {
    phase: oneOf(f.phase, `${path}.phase`, ['load', 'kib', 'large'] as const),
    kind: text(f.kind, `${path}.kind`),
    reason: text(f.reason, `${path}.reason`),
    count: count(f.count, `${path}.count`),
  };
}

function v8Function(value: unknown, path: string): V8Function {
  const f = fields(value, path, ['name', 'bytecodeBytes', 'optimizations', 'optimizedAtEnd', 'machineCodeBytes', 'deopts']);
  return {
    name: text(f.name, `${path}.name`),
    bytecodeBytes: count(f.bytecodeBytes, `${path}.bytecodeBytes`),
    optimizations: count(f.optimizations, `${path}.optimizations`),
    optimizedAtEnd: flag(f.optimizedAtEnd, `${path}.optimizedAtEnd`),
    machineCodeBytes: f.machineCodeBytes === null ? null : count(f.machineCodeBytes, `${path}.machineCodeBytes`),
    deopts: list(f.deopts, `${path}.deopts`, v8Deopt),
  };
}

/** The checked evidence of a data/v8/<stage>.json file's parsed JSON; `file` names it in a refusal. */
export function readV8Evidence(json: unknown, file: string): V8Evidence {
  return checked(file, () => {
    const f = fields(json, '', ['generated', 'about', ...V8_FIELDS], ['wasmCode', 'threads']);
    stamp(f, V8_GENERATOR);
    const heap = fields(f.heap, 'heap', ['kib', 'mib']);
    const evidence: V8Evidence = {
      stage: text(f.stage, 'stage'),
      node: text(f.node, 'node'),
      v8: text(f.v8, 'v8'),
      cpu: text(f.cpu, 'cpu'),
      run: text(f.run, 'run'),
      heap: { kib: v8Heap(heap.kib, 'heap.kib'), mib: v8Heap(heap.mib, 'heap.mib') },
      functions: list(f.functions, 'functions', v8Function),
    };
    if (f.wasmCode !== undefined) evidence.wasmCode = list(f.wasmCode, 'wasmCode', count);
    if (f.threads !== undefined) evidence.threads = count(f.threads, 'threads');
    return evidence;
  });
}
