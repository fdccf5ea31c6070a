// npm run compare -- OLD NEW [--json] [--alpha=0.05] [--confidence=0.95]
//
// Compares two benchmark runs the way benchstat does. Each file may be a BLAKE3 Lab
// results document (.json) or Go benchmark text (ours from "Export for benchstat", or
// any `go test -bench` output); the kind is detected from the content.
// Prints benchstat's table, with Holm-adjusted p beside each raw p, or with --json one
// JSON object per line per row (Infinity bounds, from too few samples, print as null).

import { readFileSync } from 'node:fs';
import { compareSampleSets, samplesFromText, type ComparisonReport } from '../src/core/results/analysis/comparison.ts';
import { formatComparisonReport } from '../src/core/results/text/report-text.ts';

const USAGE = 'usage: npm run compare -- OLD NEW [--json] [--alpha=0.05] [--confidence=0.95]';

class UsageError extends Error {}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`${path}: no such file`);
    if (code === 'EISDIR') throw new Error(`${path}: is a directory, not a results file`);
    if (code === 'EACCES') throw new Error(`${path}: permission denied`);
    throw new Error(`${path}: cannot be read (${(error as Error).message})`);
  }
}

function parseArgs(argv: string[]): { files: string[]; json: boolean; alpha: number; confidence: number } {
  const files: string[] = [];
  let json = false;
  let alpha = 0.05;
  let confidence = 0.95;
  const level = (flag: string, value: string) => {
    const x = Number(value);
    if (value.trim() === '' || !(x >= 0 && x <= 1)) throw new UsageError(`${flag} must be a number from 0 to 1, got "${value}"`);
    return x;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    // --alpha=0.01 and --alpha 0.01 alike, as `npm run bench` takes its options.
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (name === '--alpha' || name === '--confidence') {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a number from 0 to 1`);
      if (name === '--alpha') alpha = level(name, value);
      else confidence = level(name, value);
    } else if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') throw new UsageError('');
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length !== 2) throw new UsageError(`expected two files, OLD and NEW; got ${files.length}`);
  return { files, json, alpha, confidence };
}

/** One JSON object per row: what a script needs to check a change. */
function jsonLines(report: ComparisonReport): string {
  const side = (c: { center: number; lo: number; hi: number; n: number } | null) =>
    c && { median: c.center, lo: Number.isFinite(c.lo) ? c.lo : null, hi: Number.isFinite(c.hi) ? c.hi : null, n: c.n };
  const lines: string[] = [];
  for (const table of report.tables) {
    for (const r of table.rows) {
      lines.push(
        JSON.stringify({
          name: r.name,
          unit: r.unit,
          old: side(r.old),
          new: side(r.new),
          deltaPct: r.deltaPct,
          rawDeltaPct: r.rawDeltaPct,
          p: r.p,
          adjustedP: r.adjustedP,
          significant: r.significant,
          warnings: r.warnings,
        }),
      );
    }
    const g = table.geomean;
    lines.push(JSON.stringify({ name: 'geomean', unit: g.unit, old: { median: g.old }, new: { median: g.new }, deltaPct: g.deltaPct }));
  }
  return lines.join('\n') + '\n';
}

function main(argv: string[]): number {
  try {
    const args = parseArgs(argv);
    const [oldSet, newSet] = args.files.map((path) => samplesFromText(path, readText(path), (m) => console.error(m)));
    const report = compareSampleSets(oldSet, newSet, { alpha: args.alpha, confidence: args.confidence });
    process.stdout.write(args.json ? jsonLines(report) : formatComparisonReport(report, { holm: true }));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message) console.error(`compare: ${error.message}`);
      console.error(USAGE);
      return 2;
    }
    console.error(`compare: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
