// The HTML pages the build turns into entry points, by entry name: the app, the
// self-test, and the two pages the command line drives in a browser. vite.config.ts
// builds them all; the bench server builds only the bench pages.

export const HTML_PAGES = {
  main: 'index.html',
  /** Runs every stage against the vectors in a Web Worker and prints the verdict. */
  selftest: 'selftest.html',
  /** The page `npm run bench -- --browser` drives in headless Chromium. */
  bench: 'bench.html',
  /** The page `npm run bench:cores -- --browser` drives. */
  cores: 'cores.html',
} as const;

/** The pages the command line drives, without the app and its editor (far quicker to build). */
export const BENCH_PAGES = { bench: HTML_PAGES.bench, cores: HTML_PAGES.cores } as const;
