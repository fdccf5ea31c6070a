// What V8 itself reports about each JavaScript stage (data/v8/<stage>.ts, written by
// scripts/v8-evidence.ts): the shape of that data, which parts of it a rerun must
// reproduce exactly and which only roughly, and the figure that backs each stage's "why".

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

/** The bands: a heap figure within 2x (or both under 1 KiB a hash), GCs within 2x (or both under 0.05 a hash), machine code within 1.5x. */
export const BANDS = {
  bytesPerHash: { small: 1024, ratio: 2 },
  gcsPerHash: { small: 0.05, ratio: 2 },
  machineCode: { small: 0, ratio: 1.5 },
};

/** Where a fresh run disagrees with the stored evidence; empty when they agree. */
export function disagreements(stored: V8Evidence, fresh: V8Evidence): string[] {
  const problems: string[] = [];
  for (const size of ['kib', 'mib'] as const) {
    for (const key of ['bytesPerHash', 'gcsPerHash'] as const) {
      const { small, ratio } = BANDS[key];
      if (!inBand(stored.heap[size][key], fresh.heap[size][key], small, ratio)) {
        problems.push(`${size} ${key}: stored ${stored.heap[size][key]}, now ${fresh.heap[size][key]}`);
      }
    }
  }
  const exact = (f: V8Function) => JSON.stringify({ ...f, machineCodeBytes: f.machineCodeBytes !== null });
  const storedExact = stored.functions.map(exact);
  const freshExact = fresh.functions.map(exact);
  if (JSON.stringify(storedExact) !== JSON.stringify(freshExact)) {
    problems.push(`functions: stored ${storedExact.join(' ')}\nnow ${freshExact.join(' ')}`);
  } else {
    stored.functions.forEach((f, i) => {
      const now = fresh.functions[i].machineCodeBytes;
      if (f.machineCodeBytes !== null && now !== null && !inBand(f.machineCodeBytes, now, 0, BANDS.machineCode.ratio)) {
        problems.push(`${f.name} machine code: stored ${f.machineCodeBytes}, now ${now}`);
      }
    });
  }
  const wasm = (e: V8Evidence) => e.wasmCode ?? [];
  if (wasm(stored).length !== wasm(fresh).length) {
    problems.push(`WebAssembly functions TurboFan compiled: stored ${wasm(stored).length}, now ${wasm(fresh).length}`);
  }
  for (const key of ['stage', 'run', 'threads'] as const) {
    if (stored[key] !== fresh[key]) problems.push(`${key}: stored ${stored[key]}, now ${fresh[key]}`);
  }
  return problems;
}
