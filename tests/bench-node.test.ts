// The engine in real Node worker threads: every fault contestant is stopped with its
// reason while the real contestants around it finish, and cancel ends a live run.
import { describe, expect, it } from 'vitest';
import { startNodeBenchmark } from '../src/node/node.ts';
import type { Results } from '../src/core/bench/results.ts';
import { validateResults } from '../src/core/results/io/validate.ts';

function runOf(results: Results, contestant: string) {
  return results.runs.find((r) => r.contestant === contestant)!;
}

describe('bench in Node worker threads', () => {
  it('stops a contestant that throws, lies, hangs or runs out of memory; the others finish', async () => {
    const { done } = startNodeBenchmark(
      {
        contestants: ['fault-hangs', 'noble-hashes', 'fault-throws', 'fault-oom', 'fault-wrong-digest', '07-reuse-buffers'],
        sizes: [1024],
        rounds: 2,
        sampleTargetMs: 5,
      },
      {},
      // Long enough for fault-oom to fill its thread's heap on a machine busy with other tests.
      { timeouts: { loadMs: 20_000 }, warmupMs: 20 },
    );
    const results = await done;
    expect(runOf(results, 'fault-hangs')).toMatchObject({ status: 'failed', nsPerOp: [] });
    expect(runOf(results, 'fault-hangs').reason).toMatch(/did not finish within 20 s: it hangs/);
    expect(runOf(results, 'fault-throws').reason).toMatch(/threw .*deliberate failure/);
    expect(runOf(results, 'fault-oom')).toMatchObject({ status: 'failed', nsPerOp: [] });
    expect(runOf(results, 'fault-oom').reason).toMatch(/ran out of memory/);
    expect(runOf(results, 'fault-wrong-digest')).toMatchObject({ status: 'failed', nsPerOp: [] });
    expect(runOf(results, 'fault-wrong-digest').reason).toMatch(/wrong digest.*never timed/);
    for (const id of ['noble-hashes', '07-reuse-buffers']) {
      expect(runOf(results, id).status).toBe('ok');
      expect(runOf(results, id).nsPerOp).toHaveLength(2);
    }
    expect(results.env).toMatchObject({ runtime: 'node', crossOriginIsolated: false, littleEndian: true });
    expect(results.contestants.find((c) => c.id === '07-reuse-buffers')!.version).toMatch(/^blake3:[0-9a-f]{12}$/);
    expect(validateResults(results)).toMatchObject({ ok: true });
  });

  it('cancel ends a live run and resolves with the samples so far', async () => {
    let sampling = 0;
    const running = startNodeBenchmark(
      { contestants: ['noble-hashes', 'hash-wasm'], sizes: [1024, 65536], rounds: 50, sampleTargetMs: 5 },
      {
        onProgress: (p) => {
          if (p.phase === 'sampling' && ++sampling === 6) running.cancel();
        },
      },
      { warmupMs: 20 },
    );
    const results = await running.done;
    expect(results.runs.every((r) => r.status === 'cancelled')).toBe(true);
    expect(results.runs.reduce((sum, r) => sum + r.nsPerOp.length, 0)).toBe(5);
    expect(validateResults(results)).toMatchObject({ ok: true });
  });
});
