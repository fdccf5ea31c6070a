// A started worker's call (src/core/worker.ts): the answer, or the first of its time
// limit, the worker's death and the caller's abort, on a fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Remote } from 'comlink';
import { CallTimeout, Cancelled, WorkerDied, startedWorker } from '../src/core/worker.ts';

interface Api {
  echo(text: string): Promise<string>;
  hang(): Promise<string>;
}

/** A worker whose `hang` answers only when the test says, and that dies when the test says. */
function fakeWorker() {
  let answer: (text: string) => void = () => {};
  let refuse: (error: Error) => void = () => {};
  let die: (error: WorkerDied) => void = () => {};
  const api: Api = {
    echo: async (text) => text,
    hang: () =>
      new Promise<string>((resolve, reject) => {
        answer = resolve;
        refuse = reject;
      }),
  };
  const failed = new Promise<never>((_, reject) => (die = reject));
  const stop = vi.fn();
  const worker = startedWorker(api as Remote<Api>, failed, stop);
  return { worker, stop, answer: (text: string) => answer(text), refuse: (error: Error) => refuse(error), die: (error: WorkerDied) => die(error) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a started worker's call", () => {
  it('answers with the work, and leaves no timer behind', async () => {
    const { worker, stop } = fakeWorker();
    await expect(worker.call((api) => api.echo('hi'), { timeoutMs: 1000 })).resolves.toBe('hi');
    expect(vi.getTimerCount()).toBe(0);
    expect(stop).not.toHaveBeenCalled();
  });

  it('rejects with CallTimeout once the limit passes, with its own message or the one given', async () => {
    const { worker } = fakeWorker();
    const plain = worker.call((api) => api.hang(), { timeoutMs: 50 });
    const named = worker.call((api) => api.hang(), { timeoutMs: 80, late: 'the self-test worker did not start' });
    const settled = Promise.allSettled([plain, named]);
    await vi.advanceTimersByTimeAsync(49);
    expect(vi.getTimerCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(40);
    const [first, second] = await settled;
    expect(first).toMatchObject({ status: 'rejected', reason: { ms: 50, message: 'no answer within 50 ms' } });
    expect((first as PromiseRejectedResult).reason).toBeInstanceOf(CallTimeout);
    expect(second).toMatchObject({ status: 'rejected', reason: { ms: 80, message: 'the self-test worker did not start' } });
  });

  it('takes no time limit when none is given', async () => {
    const { worker, answer } = fakeWorker();
    const call = worker.call((api) => api.hang());
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3_600_000);
    answer('after an hour');
    await expect(call).resolves.toBe('after an hour');
  });

  it('rejects with Cancelled when the signal aborts mid-call, and at once, without calling, when it already has', async () => {
    const { worker } = fakeWorker();
    const controller = new AbortController();
    const call = worker.call((api) => api.hang(), { timeoutMs: 1000, signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(Cancelled);
    expect(vi.getTimerCount()).toBe(0);
    const work = vi.fn((api: Remote<Api>) => api.echo('never'));
    await expect(worker.call(work, { signal: controller.signal })).rejects.toBeInstanceOf(Cancelled);
    expect(work).not.toHaveBeenCalled();
  });

  it('lets go of the signal when the call ends, so a run of many calls on one signal holds none', async () => {
    const { worker } = fakeWorker();
    const { signal } = new AbortController();
    const added = vi.spyOn(signal, 'addEventListener');
    const removed = vi.spyOn(signal, 'removeEventListener');
    for (let i = 0; i < 3; i++) await worker.call((api) => api.echo(String(i)), { signal });
    expect(added).toHaveBeenCalledTimes(3);
    expect(removed.mock.calls.map(([type, listener]) => [type, listener])).toEqual(added.mock.calls.map(([type, listener]) => [type, listener]));
  });

  it("rejects with the worker's death, its reason kept, and every later call does too", async () => {
    const { worker, die } = fakeWorker();
    const call = worker.call((api) => api.hang(), { timeoutMs: 1000 });
    die(new WorkerDied('it ran out of memory'));
    await expect(call).rejects.toThrow(new WorkerDied('it ran out of memory'));
    await expect(worker.call((api) => api.hang(), { timeoutMs: 1000 })).rejects.toBeInstanceOf(WorkerDied);
  });

  it('passes on an error the work itself rejects with', async () => {
    const { worker, refuse } = fakeWorker();
    const call = worker.call((api) => api.hang(), { timeoutMs: 1000 });
    refuse(new TypeError('bad input'));
    await expect(call).rejects.toThrow(new TypeError('bad input'));
  });

  it('keeps its time-out when the answer comes late, and a late failure goes nowhere', async () => {
    const { worker, answer } = fakeWorker();
    const call = worker.call((api) => api.hang(), { timeoutMs: 50 });
    const outcome = call.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(50);
    answer('too late');
    expect(await outcome).toBeInstanceOf(CallTimeout);
    // A rejection after the limit would fail this file as unhandled if nobody caught it.
    const { worker: other, refuse } = fakeWorker();
    const second = other.call((api) => api.hang(), { timeoutMs: 50 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(50);
    refuse(new Error('too late to matter'));
    await vi.advanceTimersByTimeAsync(0);
    expect(await second).toBeInstanceOf(CallTimeout);
  });
});
