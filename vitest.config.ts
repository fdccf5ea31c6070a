import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { markdownContent } from './src/node/content-plugin.ts';
import LongestFirst from './scripts/longest-first.ts';

// Three projects: unit tests in Node; browser tests that build the app once, serve it
// with `vite preview` and drive Debian's Chromium with playwright-core; and the evidence,
// the stored measurements taken again (npm run test:evidence), alone on the machine.
export default defineConfig({
  test: {
    // How long each file took, for npm test's list of the slowest (scripts/test.ts).
    reporters: ['default', './scripts/file-times-reporter.ts'],
    // The longest files start first (tests/file-times.json), on a fresh clone too.
    sequence: { sequencer: LongestFirst },
    // A worker per core (Vitest leaves one core to its own process, which mostly waits):
    // on two cores, two browser files at a time, not one (the unit project takes more, below).
    maxWorkers: availableParallelism(),
    projects: [
      {
        plugins: [svelte(), markdownContent()],
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/browser/**', 'tests/evidence/**'],
          environment: 'node',
          testTimeout: 120_000,
          // Alone, two workers a core: the slowest unit files mostly wait (the class load test,
          // slow clients, child processes), and the other core's files run meanwhile. Beside
          // the browser project (npm test, scripts/test.ts), one a core. A group of its own,
          // as Vitest asks of a project with its own worker count.
          maxWorkers: Number(process.env.BLAKE3_LAB_UNIT_WORKERS) || 2 * availableParallelism(),
          // A worker's files share the modules it has loaded, not a fresh copy each: the 79
          // files loaded the same modules again and again (a tenth of the project's processor
          // time). No file leaves state behind: globals are stubbed and unstubbed, and a
          // stage that keeps state (stage 11's pool) is started afresh by each file that uses it.
          isolate: false,
          sequence: { groupOrder: 1 },
          // A test in which no expect() ran fails: one that checks nothing cannot pass by accident.
          expect: { requireAssertions: true },
        },
      },
      {
        test: {
          name: 'evidence',
          include: ['tests/evidence/**/*.test.ts'],
          environment: 'node',
          // One measurement at a time: each wants the machine to itself, as when it was stored.
          fileParallelism: false,
          testTimeout: 900_000,
        },
      },
      {
        // The browser tests read the stories and Go steps too, to check the pages show them.
        plugins: [markdownContent()],
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          globalSetup: ['tests/browser/global-setup.ts'],
          // Files run side by side (a worker per core), each in contexts of the one Chromium:
          // most of a browser test is waiting on a page, so two at a time take half as long.
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // As in the unit project: a worker's files share its loaded modules (playwright-core
          // and the fixtures, loaded once, not once a file). Each file opens and closes its own pages.
          isolate: false,
          // A page answers late on a machine busy with other tests: a poll waits up to 10 s
          // (not 1) before it fails; one that holds passes as soon as it does.
          // A test in which no expect() ran fails, as in the unit project.
          expect: { requireAssertions: true, poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
