// A short run of `npm run load:class` (server/load/main.ts): 30 students at the app's own
// pace for 8 s under a token-less flood, then every hostile check (one device filling the
// class, starts without the host's key, hundreds of streams from one device, readers that
// stop reading, documents off the plan or too large, board reads, the export, nicknames).
// Every row of its table must pass; the table is printed for the log.
import { describe, expect, it } from 'vitest';
import { runLoad } from '../server/load/main.ts';
import { formatTable } from '../server/load/report.ts';

describe('class server under a short class-sized load', () => {
  it('passes every check of the load test with 30 students for 8 s', { timeout: 180_000 }, async () => {
    const rows = await runLoad({ students: 30, seconds: 8 });
    console.log(formatTable(rows));
    expect(rows.length).toBeGreaterThanOrEqual(17);
    expect(rows.filter((row) => !row.pass)).toEqual([]);
  });
});
