// What the class pages' browser tests share: the run's Chromium beside a class server of
// the test file's own, on a fresh data folder and the run's build, and a page of it in a
// context of its own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startClassServer, type ClassServer } from '../fixtures/class-server.ts';
import { launchBrowser, SERVICE_WORKERS } from './harness.ts';

export function browserAndClassServer(): Promise<[Browser, ClassServer]> {
  return Promise.all([launchBrowser(), startClassServer({ data: join(mkdtempSync(join(tmpdir(), 'blake3-lab-class-')), 'data'), dist: inject('distDir') })]);
}

export async function closeBoth(browser: Browser | undefined, server: ClassServer | undefined): Promise<void> {
  await browser?.close();
  await server?.stop();
}

/** A page of the class server in a context of its own, and what went wrong on it. */
export interface ClassPage {
  context: BrowserContext;
  page: Page;
  /** Page errors, console errors (but those `allowedConsole` matches) and requests to another origin. */
  errors: string[];
}

/**
 * Opens `path` (from the server's root: "/#/class/CODE/board") in a fresh context that
 * remembers `remember` in its localStorage (a teacher's token and ticket, a student's
 * identity), at `viewport`, with less motion, as a reader who asks for it.
 */
export async function openClassPage(
  browser: Browser,
  server: ClassServer,
  path: string,
  viewport = { width: 1280, height: 800 },
  remember: Record<string, string> = {},
  allowedConsole?: RegExp,
): Promise<ClassPage> {
  const context = await browser.newContext({ viewport, colorScheme: 'light', serviceWorkers: SERVICE_WORKERS, reducedMotion: 'reduce' });
  await context.addInitScript((entries) => {
    for (const [key, value] of entries) localStorage.setItem(key, value);
  }, Object.entries(remember));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !allowedConsole?.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  context.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== server.url) errors.push(`foreign request: ${url}`);
  });
  await page.goto(server.url + path);
  return { context, page, errors };
}
