// Builds the app once into a private folder and serves it with `vite preview` (the same
// server, headers and CSP as production) for every browser test file, and starts the one
// Chromium they all connect to (its headless shell; each test in a fresh context, see
// harness.ts). The command-line tests serve the same build (BLAKE3_LAB_DIST, src/node/bench-server.ts).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import type { TestProject } from 'vitest/node';
import { missingBrowser } from '../../src/node/browsers.ts';
import { BROWSER_IDS } from '../../src/core/bench/runtimes.ts';
import { CHROMIUM_FLAGS, TEST_CHROMIUM } from '../../src/node/chromium-path.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The built app, for tests that serve it another way (a plain static server). */
    distDir: string;
    /** The shared Chromium's address, for playwright's chromium.connect(). */
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  // Every browser the tests drive; the message names the Debian package that installs it.
  const missing = BROWSER_IDS.map(missingBrowser).filter(Boolean);
  if (!existsSync(TEST_CHROMIUM)) missing.push(`Chromium's headless shell is not installed at ${TEST_CHROMIUM}: \`apt-get install -y chromium-headless-shell\` installs it (or set CHROMIUM_PATH)`);
  if (missing.length > 0) throw new Error(`Browser tests need every browser they drive:\n${missing.join('\n')}\nthen npm test again.`);
  // A private output folder, so two test runs (or a running dev build) never collide.
  const outDir = mkdtempSync(join(tmpdir(), 'blake3-lab-e2e-'));
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({
    logLevel: 'warn',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const address = server.resolvedUrls?.local[0];
  if (!address) throw new Error('vite preview did not report a local URL');
  const shared = await chromium.launchServer({ executablePath: TEST_CHROMIUM, args: CHROMIUM_FLAGS });
  project.provide('baseURL', address.replace(/\/$/, ''));
  project.provide('distDir', outDir);
  project.provide('chromiumEndpoint', shared.wsEndpoint());
  return async () => {
    await shared.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  };
}
