// The coordinator and the worker core together, in one thread, on a fake clock: each
// test contestant advances the clock by a cost of our choosing per hash, so calibration,
// the time box and the order of samples are exact and the tests take milliseconds.
import { describe, expect, it } from 'vitest';
import { blake3 } from '@noble/hashes/blake3.js';
import { createBenchCore, SMOKE_LENGTHS } from '../src/core/bench/bench-core.ts';
import { runBenchmark, type RunOptions } from '../src/core/bench/runner.ts';
import { contestantById, type Contestant } from '../src/core/bench/contestants.ts';
import type { Capabilities } from '../src/core/bench/capabilities.ts';
import type { Remote } from 'comlink';
import { startedWorker } from '../src/core/worker.ts';
import type { BenchCore } from '../src/core/bench/core-protocol.ts';
import { validateResults } from '../src/core/results/io/validate.ts';

const CAPABLE: Capabilities = { wasmSimd: true, webCrypto: true, littleEndian: true, crossOriginIsolated: true };
const HOST = { runtime: 'node', runtimeVersion: 'Node test', userAgent: 'test', os: 'Linux x64', cores: 2 } as const;

interface Fake {
  id: string;
  /** Fake milliseconds one hash of `size` bytes takes. */
  cost(size: number): number;
  /** Make the digest wrong for this size. */
  wrongAt?(size: number): boolean;
  requires?: Contestant['requires'];
  /** Never answer (a promise that never settles): a hang the single thread survives. */
  hangs?: boolean;
  /** Where each input it hashed lived, in order. */
  memory?: ('shared' | 'ordinary')[];
}

/** A world of fake contestants on one fake clock, with a record of every call. */
function world(fakes: Fake[], clockStep = (t: number) => t) {
  let t = 0;
  // Every read of the clock moves it 100 ns, so the timer probe sees a fine clock.
  const now = () => clockStep((t += 1e-4));
  const digests = new Map<number, Uint8Array>();
  const digestOf = (input: Uint8Array) => {
    let digest = digests.get(input.length);
    if (!digest) digests.set(input.length, (digest = blake3(input)));
    return digest.slice();
  };
  const contestants = new Map<string, Contestant>(
    fakes.map((fake) => [
      fake.id,
      {
        id: fake.id,
        title: fake.id,
        kind: 'stage',
        oracle: 'blake3',
        requires: fake.requires,
        version: 'test',
        files: [],
        load: async () => ({
          hash(input: Uint8Array) {
            if (fake.hangs) return new Promise<Uint8Array>(() => {});
            fake.memory?.push(input.buffer instanceof SharedArrayBuffer ? 'shared' : 'ordinary');
            t += fake.cost(input.length);
            const digest = digestOf(input);
            if (fake.wrongAt?.(input.length)) digest[5] ^= 0x80;
            return digest;
          },
        }),
      },
    ]),
  );
  const resolveOne = (id: string) => contestants.get(id) ?? contestantById(id);
  const calls: { method: string; id: string; size?: number }[] = [];
  let started = 0;
  let terminated = 0;
  const startWorker = () => {
    started++;
    const core = createBenchCore({ resolve: resolveOne, now });
    let id = '';
    const recorded: typeof core = {
      probe: core.probe,
      load: (contestant, caps) => {
        id = contestant;
        calls.push({ method: 'load', id });
        return core.load(contestant, caps);
      },
      prepare: (size, settings) => {
        calls.push({ method: 'prepare', id, size });
        return core.prepare(size, settings);
      },
      sample: (size, iterations) => {
        calls.push({ method: 'sample', id, size });
        return core.sample(size, iterations);
      },
    };
    // In one thread comlink has nothing to add: the core's own promises stand in for its Remote.
    return startedWorker(recorded as Remote<BenchCore>, new Promise<never>(() => {}), () => void terminated++);
  };
  const run = (plan: RunOptions['plan'], extra: Partial<RunOptions> = {}) =>
    runBenchmark({
      plan,
      host: HOST,
      capabilities: CAPABLE,
      startWorker,
      resolve: (ids) => ids.map((id) => resolveOne(id)!),
      ...extra,
    });
  return { run, calls, counts: () => ({ started, terminated }) };
}

const flat = (ms: number) => () => ms;

function runOf(results: Awaited<ReturnType<typeof runBenchmark>>, contestant: string, size: number) {
  const run = results.runs.find((r) => r.contestant === contestant && r.size === size);
  if (!run) throw new Error(`no run for ${contestant} at ${size}`);
  return run;
}

describe('bench runner', () => {
  it('prepares everything first, then samples in rounds whose contestant order rotates', async () => {
    const w = world([
      { id: 'a', cost: flat(0.01) },
      { id: 'b', cost: flat(0.01) },
      { id: 'c', cost: flat(0.01) },
    ]);
    const results = await w.run({ contestants: ['a', 'b', 'c'], sizes: [96, 1024], rounds: 3 });
    const samples = w.calls.filter((c) => c.method === 'sample').map((c) => `${c.id}@${c.size}`);
    expect(samples).toEqual([
      'a@96', 'b@96', 'c@96', 'a@1024', 'b@1024', 'c@1024',
      'b@96', 'c@96', 'a@96', 'b@1024', 'c@1024', 'a@1024',
      'c@96', 'a@96', 'b@96', 'c@1024', 'a@1024', 'b@1024',
    ]);
    const firstSample = w.calls.findIndex((c) => c.method === 'sample');
    expect(w.calls.slice(firstSample).some((c) => c.method !== 'sample')).toBe(false);
    expect(validateResults(results).ok).toBe(true);
    expect(w.counts()).toEqual({ started: 3, terminated: 3 });
  });

  it('gives every contestant inputs in shared memory when the plan asks, and records it', async () => {
    for (const sharedInput of [undefined, true]) {
      const fakes = ['a', 'b'].map((id) => ({ id, cost: flat(0.01), memory: [] as ('shared' | 'ordinary')[] }));
      const results = await world(fakes).run({ contestants: ['a', 'b'], sizes: [96, 1024], rounds: 2, sharedInput });
      // The checks on loading use small ordinary inputs; every hash of a planned size, the planned kind.
      for (const fake of fakes) {
        const timed = fake.memory.slice(SMOKE_LENGTHS.length);
        expect(timed.length).toBeGreaterThan(10);
        expect(new Set(timed)).toEqual(new Set([sharedInput ? 'shared' : 'ordinary']));
      }
      expect(results.config.sharedInput).toBe(sharedInput);
      expect(validateResults(results).ok).toBe(true);
    }
  });

  it('calibrates each sample to the target and reports nanoseconds per hash', async () => {
    const w = world([{ id: 'a', cost: flat(0.01) }]);
    const results = await w.run({ contestants: ['a'], sizes: [1024], rounds: 4, sampleTargetMs: 20 });
    const run = runOf(results, 'a', 1024);
    expect(run.status).toBe('ok');
    // 20 ms of 10 us hashes; the clock reads add a hair.
    expect(run.iterations).toBeGreaterThanOrEqual(1990);
    expect(run.iterations).toBeLessThanOrEqual(2001);
    expect(run.nsPerOp).toHaveLength(4);
    for (const ns of run.nsPerOp) expect(ns).toBeCloseTo(10_000, -1);
    expect(results.env.timerResolutionNs).toBeCloseTo(100, 0);
  });

  it('lengthens samples on a coarse timer so each spans at least 400 ticks', async () => {
    // A 100 us timer, as in a page that is not cross-origin isolated.
    const w = world([{ id: 'a', cost: flat(0.01) }], (t) => Math.floor(t / 0.1) * 0.1);
    const results = await w.run({ contestants: ['a'], sizes: [1024], rounds: 2, sampleTargetMs: 20 });
    expect(results.env.timerResolutionNs).toBeCloseTo(100_000, -2);
    expect(results.config.sampleTargetMs).toBeCloseTo(40, 6);
    const run = runOf(results, 'a', 1024);
    expect(run.iterations).toBeGreaterThan(3800);
    expect(run.iterations).toBeLessThan(4200);
    for (const ns of run.nsPerOp) expect(Math.abs(ns - 10_000)).toBeLessThan(300);
  });

  it('cancel stops at once and keeps the samples taken so far', async () => {
    const w = world([
      { id: 'a', cost: flat(0.01) },
      { id: 'b', cost: flat(0.01) },
    ]);
    const controller = new AbortController();
    let sampling = 0;
    const results = await w.run(
      { contestants: ['a', 'b'], sizes: [96, 1024], rounds: 10 },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'sampling' && ++sampling === 5) controller.abort();
        },
      },
    );
    expect(results.runs.every((r) => r.status === 'cancelled')).toBe(true);
    const taken = results.runs.reduce((sum, r) => sum + r.nsPerOp.length, 0);
    expect(taken).toBe(4);
    expect(results.runs.every((r) => /^cancelled after \d+ of 10 samples$/.test(r.reason!))).toBe(true);
    expect(validateResults(results).ok).toBe(true);
    expect(w.counts().terminated).toBe(w.counts().started);
  });

  it('time-boxes a quadratic contestant: keeps what fits, refuses what cannot, with the reason', async () => {
    const w = world([
      { id: 'quadratic', cost: (size) => (size / 1024) ** 2 / 2 },
      { id: 'linear', cost: (size) => (size / 1024) * 0.001 },
    ]);
    const results = await w.run({ contestants: ['quadratic', 'linear'], sizes: [1024, 65536, 262144], rounds: 3, timeBoxMs: 5000 });
    expect(runOf(results, 'quadratic', 1024)).toMatchObject({ status: 'ok' });
    // One hash of 64 KiB costs 2 s: verification plus one sample fit in the 5 s box, a second sample would not.
    const mid = runOf(results, 'quadratic', 65536);
    expect(mid.status).toBe('timeboxed');
    expect(mid.nsPerOp).toHaveLength(1);
    expect(mid.reason).toMatch(/stopped after 1 of 3 samples: the 5 s time box per size ran out/);
    const big = runOf(results, 'quadratic', 262144);
    expect(big).toMatchObject({ status: 'timeboxed', nsPerOp: [] });
    expect(big.reason).toMatch(/one hash of 256 KiB would take about 33 s .*size\^2\.0, roughly quadratic\): verifying it and timing one sample would not fit in the 5 s time box/);
    expect(w.calls.some((c) => c.id === 'quadratic' && c.size === 262144)).toBe(false);
    for (const size of [1024, 65536, 262144]) expect(runOf(results, 'linear', size)).toMatchObject({ status: 'ok' });
    expect(validateResults(results).ok).toBe(true);
  });

  it('time-boxes a size whose first hash leaves no room for a sample, as the worker measured it', async () => {
    const w = world([{ id: 'quadratic', cost: (size) => (size / 1024) ** 2 }]);
    const results = await w.run({ contestants: ['quadratic'], sizes: [65536], rounds: 3, timeBoxMs: 5000 });
    const run = runOf(results, 'quadratic', 65536);
    expect(run).toMatchObject({ status: 'timeboxed', nsPerOp: [] });
    expect(run.reason).toBe('one hash of 64 KiB took 4.1 s: verifying it and timing one sample would not fit in the 5 s time box per size');
    expect(w.calls.filter((c) => c.method === 'sample')).toEqual([]);
  });

  it('never times a contestant with a wrong digest, at any size', async () => {
    const w = world([
      { id: 'good', cost: flat(0.01) },
      { id: 'wrong-when-large', cost: flat(0.01), wrongAt: (size) => size > 8192 },
    ]);
    const results = await w.run({ contestants: ['good', 'wrong-when-large', 'fault-wrong-digest'], sizes: [1024, 65536], rounds: 2 });
    for (const id of ['wrong-when-large', 'fault-wrong-digest']) {
      for (const size of [1024, 65536]) {
        const run = runOf(results, id, size);
        expect(run.status).toBe('failed');
        expect(run.nsPerOp).toEqual([]);
        expect(run.reason).toMatch(/wrong digest .*never timed/);
      }
      expect(w.calls.some((c) => c.id === id && c.method === 'sample')).toBe(false);
    }
    expect(runOf(results, 'wrong-when-large', 1024).reason).toMatch(/65536-byte input/);
    expect(runOf(results, 'good', 65536)).toMatchObject({ status: 'ok' });
    expect(validateResults(results).ok).toBe(true);
  });

  it('a contestant that throws or never answers fails with the reason; the others finish', async () => {
    const w = world([
      { id: 'good', cost: flat(0.01) },
      { id: 'silent', cost: flat(0.01), hangs: true },
    ]);
    const results = await w.run({ contestants: ['fault-throws', 'silent', 'good'], sizes: [1024], rounds: 2 }, { timeouts: { loadMs: 300 } });
    expect(runOf(results, 'fault-throws', 1024)).toMatchObject({ status: 'failed', nsPerOp: [] });
    expect(runOf(results, 'fault-throws', 1024).reason).toMatch(/deliberate failure/);
    expect(runOf(results, 'silent', 1024)).toMatchObject({ status: 'failed', nsPerOp: [] });
    expect(runOf(results, 'silent', 1024).reason).toMatch(/did not finish within 300 ms: it hangs/);
    expect(runOf(results, 'good', 1024)).toMatchObject({ status: 'ok' });
    expect(runOf(results, 'good', 1024).nsPerOp).toHaveLength(2);
  });

  it('marks a contestant whose capability is missing unavailable and never starts it', async () => {
    const w = world([
      { id: 'needs-simd', cost: flat(0.01), requires: 'wasm-simd' },
      { id: 'plain', cost: flat(0.01) },
    ]);
    const results = await w.run({ contestants: ['needs-simd', 'plain'], sizes: [1024], rounds: 2 }, { capabilities: { ...CAPABLE, wasmSimd: false } });
    expect(runOf(results, 'needs-simd', 1024)).toMatchObject({ status: 'unavailable', nsPerOp: [] });
    expect(runOf(results, 'needs-simd', 1024).reason).toMatch(/WebAssembly SIMD/);
    expect(w.calls.some((c) => c.id === 'needs-simd')).toBe(false);
    expect(runOf(results, 'plain', 1024)).toMatchObject({ status: 'ok' });
    expect(results.env.wasmSimd).toBe(false);
  });

  it('publishes partial documents as it goes, and progress that ends at 100%', async () => {
    const w = world([{ id: 'a', cost: flat(0.01) }]);
    const partials: number[] = [];
    const fractions: number[] = [];
    await w.run(
      { contestants: ['a'], sizes: [96, 1024], rounds: 3 },
      {
        onResult: (partial) => {
          expect(validateResults(partial).ok).toBe(true);
          partials.push(partial.runs.reduce((sum, r) => sum + r.nsPerOp.length, 0));
        },
        onProgress: (p) => fractions.push(p.fraction),
      },
    );
    expect(partials.at(-1)).toBe(6);
    expect([...partials].sort((x, y) => x - y)).toEqual(partials);
    expect([...fractions].sort((x, y) => x - y)).toEqual(fractions);
    expect(fractions.at(-1)).toBe(1);
  });

  it('refuses a plan with an unknown contestant or a bad size, saying which', async () => {
    const w = world([]);
    await expect(w.run({ contestants: ['nope'], sizes: [1024], rounds: 1 }, { resolve: undefined })).rejects.toThrow(/unknown contestant "nope"/);
    await expect(w.run({ contestants: ['noble-hashes'], sizes: [0], rounds: 1 })).rejects.toThrow(/input sizes are whole numbers/);
  });
});
