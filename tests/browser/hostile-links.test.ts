// Hostile share links never freeze the page: each is decoded in a worker, so while it
// is read and refused the page keeps painting. The gaps between animation frames are
// measured in the page itself; a frame held up by work on the main thread shows as a
// long gap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { encodeSharePayload, toBase64Url } from '../../src/core/results/io/share.ts';
import { validResults } from '../fixtures/bad-inputs.ts';
import { launchBrowser, openApp } from './harness.ts';

/**
 * Longest gap between two frames the page may show while a link is read, in ms: a page
 * that read a hostile link on its own thread would freeze for seconds; the bound leaves
 * room for a machine busy with other tests (npm test runs the unit tests and another
 * browser file beside this one, on two cores).
 */
const MAX_FRAME_GAP_MS = 600;

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The bytes of `parts`, each [text, copies], without building one long JavaScript string. */
function bytesOf(...parts: [string, number][]): Uint8Array {
  const units = parts.map(([text, copies]) => [new TextEncoder().encode(text), copies] as const);
  const out = new Uint8Array(units.reduce((sum, [unit, copies]) => sum + unit.length * copies, 0));
  let at = 0;
  for (const [unit, copies] of units) for (let i = 0; i < copies; i++, at += unit.length) out.set(unit, at);
  return out;
}

async function linkOf(bytes: Uint8Array): Promise<string> {
  return '1.' + toBase64Url(await deflateRaw(bytes));
}

const MB4 = 4 * 1024 * 1024;

describe('hostile share links', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('are refused with a message while the page keeps painting', async () => {
    const good = await encodeSharePayload(validResults());
    const links: [name: string, payload: string][] = [
      ['8 MB of nested lists', await linkOf(bytesOf(['[', MB4], [']', MB4]))],
      ['a wide list of zeros', await linkOf(bytesOf(['[', 1], ['0,', MB4 / 2], ['0]', 1]))],
      ['nested objects', await linkOf(bytesOf(['{"a":', 1_000_000], ['1', 1], ['}', 1_000_000]))],
      ['nested lists inside an object', await linkOf(bytesOf(['{"runs":', 1], ['[', MB4], [']', MB4], ['}', 1]))],
      ['a zip bomb', await linkOf(bytesOf(['{', 1], [' ', 64 * 1024 * 1024]))],
      ['junk after the compressed data', good + 'AAAAAAAA'],
    ];
    expect(links[0][1].length).toBeLessThan(12_000);

    const { page, errors } = await openApp(browser, '/#/stage/2');
    const longest: Record<string, number> = {};
    for (const [name, payload] of links) {
      // Frame gaps recorded from just before the link opens until its message shows.
      await page.evaluate(() => {
        const state = { gaps: [] as number[], last: performance.now(), on: true };
        (window as any).__frames = state;
        const tick = (now: number) => {
          state.gaps.push(now - state.last);
          state.last = now;
          if (state.on) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await page.evaluate((hash) => (location.hash = hash), `#/share/${payload}`);
      await expect.poll(() => page.getByTestId('share-error').textContent(), { timeout: 30_000 }).toMatch(/\w/);
      longest[name] = await page.evaluate(
        () =>
          new Promise<number>((resolve) =>
            requestAnimationFrame(() => {
              const state = (window as any).__frames;
              state.on = false;
              resolve(Math.max(...state.gaps));
            }),
          ),
      );
      await page.evaluate(() => (location.hash = '#/stage/2'));
      await expect.poll(() => page.locator('main h1').textContent()).toBe('Precomputed permutations');
    }
    const figures = Object.entries(longest).map(([name, ms]) => `${name}: ${ms.toFixed(0)} ms`);
    console.log(`Longest frame gap per hostile link: ${figures.join('; ')}`);
    for (const [name, ms] of Object.entries(longest)) expect(ms, `${name}: longest frame gap`).toBeLessThan(MAX_FRAME_GAP_MS);
    expect(errors).toEqual([]);
  });
});
