// Code a learner typed is timed on an input that changes before every call
// (src/core/bench/batch-timer.ts, variedBatchTimer), as the playground's sandbox does: a
// draft that keeps digests, whether by the input's identity or by a part of its bytes, then
// fails with a message that says so, and an honest one is timed as before. The registry's
// stages keep the article's method (one input, hashed again and again), where such a draft
// would pass: the first test shows why the sandbox needs the varied input.
import { describe, expect, it } from 'vitest';
import { blake3 } from '@noble/hashes/blake3.js';
import { createBenchCore } from '../src/core/bench/bench-core.ts';
import { markCall } from '../src/core/bench/batch-timer.ts';
import type { Contestant, ContestantHasher } from '../src/core/bench/contestants.ts';
import type { Capabilities } from '../src/core/bench/capabilities.ts';
import { patternInput } from '../src/core/vectors.ts';

const CAPABLE: Capabilities = { wasmSimd: true, webCrypto: true, littleEndian: true, crossOriginIsolated: true };
const SETTINGS = { sampleTargetMs: 2, timeBoxMs: 5000, warmupMs: 5 };

/** Keeps each digest by the input object it was asked for: the same array asked again gets the old digest. */
function identityCache(): ContestantHasher {
  const kept = new WeakMap<Uint8Array, Uint8Array>();
  return {
    hash(input) {
      let digest = kept.get(input);
      if (!digest) kept.set(input, (digest = blake3(input)));
      return digest;
    },
  };
}

/** Keeps each digest by the input's length and sixteen bytes from its middle: fooled by no input of the checks, only by a timed loop. */
function middleCache(): ContestantHasher {
  const kept = new Map<string, Uint8Array>();
  return {
    hash(input) {
      const key = `${input.length}:${input.subarray(input.length >> 1, (input.length >> 1) + 16).join()}`;
      let digest = kept.get(key);
      if (!digest) kept.set(key, (digest = blake3(input)));
      return digest;
    },
  };
}

/** The bench core over one contestant, prepared at `size` and sampled `samples` times; the first failure's reason, or null. */
async function timed(hasher: ContestantHasher, varyInputs: boolean, size = 4096, samples = 3): Promise<string | null> {
  const contestant: Contestant = { id: 'draft', title: 'draft', kind: 'stage', oracle: 'blake3', version: 'test', files: [], load: async () => hasher };
  const core = createBenchCore({ resolve: (id) => (id === 'draft' ? contestant : undefined), varyInputs });
  const loaded = await core.load('draft', CAPABLE);
  if (loaded.status !== 'loaded') return loaded.reason;
  const ready = await core.prepare(size, SETTINGS);
  if (ready.status !== 'ready') return ready.status === 'failed' ? ready.reason : ready.status;
  for (let i = 0; i < samples; i++) {
    const sample = await core.sample(size, ready.iterations);
    if (sample.status !== 'ok') return sample.reason;
  }
  return null;
}

describe('timing on inputs that change between calls', () => {
  it('a digest cache passes the article\'s method, which hashes one input again and again', async () => {
    expect(await timed(identityCache(), false)).toBeNull();
    expect(await timed(middleCache(), false)).toBeNull();
  });

  it('fails a cache by identity and a cache by part of the bytes, saying what it looks for', async () => {
    for (const cache of [identityCache(), middleCache()]) {
      const reason = await timed(cache, true);
      expect(reason).toMatch(/^wrong digest for a 4096-byte input .*on a 4096-byte input that changes between calls, expected [0-9a-f]{16}…\. A draft that keeps the digests of earlier calls, or returns early on an input it has seen, fails here/);
    }
  });

  it('times an honest hash as before, on an input that never repeats', async () => {
    const seen = new Set<string>();
    const honest: ContestantHasher = {
      hash(input) {
        seen.add(input.join());
        return blake3(input);
      },
    };
    const contestant: Contestant = { id: 'draft', title: 'draft', kind: 'stage', oracle: 'blake3', version: 'test', files: [], load: async () => honest };
    const core = createBenchCore({ resolve: () => contestant, varyInputs: true });
    expect((await core.load('draft', CAPABLE)).status).toBe('loaded');
    const smoke = seen.size;
    const ready = await core.prepare(1024, SETTINGS);
    expect(ready.status).toBe('ready');
    if (ready.status !== 'ready') return;
    const calls = seen.size - smoke;
    expect(await core.sample(1024, ready.iterations)).toMatchObject({ status: 'ok' });
    // Every timed call hashed an input of its own, within a batch and from one batch to the next.
    expect(seen.size - smoke).toBe(calls + ready.iterations);
  });

  it('remakes the input of any call from the original bytes, whatever came before', () => {
    const original = patternInput(100);
    const changed = original.slice();
    for (const call of [0, 1, 255, 256, 70_000, 2 ** 31]) markCall(changed, call);
    const remade = original.slice();
    markCall(remade, 2 ** 31);
    expect(changed).toEqual(remade);
    // Both ends differ from one call to the next, and only the eight bytes at the ends change.
    const next = original.slice();
    markCall(next, 2 ** 31 + 1);
    expect(next[0]).not.toBe(remade[0]);
    expect(next[99]).not.toBe(remade[99]);
    expect(next.subarray(4, 96)).toEqual(original.subarray(4, 96));
  });
});
