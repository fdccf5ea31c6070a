// One suite, looped over every registered stage and every BLAKE3 library: registering a
// stage is what puts it under test. Each contestant must match the official vectors, agree
// with blake3-wasm at a few hundred lengths (every block, chunk and tree boundary up to
// 8 MiB, plus seeded random lengths with many odd sizes past 512 KiB, where the original
// stage 9 went wrong), keep no state between calls, and hash unaligned views correctly;
// a stage must also refuse anything but a Uint8Array at its entry.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { STAGES, stageById, type Hasher, type Stage } from '../steps/index.ts';
import { BASELINES, baselineById, decodeDataUrl, type BaselineHasher } from '../steps/baselines.ts';
import { patternInput, toHex, type VectorFile } from '../src/core/vectors.ts';

const OFFICIAL_PATH = fileURLToPath(new URL('../../shared/data/blake3-test-vectors.json', import.meta.url));
const OURS_PATH = fileURLToPath(new URL('../data/blake3-vectors.json', import.meta.url));
const KiB = 1024;
const MiB = 1024 * KiB;

/** The 35 official lengths with their default hash, from the official file when present. */
function loadVectors(): { source: string; cases: { length: number; hash: string }[] } {
  if (existsSync(OFFICIAL_PATH)) {
    const official = JSON.parse(readFileSync(OFFICIAL_PATH, 'utf8')) as { cases: { input_len: number; hash: string }[] };
    // The official outputs are 131 bytes of extended output; the default hash is the first 32.
    const cases = official.cases.map((c) => ({ length: c.input_len, hash: c.hash.slice(0, 64) }));
    return { source: 'the official vector file', cases };
  }
  const ours = JSON.parse(readFileSync(OURS_PATH, 'utf8')) as VectorFile;
  const cases = ours.cases.filter((c) => c.official).map((c) => ({ length: c.input_len, hash: c.hash }));
  return { source: 'data/blake3-vectors.json (official file absent)', cases };
}
const VECTORS = loadVectors();

/** xorshift32: a fixed seed gives the same lengths and bytes on every run. */
function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Block, chunk and tree boundaries up to 8 MiB, each -1, exact, +1. */
function boundaryLengths(): number[] {
  const lengths = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const edges = [64, 128, 1 * KiB, 2 * KiB, 3 * KiB, 4 * KiB, 5 * KiB, 8 * KiB, 16 * KiB, 32 * KiB];
  for (let size = 64 * KiB; size <= 8 * MiB; size *= 2) edges.push(size);
  for (const edge of edges) lengths.push(edge - 1, edge, edge + 1);
  return lengths;
}

/** Seeded random lengths: many small ones, and log-uniform ones from 16 KiB to 8 MiB. */
function randomLengths(): number[] {
  const random = prng(0xb1a4e3);
  const logUniform = (low: number, high: number) => Math.floor(low * (high / low) ** random());
  const lengths: number[] = [];
  for (let i = 0; i < 150; i++) lengths.push(Math.floor(random() * 16 * KiB));
  for (let i = 0; i < 60; i++) lengths.push(logUniform(16 * KiB, 512 * KiB));
  for (let i = 0; i < 60; i++) {
    const length = logUniform(512 * KiB, 8 * MiB);
    // A third odd sizes, a third whole chunks, a third whole four-chunk groups give or
    // take a little: the shapes a four-chunks-at-a-time path and its CV stack must handle.
    if (i % 3 === 0) lengths.push(length);
    else if (i % 3 === 1) lengths.push(Math.floor(length / KiB) * KiB);
    else lengths.push(Math.floor(length / (4 * KiB)) * 4 * KiB + Math.floor(random() * 7) - 3);
  }
  return lengths;
}

const DIFF_LENGTHS = [...new Set([...boundaryLengths(), ...randomLengths()])].sort((a, b) => a - b);
const MAX_LENGTH = DIFF_LENGTHS[DIFF_LENGTHS.length - 1];

/** One random buffer; every differential input is a prefix of it. */
const DATA = (() => {
  const random = prng(0x5eed);
  const bytes = new Uint8Array(MAX_LENGTH + 16);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (random() * 256) | 0;
  return bytes;
})();

/** Stage 0 rereads the rest of the input for every block, by design: spare it large inputs. */
const STAGE0_MAX = 64 * KiB;

let wasm: BaselineHasher;
let noble: BaselineHasher;
/** blake3-wasm's hash of every DATA prefix in DIFF_LENGTHS, computed once for all contestants. */
const reference = new Map<number, string>();

async function referenceHex(input: Uint8Array): Promise<string> {
  return toHex(await wasm.hash(input.slice()));
}

beforeAll(async () => {
  wasm = await baselineById('blake3-wasm')!.load();
  noble = await baselineById('noble-hashes')!.load();
  for (const length of DIFF_LENGTHS) reference.set(length, toHex(await wasm.hash(DATA.subarray(0, length))));
});

interface Contestant {
  name: string;
  maxLength: number;
  /** An oracle other than blake3-wasm, for blake3-wasm itself. */
  oracle?: () => BaselineHasher;
  load(): Promise<BaselineHasher>;
  /** For stages: the registry entry and which export of its module is under test. */
  stage?: { id: string; pick(module: StageModule): BaselineHasher };
}

/** A stage module; from stage 8 on it also exports the copying path big-endian machines take. */
type StageModule = Hasher & {
  hashPortable?: (input: Uint8Array) => Uint8Array;
  useOneBlockCode?: (code: 'rows' | 'words') => void;
};

function pickHash(module: StageModule): BaselineHasher {
  return { hash: (input) => module.hash(input) };
}

function pickPortable(module: StageModule): BaselineHasher {
  const portable = module.hashPortable;
  if (typeof portable !== 'function') {
    throw new Error('from stage 8 on a stage must export hashPortable(), its big-endian copying path, so tests can reach it');
  }
  return { hash: (input) => portable(input) };
}

/** Stage 10 with one of its two one-block codes, whichever its timing would choose on this machine. */
function pickOneBlockCode(code: 'rows' | 'words'): (module: StageModule) => BaselineHasher {
  return (module) => {
    const use = module.useOneBlockCode;
    if (typeof use !== 'function') throw new Error('stage 10 must export useOneBlockCode() so tests can reach both codes');
    return {
      hash: (input) => {
        use(code);
        return module.hash(input);
      },
    };
  };
}

function stageContestant(stage: Stage, pick: (module: StageModule) => BaselineHasher, suffix = ''): Contestant {
  return {
    name: `stage ${stage.id}${suffix}`,
    maxLength: stage.index === 0 ? STAGE0_MAX : Infinity,
    load: async () => pick(await stage.load()),
    stage: { id: stage.id, pick },
  };
}

const CONTESTANTS: Contestant[] = [
  ...STAGES.map((stage) => stageContestant(stage, pickHash)),
  ...STAGES.filter((stage) => stage.index >= 8).map((stage) =>
    stageContestant(stage, pickPortable, ' hashPortable() (big-endian copying path)'),
  ),
  ...(['rows', 'words'] as const).map((code) =>
    stageContestant(stageById('10-simd-one-block')!, pickOneBlockCode(code), ` with one-block code "${code}"`),
  ),
  ...BASELINES.filter((baseline) => baseline.digest === 'blake3').map((baseline) => ({
    name: `${baseline.kind} ${baseline.id}`,
    maxLength: Infinity,
    oracle: baseline.id === 'blake3-wasm' ? () => noble : undefined,
    load: () => baseline.load(),
  })),
];

/** Index of the first byte where a and b differ, or -1 (toEqual on a MiB of bytes is slow). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Hashes each input in order; returns "length: why" for every mismatch. */
async function mismatches(
  hasher: BaselineHasher,
  inputs: { label: string; input: Uint8Array; expected: string }[],
): Promise<string[]> {
  const failures: string[] = [];
  for (const { label, input, expected } of inputs) {
    try {
      const digest = await hasher.hash(input);
      if (!(digest instanceof Uint8Array) || digest.length !== 32) failures.push(`${label}: not a 32-byte Uint8Array`);
      else if (toHex(digest) !== expected) failures.push(`${label}: wrong digest`);
    } catch (error) {
      failures.push(`${label}: threw ${String(error)}`);
    }
  }
  return failures;
}

describe.each(CONTESTANTS)('$name', (contestant) => {
  let hasher: BaselineHasher;
  beforeAll(async () => {
    hasher = await contestant.load();
  });

  it(`matches all ${VECTORS.cases.length} vectors from ${VECTORS.source}`, async () => {
    expect(VECTORS.cases).toHaveLength(35);
    const inputs = VECTORS.cases.map((c) => ({ label: `${c.length} B`, input: patternInput(c.length), expected: c.hash }));
    expect(await mismatches(hasher, inputs)).toEqual([]);
  });

  const lengths = DIFF_LENGTHS.filter((length) => length <= contestant.maxLength);
  const limit = contestant.maxLength === Infinity ? '' : ` (none above ${contestant.maxLength / KiB} KiB: quadratic by design)`;
  it(`agrees with ${contestant.oracle ? '@noble/hashes' : 'blake3-wasm'} at ${lengths.length} lengths up to ${lengths[lengths.length - 1]} B${limit}`, async () => {
    expect(lengths.length).toBeGreaterThanOrEqual(contestant.maxLength === Infinity ? 300 : 150);
    const oracle = contestant.oracle?.();
    const inputs = [];
    for (const length of lengths) {
      const input = DATA.subarray(0, length);
      const expected = oracle ? toHex(await oracle.hash(input)) : reference.get(length)!;
      inputs.push({ label: `${length} B`, input, expected });
    }
    expect(await mismatches(hasher, inputs)).toEqual([]);
  });

  it('keeps no state between calls: large, small, large, empty, odd sizes in a row', async () => {
    const big = Math.min(contestant.maxLength, 5 * MiB + 3 * KiB + 7);
    const sequence = [big, 1, 65, big, 0, Math.min(contestant.maxLength, 600_001), 4097, big, 3 * KiB + 1, 1];
    const inputs = [];
    for (const [i, length] of sequence.entries()) {
      // Each input starts at a different place in DATA, so equal lengths have different bytes.
      const input = DATA.subarray(i * 16, i * 16 + length);
      inputs.push({ label: `call ${i + 1} (${length} B)`, input, expected: await referenceHex(input) });
    }
    expect(await mismatches(hasher, inputs)).toEqual([]);
    // Once more in reverse, now that every internal buffer has been grown and used.
    expect(await mismatches(hasher, [...inputs].reverse())).toEqual([]);
  });

  it('hashes views at byteOffset 1, 2, 3, 4 and 8 of a larger buffer without touching it', async () => {
    const sizes = [0, 1, 3, 63, 64, 65, 1024, 1025, 4 * 4096 + 3, 65 * KiB + 1, 1 * MiB + 5];
    const inputs = [];
    const backing = DATA.slice(0, 1 * MiB + 64);
    const before = backing.slice();
    for (const offset of [1, 2, 3, 4, 8]) {
      for (const length of sizes.filter((size) => size <= contestant.maxLength)) {
        // The view stops short of the buffer's end, so reading past it would also show.
        const input = backing.subarray(offset, offset + length);
        inputs.push({ label: `${length} B at offset ${offset}`, input, expected: await referenceHex(input) });
      }
    }
    expect(await mismatches(hasher, inputs)).toEqual([]);
    expect(firstDifference(backing, before), 'first byte of the buffer changed by hashing').toBe(-1);
  });

  it('returns a fresh digest each call: changing one does not change the next', async () => {
    const input = DATA.subarray(0, 2 * KiB + 1);
    const first = await hasher.hash(input);
    const expected = toHex(first);
    first.fill(0);
    const second = await hasher.hash(input);
    expect(toHex(second)).toBe(expected);
    expect(second).not.toBe(first);
  });

  const { stage } = contestant;
  if (stage) {
    it('refuses anything but a Uint8Array at its entry, with a TypeError that says what it expects', async () => {
      const entry = stage.pick(await stageById(stage.id)!.load());
      const wrong: unknown[] = ['abc', [1, 2, 3], new ArrayBuffer(8), new Uint8ClampedArray(8), new Uint16Array(4), null, undefined];
      const outcomes = wrong.map((value) => {
        try {
          entry.hash(value as Uint8Array);
          return 'accepted';
        } catch (error) {
          return error instanceof TypeError && /expects a Uint8Array/.test(error.message) ? 'TypeError' : String(error);
        }
      });
      expect(outcomes).toEqual(wrong.map(() => 'TypeError'));
    });

    it('is right on its first call in a fresh module instance, with a deep tree', async () => {
      const oldModule = await stageById(stage.id)!.load();
      vi.resetModules();
      const { stageById: freshStageById } = await import('../steps/index.ts');
      const freshModule = await freshStageById(stage.id)!.load();
      expect(freshModule, 'vi.resetModules() gave a new module instance').not.toBe(oldModule);
      const length = Math.min(contestant.maxLength, 7 * MiB + 5 * KiB + 3);
      const input = DATA.subarray(3, 3 + length);
      expect(toHex(await stage.pick(freshModule).hash(input))).toBe(await referenceHex(input));
    });
  }
});

describe('registry', () => {
  it('lists the stages in order from 0, each loading a module with a hash function', async () => {
    expect(STAGES.length).toBeGreaterThanOrEqual(11);
    expect(STAGES.map((stage) => stage.index)).toEqual(STAGES.map((_, position) => position));
    for (const stage of STAGES) {
      const module = await stage.load();
      expect(typeof module.hash, stage.id).toBe('function');
    }
  });

  it('pins each baseline package at the version installed', () => {
    for (const baseline of BASELINES.filter((b) => b.version.includes('@', 1))) {
      const at = baseline.version.lastIndexOf('@');
      const name = baseline.version.slice(0, at);
      const manifest = new URL(`../node_modules/${name}/package.json`, import.meta.url);
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
      expect(`${name}@${version}`).toBe(baseline.version);
    }
  });
});

describe('SHA-256 baseline', () => {
  it('is marked as SHA-256 and matches WebCrypto and the FIPS 180-2 examples', async () => {
    const baseline = baselineById('sha256')!;
    expect(baseline.digest).toBe('sha256');
    const sha = await baseline.load();
    const abc = new TextEncoder().encode('abc');
    expect(toHex(await sha.hash(abc))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(toHex(await sha.hash(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (const length of [1, 55, 56, 64, 1 * MiB + 3]) {
      const input = DATA.subarray(1, 1 + length);
      const expected = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', input.slice())));
      expect(toHex(await sha.hash(input)), `${length} B`).toBe(expected);
    }
  });
});

describe('decodeDataUrl (blake3-wasm bytes in the browser build)', () => {
  it('decodes base64 data URLs and names anything else', () => {
    expect([...decodeDataUrl('data:application/wasm;base64,AGFzbQE=')]).toEqual([0, 97, 115, 109, 1]);
    expect(() => decodeDataUrl('/assets/blake3_js_bg.wasm')).toThrow(/inlined base64 data: URL/);
  });
});
