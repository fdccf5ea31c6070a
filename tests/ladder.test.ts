// Your ladder: runs merge instead of replacing one another (the newest figure per
// contestant, size and browser kept), the merged document still validates, and the
// ladder lists every stage measured so far against the one below it and Rust WASM.
import { describe, expect, it } from 'vitest';
import type { Results } from '../src/core/bench/results.ts';
import { mergeResults } from '../src/core/results/merge.ts';
import { validateResults } from '../src/core/results/io/validate.ts';
import { stageLadder } from '../src/core/results/analysis/stage-ladder.ts';
import { stageLadderTable } from '../src/core/results/text/figure-tables.ts';
import { fullResults } from './fixtures/full-results.ts';

/** The full fixture cut to these contestants and sizes, as one step run leaves it, dated, read as the app reads it. */
function run(ids: string[], sizes: number[], date: string, scale = 1): Results {
  const full = fullResults();
  const runs = full.runs.filter((r) => ids.includes(r.contestant) && sizes.includes(r.size)).map((r) => ({ ...r, nsPerOp: r.nsPerOp.map((ns) => ns * scale) }));
  const check = validateResults({ ...full, env: { ...full.env, date }, contestants: full.contestants.filter((c) => ids.includes(c.id)), runs, config: { ...full.config, sizes: [...sizes] } });
  if (!check.ok) throw new Error(check.error);
  return check.results;
}

const figure = (doc: Results, id: string, size: number) => doc.runs.find((r) => r.contestant === id && r.size === size)?.nsPerOp[0];

describe('merging runs into a ladder', () => {
  const eight = run(['07-reuse-buffers', '08-little-endian'], [1024, 65536], '2026-11-26T10:00:00Z');
  const three = run(['02-precomputed-permutations', '03-inline-round'], [96, 65536], '2026-11-26T10:05:00Z');

  it('keeps both runs when they measured different stages, and validates as one document', () => {
    const ladder = mergeResults(eight, three);
    expect(ladder.contestants.map((c) => c.id).sort()).toEqual(['02-precomputed-permutations', '03-inline-round', '07-reuse-buffers', '08-little-endian']);
    expect(ladder.config.sizes).toEqual([96, 1024, 65536]);
    expect(ladder.runs).toHaveLength(8);
    expect(ladder.env.date).toBe('2026-11-26T10:05:00Z');
    expect(validateResults(JSON.parse(JSON.stringify(ladder)))).toMatchObject({ ok: true });
  });

  it('keeps the newest figure for the same contestant, size and browser, and the older one elsewhere', () => {
    const again = run(['08-little-endian', 'blake3-wasm'], [65536], '2026-11-26T11:00:00Z', 2);
    const ladder = mergeResults(mergeResults(eight, three), again);
    expect(figure(ladder, '08-little-endian', 65536)).toBe(figure(again, '08-little-endian', 65536));
    expect(figure(ladder, '08-little-endian', 1024)).toBe(figure(eight, '08-little-endian', 1024));
    expect(ladder.runs.filter((r) => r.contestant === '08-little-endian' && r.size === 65536)).toHaveLength(1);
    // Another browser's figure for the same contestant and size is its own rung.
    const firefox = { ...again, runtimes: [{ ...again.runtimes![0], id: 'firefox', name: 'Firefox' }], runs: again.runs.map((r) => ({ ...r, runtime: 'firefox' })) };
    const both = mergeResults(ladder, firefox);
    expect(both.runs.filter((r) => r.contestant === '08-little-endian' && r.size === 65536)).toHaveLength(2);
    expect(both.runtimes!.map((r) => r.id).sort()).toEqual(['chromium', 'firefox']);
    expect(validateResults(JSON.parse(JSON.stringify(both)))).toMatchObject({ ok: true });
  });

  it('starts a ladder from the first run, as an older stored document loads', () => {
    expect(mergeResults(null, eight)).toBe(eight);
  });
});

describe('the ladder', () => {
  it('lists every stage measured at 64 KiB in lesson order, each against the one below it and Rust WASM', () => {
    const ladder = stageLadder(
      mergeResults(run(['07-reuse-buffers', '08-little-endian', 'blake3-wasm'], [1024, 65536], '2026-11-26T10:00:00Z'), run(['02-precomputed-permutations', '03-inline-round'], [96, 65536], '2026-11-26T10:05:00Z')),
    )!;
    expect(ladder.size).toBe(65536);
    expect(ladder.rungs.map((r) => r.contestant)).toEqual(['02-precomputed-permutations', '03-inline-round', '07-reuse-buffers', '08-little-endian', 'blake3-wasm']);
    expect(ladder.rungs[2].step?.previous).toBe('03-inline-round');
    const table = stageLadderTable(ladder);
    expect(table.rows.map((row) => row[0].text)).toEqual(['2. Precomputed permutations', '3. Inline round into compress', '7. Reuse buffers', '8. Little-endian fast path', expect.stringContaining('blake3-wasm')]);
    expect(table.rows[3][3].text).toMatch(/x (faster|slower)$/);
    expect(table.rows[4][3].text).toBe('yardstick');
  });

  it('is absent when no stage was measured', () => {
    expect(stageLadder(run(['blake3-wasm'], [1024], '2026-11-26T10:00:00Z'))).toBeNull();
  });
});
