// The load test's report: one row per check, what it did, what it measured, its target.
export interface Row {
  check: string;
  did: string;
  measured: string;
  target: string;
  pass: boolean;
  /**
   * A target on time alone (a p99 in ms), which a machine busy with other work can miss:
   * `npm run load:class` holds it, and the tests' short run only prints it.
   */
  speed?: true;
}

export function formatTable(rows: Row[]): string {
  const header = ['check', 'what it did', 'measured', 'target', 'result'];
  const cells = rows.map((r) => [r.check, r.did, r.measured, r.target, r.pass ? 'pass' : 'FAIL']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}
