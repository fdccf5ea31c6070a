// A Vitest reporter (vitest.config.ts) that writes how long each test file took, for
// `npm test` to name the slowest (scripts/test.ts). It writes to the file named by
// BLAKE3_LAB_FILE_TIMES, one JSON line per test file; without it, nothing.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTime {
  project: string;
  file: string;
  seconds: number;
}

export default class FileTimes implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const out = process.env.BLAKE3_LAB_FILE_TIMES;
    if (!out) return;
    for (const module of modules) {
      const d = module.diagnostic();
      // From the file's import to its last hook: what it adds to the run.
      const ms = d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
      const time: FileTime = { project: module.project.name, file: relative(process.cwd(), module.moduleId), seconds: ms / 1000 };
      appendFileSync(out, `${JSON.stringify(time)}\n`);
    }
  }
}
