// The child process of scripts/v8-evidence.ts: hashes with one stage, a fixed number of
// times at 1 KiB and then at 1 MiB (see workload()), in one of two modes.
//
//   node --expose-gc --import tsx scripts/v8-probe.ts <stage index> heap <result.json>
//     measures the JS heap around the hashes and writes the figures to result.json;
//   node --trace-opt --trace-deopt --print-bytecode --print-opt-code ... engine
//     runs the same hashes unmeasured: V8 itself prints on stdout which functions TurboFan
//     compiled, every deoptimization with its reason, and their bytecode and machine code.
//
// Two processes, because printing code allocates on the heap it would be measuring.

import { writeFileSync } from 'node:fs';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { STAGES, type Hasher } from '../steps/index.ts';
import { INPUT_MODULUS } from '../src/core/vectors.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Hashes per phase. Stage 0 is quadratic (about 8 s for one 1 MiB hash here): the heap
 * run measures one, unwarmed, and the engine run stops at 64 KiB (64 chunks: every
 * code path of the tree), so regenerating stays quick.
 */
export function workload(stage: number, mode: 'heap' | 'engine') {
  const quadratic = stage === 0;
  return {
    kib: { warm: 2000, measured: 1000 },
    large: {
      bytes: quadratic && mode === 'engine' ? 64 * KiB : MiB,
      ...(quadratic ? { warm: 0, measured: 1 } : { warm: 2, measured: 8 }),
    },
  };
}

export interface HeapFigures {
  hashes: number;
  /** JS heap bytes allocated per hash: growth of the used heap plus what each collection freed. */
  bytesPerHash: number;
  /** Scavenges (young generation) and mark-compacts (whole heap) during the measured hashes. */
  scavenges: number;
  markCompacts: number;
}

export interface ProbeResult {
  kib: HeapFigures;
  mib: HeapFigures;
  /** Stage 11 only: how many threads hashed 1 MiB. */
  threads?: number;
}

declare const gc: () => void;

function input(bytes: number): Uint8Array {
  return Uint8Array.from({ length: bytes }, (_, i) => i % INPUT_MODULUS);
}

// A collection moves the live objects and drops the rest: adding what each one freed to
// the growth of the used heap gives every byte allocated, however many ran.
function measure(stage: Hasher, data: Uint8Array, hashes: number): HeapFigures {
  gc();
  const profiler = new GCProfiler();
  profiler.start();
  const before = getHeapStatistics().used_heap_size;
  let sink = 0;
  for (let i = 0; i < hashes; i++) sink ^= stage.hash(data)[0];
  const after = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  if (sink === -1) console.log(sink); // keeps the digests alive in the optimizer's eyes
  let freed = 0;
  for (const { beforeGC, afterGC } of statistics) {
    freed += beforeGC.heapStatistics.usedHeapSize - afterGC.heapStatistics.usedHeapSize;
  }
  return {
    hashes,
    bytesPerHash: (after - before + freed) / hashes,
    scavenges: statistics.filter((s) => s.gcType === 'Scavenge').length,
    markCompacts: statistics.filter((s) => s.gcType === 'MarkSweepCompact').length,
  };
}

async function main(index: number, mode: 'heap' | 'engine', resultPath?: string): Promise<void> {
  const entry = STAGES[index];
  let stage: Hasher;
  let stop = () => {};
  if (entry.id === '11-every-core') {
    // One worker and a fixed threshold instead of the calibration start() times: the run,
    // and so the trace, must not depend on the machine's speed. 1 MiB goes to the pool.
    const module = await import('../steps/11-every-core/blake3.ts');
    await module.start({ workers: 1, minBytes: 512 * KiB });
    stage = module;
    stop = module.stop;
  } else if (entry.id === '10-simd-one-block') {
    // The same reason: load() times the two one-block codes and keeps the faster, which
    // differs between runs on one machine; the trace follows one of them, always rows.
    const module = await import('../steps/10-simd-one-block/blake3.ts');
    await entry.load();
    module.useOneBlockCode('rows');
    stage = module;
  } else {
    stage = await entry.load();
  }
  // In the engine run V8 prints a marker into its own output between phases, so each
  // deoptimization in the trace can be placed (the trace and console.log are buffered apart).
  const mark = mode === 'engine' ? (new Function('text', '%DebugPrint(text)') as (text: string) => void) : () => {};
  const { kib, large } = workload(index, mode);
  const run = (data: Uint8Array, hashes: number) => {
    for (let i = 0; i < hashes; i++) stage.hash(data);
  };
  const small = input(KiB);
  const big = input(large.bytes);
  mark('probe: kib');
  run(small, kib.warm);
  const kibFigures = mode === 'heap' ? measure(stage, small, kib.measured) : run(small, kib.measured);
  mark('probe: large');
  run(big, large.warm);
  const mibFigures = mode === 'heap' ? measure(stage, big, large.measured) : run(big, large.measured);
  mark('probe: end');
  const use = stage.threadUse?.();
  const threads = use?.lastSplit ? use.threads : undefined;
  stop();
  if (mode === 'heap' && kibFigures && mibFigures && resultPath) {
    const result: ProbeResult = { kib: kibFigures, mib: mibFigures, ...(threads !== undefined && { threads }) };
    writeFileSync(resultPath, JSON.stringify(result));
  }
}

if (process.argv[1]?.endsWith('v8-probe.ts')) {
  const mode = process.argv[3];
  if (mode !== 'heap' && mode !== 'engine') throw new Error('usage: v8-probe.ts <stage index> heap|engine [result.json]');
  await main(Number(process.argv[2]), mode, process.argv[4]);
}
