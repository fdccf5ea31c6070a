// A Vitest sequencer (vitest.config.ts): the test files that take longest start first, so
// no long file starts last and runs on alone while the other worker idles. Left to
// itself, Vitest orders a fresh clone's files (no durations cached yet) by size, largest
// first, which put the stage suite (a small file, a minute of hashing) at the very end.
// Here every machine uses the same order: tests/file-times.json, each file's seconds in
// a recent run on a 2-core machine, written by `BLAKE3_LAB_TIMES_OUT=tests/file-times.json
// npm test`. A file missing from it (a new one) starts first, as Vitest starts the files
// it knows nothing of. The order changes when files run, never what they check.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import type { FileTime } from './file-times-reporter.ts';

function storedSeconds(root: string): Map<string, number> {
  try {
    const rows = JSON.parse(readFileSync(join(root, 'tests', 'file-times.json'), 'utf8')) as FileTime[];
    return new Map(rows.map((row) => [`${row.project}:${row.file}`, row.seconds]));
  } catch {
    return new Map(); // no file, or not JSON: every file counts as new
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const stored = storedSeconds(this.ctx.config.root);
    const seconds = (file: TestSpecification) => stored.get(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`) ?? Infinity;
    // Projects in Vitest's order (they run one after the other); within one, longest first.
    const projects = [...new Set((await super.sort(files)).map((file) => file.project.name))];
    return [...files].sort((a, b) => projects.indexOf(a.project.name) - projects.indexOf(b.project.name) || seconds(b) - seconds(a));
  }
}
