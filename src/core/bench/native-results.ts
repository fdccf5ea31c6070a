// Native rows in a results document: the blake3 crate compiled natively and timed by
// native/ (`npm run bench -- --native`), kept beside the stages so every table can say
// how far from native code a stage is, measured in the same run on the same machine.
//
// Native runs name the runtime NATIVE_RUNTIME_ID. It holds no JavaScript engine: its rows
// belong beside every runtime of the document, so splitting a document by runtime
// (runtimes.ts) gives each runtime's part the native rows too.

import { NATIVE_RUNTIME_ID, type ContestantInfo, type RuntimeInfo, type Results, type RunResult } from './results.ts';

/** The native contestants, in the order tables list them. */
export const NATIVE_CONTESTANTS = [
  { id: 'native-sse41', title: 'native Rust blake3, one thread, SSE4.1', build: 'sse41' },
  { id: 'native-best', title: 'native Rust blake3, one thread, widest SIMD', build: 'best' },
  { id: 'native-threads', title: 'native Rust blake3, all threads (rayon)', build: 'best' },
] as const;

export type NativeId = (typeof NATIVE_CONTESTANTS)[number]['id'];

/** What "x native" is measured against: one thread at WebAssembly SIMD's width (128 bits). */
export const NATIVE_REFERENCE_ID: NativeId = 'native-sse41';

export function isNativeId(id: string): id is NativeId {
  return NATIVE_CONTESTANTS.some((c) => c.id === id);
}

/** One contestant's samples at one size, as the native program prints them. */
export interface NativeRun {
  size: number;
  iterations: number;
  nsPerOp: number[];
  /** Hex of the last digest; checked against the oracle before the samples are kept. */
  digest: string;
}

/** One call of the native program (one build). */
export interface NativeOutput {
  /** The widest instructions that build may use here: "SSE4.1", "AVX2", "AVX-512". */
  simd: string;
  threads: number;
  contestants: { id: string; runs: NativeRun[] }[];
}

/** Everything the native part of a run produced, ready to go into a document. */
export interface NativeMeasurement {
  runtime: RuntimeInfo;
  contestants: ContestantInfo[];
  runs: RunResult[];
}

export interface NativeToolchain {
  /** "1.8.7", from native/Cargo.lock. */
  crateVersion: string;
  /** "rustc 1.95.0 (59807616e 2026-04-14)". */
  rustc: string;
}

/** Checks the program's JSON and gives it a type; throws with what is wrong. */
export function parseNativeOutput(text: string): NativeOutput {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`the native program printed something that is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
  const out = data as NativeOutput;
  const ok =
    typeof out === 'object' && out !== null && typeof out.simd === 'string' && Number.isInteger(out.threads) && Array.isArray(out.contestants) &&
    out.contestants.every(
      (c) => isNativeId(c.id) && Array.isArray(c.runs) &&
        c.runs.every((r) => Number.isInteger(r.size) && Number.isInteger(r.iterations) && r.iterations > 0 && typeof r.digest === 'string' &&
          Array.isArray(r.nsPerOp) && r.nsPerOp.every((ns) => typeof ns === 'number' && ns > 0)),
    );
  if (!ok) throw new Error('the native program printed JSON of an unexpected shape');
  return out;
}

/** The samples of several calls (the slices that take turns with the JavaScript runs) joined per contestant and size. */
export function joinNativeOutputs(outputs: readonly NativeOutput[]): NativeOutput[] {
  const byBuild = new Map<string, NativeOutput>();
  for (const output of outputs) {
    const key = output.contestants.map((c) => c.id).join(',');
    const seen = byBuild.get(key);
    if (!seen) {
      byBuild.set(key, structuredClone(output));
      continue;
    }
    for (const contestant of output.contestants) {
      const into = seen.contestants.find((c) => c.id === contestant.id)!;
      for (const run of contestant.runs) {
        const cell = into.runs.find((r) => r.size === run.size);
        if (cell) {
          cell.nsPerOp.push(...run.nsPerOp);
          cell.digest = run.digest;
        } else into.runs.push(structuredClone(run));
      }
    }
  }
  return [...byBuild.values()];
}

/**
 * The native rows of a document. `expected(size)` is the oracle's digest in hex: a run
 * whose digest differs is kept as failed, with no samples.
 */
export function nativeMeasurement(outputs: readonly NativeOutput[], toolchain: NativeToolchain, expected: (size: number) => string, timerResolutionNs: number): NativeMeasurement {
  const joined = joinNativeOutputs(outputs);
  const contestants: ContestantInfo[] = [];
  const runs: RunResult[] = [];
  for (const known of NATIVE_CONTESTANTS) {
    const output = joined.find((o) => o.contestants.some((c) => c.id === known.id));
    const measured = output?.contestants.find((c) => c.id === known.id);
    if (!output || !measured) continue;
    const simd = known.build === 'sse41' ? 'SSE4.1' : output.simd;
    const threads = known.id === 'native-threads' ? output.threads : 1;
    const title = known.id === 'native-best' ? `native Rust blake3, one thread, ${simd}` : known.title;
    contestants.push({
      id: known.id,
      title,
      kind: 'native',
      version: `blake3@${toolchain.crateVersion}`,
      ...(threads > 1 && { threads }),
      note: `the blake3 crate ${toolchain.crateVersion} compiled by ${toolchain.rustc.split(' (')[0]}, ${simd}, ${threads === 1 ? 'one thread' : `${threads} threads`}; measured in turns with the JavaScript runs`,
    });
    for (const run of measured.runs) {
      const want = expected(run.size);
      runs.push(
        run.digest === want
          ? { contestant: known.id, runtime: NATIVE_RUNTIME_ID, size: run.size, status: 'ok', iterations: run.iterations, nsPerOp: [...run.nsPerOp] }
          : { contestant: known.id, runtime: NATIVE_RUNTIME_ID, size: run.size, status: 'failed', reason: `wrong digest for a ${run.size}-byte input: got ${run.digest.slice(0, 16)}…, expected ${want.slice(0, 16)}…`, iterations: run.iterations, nsPerOp: [] },
      );
    }
  }
  const runtime: RuntimeInfo = {
    id: NATIVE_RUNTIME_ID,
    name: 'Rust',
    version: toolchain.rustc.replace(/^rustc\s+/, '').split(' ')[0] || 'unknown',
    jsEngine: 'native code',
    userAgent: `blake3 ${toolchain.crateVersion}; ${toolchain.rustc}`.slice(0, 200),
    timerResolutionNs,
    crossOriginIsolated: false,
    wasmSimd: false,
    webCrypto: false,
  };
  return { runtime, contestants, runs };
}

/** The document with the native rows added (its runtimes, contestants and runs; nothing else changes). */
export function withNative(results: Results, native: NativeMeasurement): Results {
  if (native.runs.length === 0) return results;
  return {
    ...results,
    runtimes: [...(results.runtimes ?? []).filter((r) => r.id !== NATIVE_RUNTIME_ID), native.runtime],
    contestants: [...results.contestants.filter((c) => !isNativeId(c.id)), ...native.contestants],
    runs: [...results.runs.filter((r) => r.runtime !== NATIVE_RUNTIME_ID), ...native.runs],
  };
}
