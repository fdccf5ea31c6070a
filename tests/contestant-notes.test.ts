// The notes the bench and the self-test print beside a contestant's figures: how many
// threads stage 11 used and what it timed to decide, and which one-block code stage 10
// timed faster. A reader must be able to tell a multi-core figure from one core's.
import { describe, expect, it } from 'vitest';
import { describeOneBlockChoice, describeThreadUse } from '../src/core/bench/threads.ts';
import { MAX_TEXT } from '../src/core/results/io/limits.ts';

const MiB = 1024 * 1024;

describe('stage 11', () => {
  it('names the threads and both sizes it measured, with the timings that chose them', () => {
    const note = describeThreadUse({
      threads: 2,
      minBytes: 4 * MiB,
      minSharedBytes: 2 * MiB,
      crossover: [
        { bytes: MiB, shared: true, oneThreadMs: 1.01, poolMs: 1.3 },
        { bytes: 2 * MiB, shared: true, oneThreadMs: 2.04, poolMs: 1.5 },
        { bytes: 2 * MiB, shared: false, oneThreadMs: 2.04, poolMs: 2.5 },
        { bytes: 4 * MiB, shared: false, oneThreadMs: 3.1, poolMs: 2.71 },
      ],
    });
    expect(note).toBe(
      'hashes inputs of 4 MiB or more (2 MiB or more if already in shared memory) on 2 threads at once ' +
        '(the calling thread and 1 pool worker), so it uses 2 cores; timed when it loaded, ' +
        'the pool first won at 2 MiB with a shared input (1.5 ms against 2.0 ms on one thread) ' +
        'and first won at 4 MiB with a copied one (2.7 ms against 3.1 ms on one thread)',
    );
  });

  it('says so when the pool won nowhere, in whole milliseconds from 10 on', () => {
    const note = describeThreadUse({
      threads: 3,
      minBytes: 16 * MiB,
      minSharedBytes: 16 * MiB,
      crossover: [
        { bytes: 16 * MiB, shared: true, oneThreadMs: 14.2, poolMs: 13.6 },
        { bytes: 16 * MiB, shared: false, oneThreadMs: 14.2, poolMs: 15.1 },
      ],
    });
    expect(note).toMatch(/^hashes inputs of 16 MiB or more on 3 threads at once \(the calling thread and 2 pool workers\), so it uses 3 cores; /);
    expect(note).toMatch(/won at no size up to 16 MiB with a copied one \(there 15 ms against 14 ms on one thread\)$/);
  });

  it("fits the results' limit on notes even at its longest", () => {
    const note = describeThreadUse({
      threads: 64,
      minBytes: 16 * MiB,
      minSharedBytes: 256 * 1024,
      crossover: [
        { bytes: 256 * 1024, shared: true, oneThreadMs: 0.31, poolMs: 0.25 },
        { bytes: 16 * MiB, shared: false, oneThreadMs: 123456, poolMs: 123456 },
      ],
    });
    expect(note.length).toBeLessThanOrEqual(MAX_TEXT.note);
  });

  it('gives the reason when it hashes on one thread, and nothing about timing when told the size', () => {
    expect(describeThreadUse({ threads: 1, minBytes: MiB, minSharedBytes: MiB, fallback: 'the page is not cross-origin isolated' })).toBe(
      'hashes on one thread: the page is not cross-origin isolated',
    );
    expect(describeThreadUse({ threads: 2, minBytes: MiB, minSharedBytes: MiB })).not.toMatch(/timed/);
  });
});

describe('stage 10', () => {
  it('names the code it chose and both timings', () => {
    expect(describeOneBlockChoice({ code: 'rows', nsPerBlock: { rows: 84.4, words: 169.2 } })).toBe(
      'hashes single blocks with its SIMD rows (compress1xRows), the faster when it loaded: 84 ns a block against 169 for its 32-bit words (compress1xWords)',
    );
    expect(describeOneBlockChoice({ code: 'words', nsPerBlock: { rows: 97, words: 54.6 } })).toBe(
      'hashes single blocks with its 32-bit words (compress1xWords), the faster when it loaded: 55 ns a block against 97 for its SIMD rows (compress1xRows)',
    );
  });

  it('says when nothing was timed', () => {
    expect(describeOneBlockChoice({ code: 'rows' })).toBe('hashes single blocks with its SIMD rows (compress1xRows), not timed against its 32-bit words (compress1xWords)');
  });
});
