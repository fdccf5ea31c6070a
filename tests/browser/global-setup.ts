// Builds the app once into a private folder and serves it with `vite preview` (the same
// server, headers and CSP as production) for every browser test file.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(
      `Browser tests need Chromium at ${chromium}: run \`apt-get install -y chromium\` ` +
        '(or set CHROMIUM_PATH), then npm test again.',
    );
  }
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
  project.provide('baseURL', address.replace(/\/$/, ''));
  return async () => {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  };
}
