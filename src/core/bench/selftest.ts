// The self-test: every stage and every BLAKE3 baseline hashes the vector inputs, then a
// few larger pseudo-random inputs whose expected hash comes from @noble/hashes, computed
// here. It runs where the benchmarks run (workers/selftest.worker.ts puts it in a module
// Web Worker). A stage that fails here must never be shown with a speed.
import { STAGES, type Hasher } from '../../../steps/index.ts';
import { BASELINES, baselineById } from '../../../steps/baselines.ts';
import { ORACLE_ID } from '../../../steps/baseline-info.ts';
import { probeCapabilities } from './capabilities.ts';
import { describeOneBlockChoice, describeThreadUse } from './threads.ts';
import { FAULTS } from './faults.ts';
import { patternInput, toHex, xorshiftInput, type VectorCase } from '../vectors.ts';

export type Verdict = 'pass' | 'fail' | 'unavailable';

export interface SelftestRow {
  id: string;
  title: string;
  kind: 'stage' | 'baseline' | 'peer';
  /** package@version for a library; absent for our stages. */
  version?: string;
  /** The 35 official lengths. */
  vectorsPassed: number;
  vectorsTotal: number;
  /** Our extra vector lengths plus the differential sizes against @noble/hashes. */
  largerPassed: number;
  largerTotal: number;
  /** Lengths (with reason) that hashed wrong or threw. */
  failures: string[];
  /** Why some checks did not run, when some did not. */
  note?: string;
  verdict: Verdict;
}

/** Sizes checked against @noble/hashes: odd chunk counts, past 512 KiB, not powers of two. */
const DIFFERENTIAL_SIZES = [4 * 1024 + 1, 16 * 1024 * 3 + 7, 600_001, 2 * 1024 * 1024 + 3 * 1024 + 5];

/** Stage 0 reads the rest of the input for every block (quadratic by design): skip it above this. */
const STAGE0_MAX_BYTES = 128 * 1024;

interface Check {
  length: number;
  official: boolean;
  input: Uint8Array;
  expected: string;
}

async function buildChecks(vectors: readonly VectorCase[]): Promise<Check[]> {
  const oracle = baselineById(ORACLE_ID);
  if (!oracle) throw new Error('steps/baselines.ts lists no noble-hashes baseline: the differential oracle');
  const noble = await oracle.load();
  const checks: Check[] = vectors.map((c) => ({
    length: c.input_len,
    official: c.official,
    input: patternInput(c.input_len),
    expected: c.hash,
  }));
  for (const [i, size] of DIFFERENTIAL_SIZES.entries()) {
    const input = xorshiftInput(size, 0x9e3779b9 + i);
    checks.push({ length: size, official: false, input, expected: toHex(await noble.hash(input)) });
  }
  return checks;
}

interface Contestant {
  id: string;
  title: string;
  kind: SelftestRow['kind'];
  version?: string;
  maxBytes: number;
  unavailable?: string;
  load(): Promise<{ hash(input: Uint8Array): Uint8Array | Promise<Uint8Array>; threadUse?: Hasher['threadUse']; oneBlockChoice?: Hasher['oneBlockChoice'] }>;
}

/** Every stage and BLAKE3 library; with `faults`, also the contestants broken on purpose. */
function contestants(faults: boolean): Contestant[] {
  // The engine's own answer: the self-test checks what this browser really runs.
  const simd = probeCapabilities().wasmSimd;
  const stages: Contestant[] = STAGES.map((stage) => ({
    id: stage.id,
    title: `${stage.index}. ${stage.title}`,
    kind: 'stage',
    maxBytes: stage.index === 0 ? STAGE0_MAX_BYTES : Infinity,
    unavailable: stage.requires === 'wasm-simd' && !simd ? 'this browser has no WebAssembly SIMD' : undefined,
    load: () => stage.load(),
  }));
  const baselines: Contestant[] = BASELINES.filter((b) => b.digest === 'blake3').map((b) => ({
    id: b.id,
    title: b.title,
    kind: b.kind,
    version: b.version,
    maxBytes: Infinity,
    load: () => b.load(),
  }));
  // Not the one that exhausts memory: it proves nothing about digests and would hold gigabytes.
  const broken: Contestant[] = FAULTS.filter((f) => faults && f.id !== 'fault-oom').map((f) => ({
    id: f.id,
    title: f.title,
    kind: f.kind,
    version: f.version,
    maxBytes: Infinity,
    load: () => f.load(),
  }));
  return [...stages, ...baselines, ...broken];
}

/** Large enough that a pool worker that can be reached at all takes some of its pieces. */
const POOL_CHECK_BYTES = 16 * 1024 * 1024;

// A stage that hashes on several threads gets one more larger input, right after loading
// and without giving its workers a moment: its digest must be right, and its pool workers
// must have hashed some of the pieces, or the stage only looks parallel.
async function checkPoolSplit(hasher: Awaited<ReturnType<Contestant['load']>>, row: SelftestRow): Promise<void> {
  const input = xorshiftInput(POOL_CHECK_BYTES, 0x51ed);
  const expected = toHex(await (await baselineById(ORACLE_ID)!.load()).hash(input));
  row.largerTotal++;
  let actual: string;
  try {
    actual = toHex(await hasher.hash(input));
  } catch (error) {
    actual = `threw ${String(error)}`;
  }
  if (actual === expected) row.largerPassed++;
  else row.failures.push(`${POOL_CHECK_BYTES} B: ${actual.startsWith('threw') ? actual : 'wrong digest'}`);
  const split = hasher.threadUse?.().lastSplit;
  if (split) {
    const redone = split.redone > 0 ? ` (the calling thread redid ${split.redone} a worker was slow on)` : '';
    row.note = `${row.note}; 16 MiB input: its pool workers hashed ${split.byWorkers} of ${split.pieces} pieces${redone}`;
  }
}

async function check(contestant: Contestant, checks: Check[]): Promise<SelftestRow> {
  const row: SelftestRow = {
    id: contestant.id,
    title: contestant.title,
    kind: contestant.kind,
    version: contestant.version,
    vectorsPassed: 0,
    vectorsTotal: checks.filter((c) => c.official).length,
    largerPassed: 0,
    largerTotal: checks.filter((c) => !c.official).length,
    failures: [],
    verdict: 'fail',
  };
  if (contestant.unavailable) {
    return { ...row, note: contestant.unavailable, verdict: 'unavailable' };
  }
  let hasher;
  try {
    hasher = await contestant.load();
  } catch (error) {
    return { ...row, failures: [`load failed: ${String(error)}`] };
  }
  const skipped = checks.filter((c) => !c.official && c.length > contestant.maxBytes);
  if (skipped.length) {
    row.largerTotal -= skipped.length;
    row.note = `${skipped.length} inputs over ${contestant.maxBytes / 1024} KiB skipped: this stage is quadratic by design`;
  }
  const threads = hasher.threadUse?.();
  if (threads) row.note = describeThreadUse(threads);
  const oneBlock = hasher.oneBlockChoice?.();
  if (oneBlock) row.note = describeOneBlockChoice(oneBlock);
  for (const c of checks) {
    if (!c.official && c.length > contestant.maxBytes) continue;
    let actual: string;
    try {
      const digest = await hasher.hash(c.input);
      actual = digest instanceof Uint8Array ? toHex(digest) : `not a Uint8Array: ${String(digest)}`;
    } catch (error) {
      actual = `threw ${String(error)}`;
    }
    if (actual === c.expected) {
      if (c.official) row.vectorsPassed++;
      else row.largerPassed++;
    } else {
      row.failures.push(`${c.length} B: ${actual.startsWith('threw') ? actual : 'wrong digest'}`);
    }
  }
  if (threads && threads.threads > 1) await checkPoolSplit(hasher, row);
  const allPassed = row.vectorsPassed === row.vectorsTotal && row.largerPassed === row.largerTotal;
  return { ...row, verdict: allPassed && row.vectorsTotal > 0 ? 'pass' : 'fail' };
}

/** The self-test's calls, over the vector file's cases (data/blake3-vectors.json). */
export function createSelftest(vectors: readonly VectorCase[]) {
  let prepared: Promise<Check[]> | undefined;
  return {
    /** Names of everything that will be checked, in table order. */
    list(faults: boolean): { id: string; title: string; version?: string }[] {
      return contestants(faults).map(({ id, title, version }) => ({ id, title, version }));
    },
    /**
     * Checks the contestant at `index` of list(). One call per contestant, so the page can
     * stop a worker that one of them hangs and go on with the rest in a fresh worker.
     */
    async check(index: number, faults: boolean): Promise<SelftestRow> {
      prepared ??= buildChecks(vectors);
      return check(contestants(faults)[index], await prepared);
    },
  };
}
