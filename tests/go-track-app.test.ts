// The Go track's pages, without a browser: its addresses, the reading of `go test
// -bench` output, the step comparisons and the words built from them, and the talk's
// published figures as stored.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { edgeStageRoute, parseRoute, routeHref, routeLabel, stepRoute, type Route } from '../src/app/ui/nav/routes.ts';
import { GO_STAGES } from '../src/app/go/stages.ts';
import { bestMetric, readGoRun, stepRows, type GoRun } from '../src/app/go/measured.ts';
import { overallWords, stepWords, whyNoChange } from '../src/app/go/words.ts';
import { TALK, TALK_STEPS, TALK_SUMMARY } from '../src/app/go/published.ts';
import type { GoEvidence } from '../src/core/evidence/go-evidence.ts';
import { storedGoEvidence } from '../scripts/go-evidence.ts';

const LAST = GO_STAGES.length - 1;

describe('Go track addresses', () => {
  it('reads #/go/N and #/go/N/code, and writes them back', () => {
    expect(parseRoute('#/go')).toEqual({ page: 'go', index: 0, view: 'story' });
    for (const route of [
      { page: 'go', index: 0, view: 'story' },
      { page: 'go', index: LAST, view: 'code' },
    ] as Route[]) {
      expect(parseRoute(routeHref(route))).toEqual(route);
    }
    expect(routeHref({ page: 'go', index: 3, view: 'code' })).toBe('#/go/3/code');
    expect(routeLabel({ page: 'go', index: 1, view: 'story' })).toBe(`Go stage 1: ${GO_STAGES[1].title}`);
  });

  it('refuses stages that do not exist, with a reason', () => {
    for (const [hash, reason] of [
      [`#/go/${LAST + 1}`, `numbered 0 to ${LAST}`],
      ['#/go/x', 'needs a stage number'],
      ['#/go/2/diff', 'is neither'],
    ]) {
      const route = parseRoute(hash);
      expect(route.page, hash).toBe('not-found');
      if (route.page === 'not-found') expect(route.reason).toContain(reason);
    }
  });

  it('steps within the Go track only, keeping the view, and stops at both ends', () => {
    expect(stepRoute({ page: 'go', index: 0, view: 'story' }, -1)).toBeNull();
    expect(stepRoute({ page: 'go', index: 0, view: 'code' }, 1)).toEqual({ page: 'go', index: 1, view: 'code' });
    expect(stepRoute({ page: 'go', index: LAST, view: 'story' }, 1)).toBeNull();
    expect(edgeStageRoute({ page: 'go', index: 2, view: 'code' }, 'last')).toEqual({ page: 'go', index: LAST, view: 'code' });
    expect(edgeStageRoute({ page: 'go', index: 2, view: 'story' }, 'first')).toEqual({ page: 'go', index: 0, view: 'story' });
  });

  it('has one stage per folder of go/, in order', () => {
    const folders = readdirSync(new URL('../go/', import.meta.url)).filter((name) => /^\d\d-/.test(name)).sort();
    expect(GO_STAGES.map((s) => s.id)).toEqual(folders);
    expect(GO_STAGES.map((s) => s.index)).toEqual(folders.map((_, i) => i));
  });
});

/** A run in `go test -bench` format: stage -> benchmark -> [ns/op, cpu-ns/op] samples. */
function goOutput(samples: Record<string, Record<string, [number, number][]>>): string {
  const lines = ['# date: 2026-01-02T03:04:05Z', '# machine: test box', '# go: go1.26', 'goos: linux', 'goarch: amd64'];
  for (const [stage, benchmarks] of Object.entries(samples)) {
    lines.push(`pkg: blake2slab/${stage}`, 'cpu: Test CPU');
    for (const [name, values] of Object.entries(benchmarks)) {
      for (const [ns, cpu] of values) lines.push(`Benchmark${name}-4   \t 1000\t ${ns} ns/op\t 8.00 MB/s\t ${cpu} cpu-ns/op\t 0 B/op\t 0 allocs/op`);
    }
  }
  return `${lines.join('\n')}\nPASS\n`;
}

const tens = (base: number) => Array.from({ length: 10 }, (_, i) => [base + i, base / 2 + i] as [number, number]);

describe('reading a Go benchmark run', () => {
  const text = goOutput({
    '00-baseline': { Hash8Bytes: tens(1000), Hash1K: tens(9000), Hash8K: tens(70000) },
    '01-inline-g': { Hash8Bytes: tens(500), Hash1K: tens(9003), Hash8K: tens(30000) },
  });

  it('groups samples by stage and benchmark, with the run\'s machine and date', () => {
    const check = readGoRun(text);
    expect(check.ok).toBe(true);
    const run = (check as { run: GoRun }).run;
    expect(run.machine).toBe('test box');
    expect(run.date).toBe('2026-01-02T03:04:05Z');
    expect(run.cpu).toBe('Test CPU');
    expect(run.stages.get('01-inline-g')?.get('Hash8K')?.nsPerOp).toHaveLength(10);
    expect(bestMetric(run)).toBe('cpu');
  });

  it('compares a stage with the one before, as benchstat would', () => {
    const run = (readGoRun(text) as { run: GoRun }).run;
    const wall = stepRows(run, '00-baseline', '01-inline-g', 'wall');
    expect(wall.map((r) => r.benchmark)).toEqual(['Hash8Bytes', 'Hash1K', 'Hash8K']);
    // 1000..1009 against 500..509: no overlap, p = 2/C(20,10) ≈ 0.0000108.
    expect(wall[0].comparison.significant).toBe(true);
    expect(wall[0].comparison.deltaPct).toBeCloseTo((504.5 / 1004.5 - 1) * 100, 6);
    // 9000..9009 against 9003..9012 overlap heavily: "~".
    expect(wall[1].comparison.significant).toBe(false);
    const cpu = stepRows(run, '00-baseline', '01-inline-g', 'cpu');
    expect(cpu[0].old.center).toBe(504.5);
  });

  it('says in words what was measured, with the run\'s own numbers', async () => {
    const run = (readGoRun(text) as { run: GoRun }).run;
    const evidence = GO_STAGES.map((s) => storedGoEvidence(s.id));
    const words = stepWords(run, 1, evidence, 'wall')!;
    expect(words.measured).toContain('faster at 8 bytes and 8 KiB');
    expect(words.measured).toContain('no significant change at 1 KiB');
    expect(words.measured).toMatch(/8 bytes -49\.\d\d% \(p=0\.000 n=10\)/);
    expect(words.compiler).toContain(`cost ${evidence[0].inlining.find((d) => d.function === 'g')!.cost}`);
    // The talk's own table for the step, as printed, and where its verdict and this run's part.
    expect(words.talk).toContain('`benchstat baseline inlinable_g`');
    expect(words.talk).toContain('Hash8B-4 -25.71% (p=0.000)');
    expect(words.talk).toContain('Same verdict at 8 bytes and 8 KiB; at 1 KiB the talk found faster, this run no significant change.');
    // The run lacks the last stage: no overall comparison rather than a made-up one.
    expect(overallWords(run, 'wall')).toBeNull();
  });

  it('explains a step that did not move with the evidence\'s own figures, its words from content/go', async () => {
    const evidence = GO_STAGES.map((s) => storedGoEvidence(s.id));
    const dir = new URL('../data/go/', import.meta.url);
    const committed = readdirSync(dir).find((name) => name.endsWith('.txt'))!;
    const run = (readGoRun(readFileSync(new URL(committed, dir), 'utf8')) as { run: GoRun }).run;
    const quiet = stepRows(run, GO_STAGES[1].id, GO_STAGES[2].id, 'wall').map((row) => ({ ...row, comparison: { ...row.comparison, significant: false } }));
    const bytes = (e: GoEvidence) => e.machineCode.find((c) => c.function === 'compress')!.bytes;
    for (const index of [2, 3, 4, 5]) {
      const words = whyNoChange(index, quiet, evidence[index - 1], evidence[index])!;
      expect(words, `stage ${index}`).toMatch(/^Why no significant change at any size: /);
      expect(words, `stage ${index}`).not.toMatch(/[{}]/);
    }
    expect(whyNoChange(2, quiet, evidence[1], evidence[2])).toContain(`shrink from ${bytes(evidence[1])} to ${bytes(evidence[2])} bytes`);
    expect(whyNoChange(4, quiet, evidence[3], evidence[4])).toContain(`(line ${evidence[4].memclr.map((m) => m.line).join(', ')})`);
    expect(whyNoChange(2, quiet.map((row) => ({ ...row, comparison: { ...row.comparison, significant: true } })), evidence[1], evidence[2])).toBeNull();
  });

  it('refuses text that is not a run of these stages, saying what it expected', () => {
    const other = readGoRun('BenchmarkFoo-8  100  12 ns/op\n');
    expect(other).toEqual({ ok: false, error: expect.stringContaining('blake2slab/00-baseline') });
    const broken = readGoRun('pkg: blake2slab/00-baseline\nBenchmarkHash8K-2  many  12 ns/op\n');
    expect(broken).toEqual({ ok: false, error: expect.stringContaining('line 2') });
  });

  it('reads the committed run: ten samples of every benchmark of every stage, CPU time included', () => {
    const dir = new URL('../data/go/', import.meta.url);
    const files = readdirSync(dir).filter((name) => name.endsWith('.txt'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const check = readGoRun(readFileSync(new URL(name, dir), 'utf8'));
      expect(check.ok, name).toBe(true);
      const run = (check as { run: GoRun }).run;
      expect(run.machine, name).toBeTruthy();
      expect(run.date, name).toMatch(/^\d{4}-\d\d-\d\d/);
      expect([...run.stages.keys()]).toEqual(GO_STAGES.map((s) => s.id));
      for (const byBenchmark of run.stages.values()) {
        for (const samples of byBenchmark.values()) {
          expect(samples.nsPerOp).toHaveLength(10);
          expect(samples.cpuNsPerOp).toHaveLength(10);
        }
      }
    }
  });
});

describe('the talk\'s published figures', () => {
  it('name their source and keep the printed form', () => {
    // The only address the talk itself gives is its code's repository.
    expect(TALK.code).toBe('https://github.com/gtank/blake2s');
    expect(TALK).not.toHaveProperty('slides');
    for (const row of [...TALK_SUMMARY.time, ...TALK_SUMMARY.speed]) {
      expect(row.name).toMatch(/^Hash(8Bytes|8B|1K|8K)-4$/);
      expect(row.delta).toMatch(/^[+-]\d+\.\d\d%$/);
      expect(row.p).toMatch(/^p=0\.\d{3}$/);
    }
  });

  it('have a table for every step after the start (the figures are checked in go-track-talk.test.ts)', () => {
    expect(Object.keys(TALK_STEPS)).toEqual(GO_STAGES.slice(1).map((stage) => stage.id));
    expect(GO_STAGES.slice(1).every((stage) => TALK_STEPS[stage.id]?.time.length === 3)).toBe(true);
  });
});
