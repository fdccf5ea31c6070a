// A short run of `npm run load:class` (server/load/main.ts) with every scenario: 30
// students guess every step of the plan (the projector must show the spread they sent),
// then post at the app's own pace for 5 s under a token-less flood, then every hostile
// check (nicknames, one device filling the class, starts without the host's key, streams
// without joining, readers that stop reading, documents off the plan or too large, board
// reads, the export); the same class behind one address with a script on it; 200 slow
// heads and 200 slow bodies; a reconnect storm of 200 pages; kill -9 and a restart.
// Every row of its table must pass, but for the few whose target is a time alone (a p99 in
// ms): on a machine busy with other tests those are printed, not held, since a timed
// assertion would fail with the machine's load. `npm run load:class` holds them.
import { describe, expect, it } from 'vitest';
import { runLoad, SCENARIOS } from '../server/load/main.ts';
import { formatTable } from '../server/load/report.ts';

describe('class server under a short class-sized load', () => {
  it('passes every check of the load test, every scenario, with 30 students for 5 s', { timeout: 400_000 }, async () => {
    const rows = await runLoad({ students: 30, seconds: 5, scenarios: [...SCENARIOS], slow: 200 });
    console.log(formatTable(rows));
    expect(rows.length).toBeGreaterThanOrEqual(35);
    // The class of 30 guessed every step, and the projector's stream shows the spread they sent.
    expect(rows.find((row) => row.check === '1 guesses')).toMatchObject({ measured: "360 of 360 accepted; the projector's spread matches on 12 of 12 steps", pass: true });
    for (const row of rows.filter((r) => !r.pass && r.speed)) console.warn(`speed target missed on this busy run: ${row.check}: ${row.measured} (target ${row.target})`);
    expect(rows.filter((row) => !row.pass && !row.speed)).toEqual([]);
    expect(rows.some((row) => row.speed)).toBe(true);
  });
});
