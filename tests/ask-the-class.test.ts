// Every stage and every Go step has a question for the room, written from its own
// evidence, with its answer; stage 11 says what to try by hand; every Go step says how
// to run it, with commands whose package paths are the track's real packages.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { STAGES } from '../steps/index.ts';
import { GO_TRACK } from '../go/index.ts';
import { STORIES } from '../src/app/story/narrative.ts';
import { GO_STAGES } from '../src/app/go/stages.ts';
import { goPackagePath, runYourself } from '../src/app/go/run-yourself.ts';
import { askOf, ContentReader } from '../src/app/ui/lesson/content.ts';
import { parseMarkdown } from '../src/core/content/markdown.ts';

// What a question is drawn from: the stage's profile, its engine's or compiler's report, its diff or its run.
const EVIDENCE = /profile|report|bytecode|benchstat|run\b|runs\b|`[A-Za-z0-9_.]+`/;

describe('ask the class', () => {
  it('has a question and an answer on every stage, drawn from its evidence', () => {
    expect(STORIES).toHaveLength(STAGES.length);
    for (const [index, story] of STORIES.entries()) {
      expect(story.ask.question, `stage ${index}`).toMatch(/\?/);
      expect(story.ask.question, `stage ${index}'s question names its evidence`).toMatch(EVIDENCE);
      expect(story.ask.answer.length, `stage ${index}'s answer`).toBeGreaterThan(80);
    }
    expect(new Set(STORIES.map((story) => story.ask.question)).size, 'one question per stage, none repeated').toBe(STAGES.length);
  });

  it('has a question and an answer on every Go step', () => {
    expect(GO_STAGES).toHaveLength(GO_TRACK.length);
    for (const stage of GO_STAGES) {
      expect(stage.ask.question, stage.id).toMatch(/\?/);
      expect(stage.ask.question, `${stage.id}'s question names its evidence`).toMatch(EVIDENCE);
      expect(stage.ask.answer.length, stage.id).toBeGreaterThan(80);
    }
  });

  it('refuses a file without its question or answer, or a question in two paragraphs', () => {
    const ask = (text: string) => () => askOf(new ContentReader(parseMarkdown(text, 'x.md'), 'x.md'));
    expect(ask('# Change\n\nWords.\n')).toThrow(/"# ask" section/);
    expect(ask('# Ask the class {#ask}\n\nWhy?\n')).toThrow(/"# answer" section/);
    expect(ask('# Ask the class {#ask}\n\nWhy?\n\nAnd how?\n\n## The answer {#answer}\n\nBecause.\n')).toThrow(/one paragraph/);
    expect(ask('# Ask the class {#ask}\n\nWhy?\n\n## The answer {#answer}\n\nBecause.\n')()).toEqual({ question: 'Why?', answer: 'Because.' });
  });

  it('gives each stage the playground cannot open (stage 11) things to try by hand', () => {
    const closed = STAGES.filter((stage) => stage.playgroundUnavailable);
    expect(closed.map((stage) => stage.id)).toContain('11-every-core');
    for (const stage of closed) expect(STORIES[stage.index].tryIt?.length, stage.id).toBeGreaterThan(1);
    expect(STORIES[STAGES.findIndex((stage) => stage.id === '11-every-core')].tryIt!.join(' ')).toContain('`npm run bench:cores -- --browser`');
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    expect(scripts['bench:cores'], 'the command it names exists').toBeDefined();
  });
});

describe('running a Go step yourself', () => {
  it('names each step by its package folder in the Go module', () => {
    expect(readFileSync(join('go', 'go.mod'), 'utf8')).toMatch(/^module \S+/m);
    for (const stage of GO_TRACK) {
      const dir = join('go', goPackagePath(stage.index));
      expect(existsSync(dir), dir).toBe(true);
      const tests = readdirSync(dir).filter((name) => name.endsWith('_test.go'));
      expect(tests.map((name) => readFileSync(join(dir, name), 'utf8')).join('\n'), `${dir} has benchmarks`).toMatch(/func Benchmark\w+\(b \*testing\.B\)/);
      const run = runYourself(stage.index);
      expect(run.dir).toBe('go');
      expect(run.run).toBe(`go test -run '^$' -bench . -count 10 ./${stage.id} > ${stage.id}.txt`);
      if (stage.index === 0) expect(run.compare).toEqual([]);
      else expect(run.compare[1]).toBe(`benchstat ${GO_TRACK[stage.index - 1].id}.txt ${stage.id}.txt`);
    }
  });

  // Go itself, where it is installed: the commands' packages build and list their benchmarks (offline).
  const go = (() => {
    try {
      execFileSync('go', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!go)('lists the benchmarks of every package the commands name, with `go test -list`', () => {
    const packages = GO_TRACK.map((stage) => goPackagePath(stage.index));
    const out = execFileSync('go', ['test', '-list', '^Benchmark', ...packages], { cwd: 'go', encoding: 'utf8', env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod' } });
    for (const stage of GO_TRACK) expect(out, stage.id).toMatch(new RegExp(`ok\\s+\\S+/${stage.id}\\b`));
    expect(out.match(/^BenchmarkHash\w+$/gm)?.length).toBe(GO_TRACK.length * 3);
  }, 120_000);
});
