// The playground's and the exercises' runs share one sandbox: it is made once and kept
// while it works, and one that did not load is closed and made afresh by the next run,
// so a sandbox that failed offline works again once the network is back.
import { describe, expect, it } from 'vitest';
import { SandboxKeeper, type LoadingSandbox } from '../src/app/playground/sandbox-keeper.ts';

class FakeSandbox implements LoadingSandbox {
  closed = false;
  constructor(private readonly loads: boolean) {}
  whenReady(): Promise<void> {
    return this.loads ? Promise.resolve() : Promise.reject(new Error('the sandbox did not load: /sandbox.html could not be fetched'));
  }
  close(): void {
    this.closed = true;
  }
}

/** A keeper whose sandboxes load or not as `loads` says, one answer per sandbox made. */
function keeperOf(...loads: boolean[]) {
  const made: FakeSandbox[] = [];
  const keeper = new SandboxKeeper(() => {
    const sandbox = new FakeSandbox(loads[made.length] ?? true);
    made.push(sandbox);
    return sandbox;
  });
  return { keeper, made };
}

describe('the sandbox keeper', () => {
  it('makes one sandbox and keeps it for every later run', async () => {
    const { keeper, made } = keeperOf(true);
    const first = await keeper.ready();
    expect(await keeper.ready()).toBe(first);
    expect(made).toHaveLength(1);
    expect(first.closed).toBe(false);
  });

  it('says why a sandbox did not load, closes it, and makes a fresh one for the next run', async () => {
    const { keeper, made } = keeperOf(false, true);
    await expect(keeper.ready()).rejects.toThrow(/^the sandbox did not load: /);
    expect(made[0].closed).toBe(true);
    const second = await keeper.ready();
    expect(second).toBe(made[1]);
    expect(second.closed).toBe(false);
    expect(await keeper.ready()).toBe(second);
    expect(made).toHaveLength(2);
  });

  it('closes the kept sandbox when the page goes, and a later run makes another', async () => {
    const { keeper, made } = keeperOf(true, true);
    const first = await keeper.ready();
    keeper.close();
    expect(first.closed).toBe(true);
    expect(await keeper.ready()).toBe(made[1]);
  });
});
