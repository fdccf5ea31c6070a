// What the class pages' browser tests share: the run's Chromium beside a class server of
// the test file's own, on a fresh data folder and the run's build.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Browser } from 'playwright-core';
import { startClassServer, type ClassServer } from '../fixtures/class-server.ts';
import { launchBrowser } from './harness.ts';

export function browserAndClassServer(): Promise<[Browser, ClassServer]> {
  return Promise.all([launchBrowser(), startClassServer({ data: join(mkdtempSync(join(tmpdir(), 'blake3-lab-class-')), 'data'), dist: inject('distDir') })]);
}

export async function closeBoth(browser: Browser | undefined, server: ClassServer | undefined): Promise<void> {
  await browser?.close();
  await server?.stop();
}
