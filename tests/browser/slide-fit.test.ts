// Presenter mode on a projector, which cannot scroll: every slide of the story, the Go
// track, the bench, every engine, the playground and the class page fits one screen at
// 1280x800, 1920x1080 and 3840x2160, with a full results set loaded. One walk through the
// slides checks each slide on the three screens in turn (a projector plugged in while the
// slide is up): a page's parts are the same on every screen, and the walk checks that too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { GO_STAGES } from '../../src/app/go/stages.ts';
import { drawn, launchBrowser, openApp, picture } from './harness.ts';
import { INTRO_PARTS, TEACH_LINKS } from '../../src/app/teach/plans.ts';
import { storeResultsScript } from '../fixtures/full-results.ts';
import { expectClean, overflow, rootFontPx, slideName } from './presenter-helpers.ts';

/** Goes to `hash` in the page on screen, as a link would. */
const go = (page: Page, hash: string) => page.evaluate((to) => (location.hash = to), hash);

/** Goes to the code view at `hash`, titled `title`, and waits for its editor: the editor. */
async function openCode(page: Page, hash: string, title: string): Promise<Locator> {
  await go(page, hash);
  await expect.poll(() => page.locator('main h1').textContent()).toBe(title);
  const editor = page.locator('.monaco-diff-editor, .monaco-editor').first();
  await editor.waitFor();
  return editor;
}

/** A walk over every slide at three screen sizes: minutes on a 2-core machine (128 s for the file alone when quiet, over 180 s for one walk under load). */
const WALK_TIMEOUT_MS = 400_000;

describe('slides that fit a projector', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A laptop's screen, a 1080p projector and a 4K one. */
  const PROJECTORS = [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
    { width: 3840, height: 2160 },
  ];

  /**
   * The name of the slide on screen (slideName) once its page has drawn every part it loads
   * or draws after its first paint: until then, parts may still join the page.
   */
  async function settled(page: Page): Promise<string> {
    await drawn(page, await slideName(page));
    return slideName(page);
  }

  /**
   * The slide on screen, `name` in the messages (as settled() read it), fits each projector's
   * screen in turn: it does not scroll, and it is still the same part of the same page.
   * `check` adds what else must hold there. The page is left at the last projector's size.
   */
  async function fitsEvery(page: Page, name: string, check?: (screen: { width: number; height: number }) => Promise<void>): Promise<void> {
    for (const screen of PROJECTORS) {
      await page.setViewportSize(screen);
      const at = `${name} at ${screen.width}x${screen.height}`;
      // Polled: a slide is fitted to a new screen a frame or two after it changes.
      await expect.poll(() => overflow(page), { message: `slide ${at} scrolls`, timeout: 5000 }).toBeLessThanOrEqual(0);
      expect(await slideName(page), `${at}: the same part`).toBe(name);
      await check?.(screen);
    }
  }

  // A projector cannot scroll. Walk the whole story with the arrow key, as a teacher
  // would, with a full results set loaded (the largest the stage cards get), and check
  // every slide and every part of a long page on each screen.
  it('fits every slide of the story on one screen of a 1280x800, 1920x1080 and 3840x2160 projector, with full results loaded', async () => {
    const opened = await openApp(browser, '/?present#/', { beforeLoad: storeResultsScript() });
    const { page } = opened;
    // The introduction is shown in parts: the first of them.
    await expect.poll(() => slideName(page)).toMatch(/^#\/ 1\/\d+$/);
    const slides: string[] = [];
    for (let step = 0; step < 200; step++) {
      await page.locator('.stepper').waitFor();
      const name = await settled(page);
      if (name.includes('#/stage/')) {
        await expect.poll(() => page.getByTestId('stage-measured').locator('table').count(), { message: `${name}: results shown` }).toBe(1);
      }
      await fitsEvery(page, name);
      slides.push(name);
      // The last slide offers no way on.
      if ((await page.locator('.stepper .next').count()) === 0) break;
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => slideName(page), { message: `step on from ${name}` }).not.toBe(name);
    }
    // Every page of the story was seen, the long ones in several parts.
    expect(new Set(slides.filter((name) => name.startsWith('#/stage/')).map((name) => name.split(' ')[0])).size).toBe(STAGES.length);
    expect(slides.filter((name) => name.startsWith('#/ ')).length).toBeGreaterThan(1);
    expect(slides.filter((name) => name.startsWith('#/measure ')).length).toBeGreaterThan(1);
    // Stepping back into a page with parts opens it on its last part.
    await go(page, '#/stage/0');
    await expect.poll(() => slideName(page)).toMatch(/^#\/stage\/0( 1\/\d+)?$/);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => slideName(page)).toBe(slides.filter((name) => name.startsWith('#/ ')).at(-1));

    // The type follows the screen: on a laptop smaller than on a 1080-pixel projector, still
    // large; a 4K projector doubles it. The way out is readable from the back of the room:
    // large, opaque, high contrast.
    const exit = page.getByRole('button', { name: /Exit presenter/ });
    await fitsEvery(page, await settled(page), async ({ width }) => {
      if (width === 1280) {
        expect(await rootFontPx(page)).toBeGreaterThan(17);
        expect(await rootFontPx(page)).toBeLessThan(20);
      }
      if (width === 3840) expect(await rootFontPx(page), 'a 4K projector doubles the type').toBeGreaterThanOrEqual(54);
      const look = await exit.evaluate((element) => {
        const style = getComputedStyle(element);
        return { px: parseFloat(style.fontSize), opacity: Number(style.opacity) };
      });
      expect(look.px).toBeGreaterThanOrEqual(14);
      expect(look.opacity).toBe(1);
    });
    // The code view of every stage fills the screen without scrolling it.
    for (const stage of STAGES) {
      const editor = await openCode(page, `#/stage/${stage.index}/code`, stage.title);
      await fitsEvery(page, await settled(page), async ({ width, height }) => {
        const box = (await editor.boundingBox())!;
        expect(box.height, `stage ${stage.index}'s code at ${width}x${height}`).toBeGreaterThan(300);
        expect(box.y + box.height).toBeLessThanOrEqual(height);
      });
    }
    expectClean(opened);
  }, WALK_TIMEOUT_MS);

  // The Teach page's plans name the introduction's title slide, its tree and its map.
  it('opens each part of the introduction a plan names, and draws the tree at the slide’s type on a 1920x1080 projector', async () => {
    for (const part of INTRO_PARTS) {
      const opened = await openApp(browser, TEACH_LINKS[`intro:${part}`]);
      const { page } = opened;
      await page.setViewportSize({ width: 1920, height: 1080 });
      await expect.poll(() => page.locator('main [data-slide-shown]').getAttribute('data-slide-name'), { message: part }).toBe(part);
      const name = await settled(page);
      await expect.poll(() => overflow(page), { message: `${name} scrolls` }).toBeLessThanOrEqual(0);
      if (part === 'title') expect(name).toMatch(/^#\/ 1\/\d+$/);
      // The map is the deck's last part.
      if (part === 'map') expect(name).toMatch(/^#\/ (\d+)\/\1$/);
      if (part === 'tree') {
        // A label is drawn 12 units high: at the slide's body type (28 px here), not 12 px.
        const tree = page.locator('main .tree svg');
        const label = await tree.evaluate((svg: SVGSVGElement) => (12 * svg.getBoundingClientRect().width) / svg.viewBox.baseVal.width);
        expect(label).toBeGreaterThanOrEqual(0.8 * (await rootFontPx(page)));
        expect(label).toBeGreaterThanOrEqual(20);
        await picture(page, 'tree-1920');
      }
      // Stepping on leaves the named part: the address names it no more, so a reload shows where the reader is.
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.evaluate(() => location.search)).toBe('?present');
      expectClean(opened);
      await page.context().close();
    }
  });

  // Every other page a teacher may put on the projector: the Go track (walked with the
  // arrow key, part by part, as in the story), its code views, the bench, every engine,
  // the playground and the class page, each part of each on one screen of each projector.
  it('fits the Go track, the bench, every engine, the playground and the class page on a 1280x800, 1920x1080 and 3840x2160 projector', async () => {
    const opened = await openApp(browser, '/?present#/', { beforeLoad: storeResultsScript() });
    const { page } = opened;
    // The Go track, from its first part to the last part of its last stage.
    await go(page, '#/go/0');
    await expect.poll(() => slideName(page)).toMatch(/^#\/go\/0 1\/\d+$/);
    const seen: string[] = [];
    for (let step = 0; step < 60; step++) {
      const here = await settled(page);
      await fitsEvery(page, here);
      seen.push(here);
      if ((await page.locator('.stepper .next').count()) === 0) break;
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => slideName(page), { message: `step on from ${here}` }).not.toBe(here);
    }
    expect(new Set(seen.map((name) => name.split(' ')[0])).size).toBe(GO_STAGES.length);
    // Each Go stage shows in parts: its story with the compiler's counts, where the time goes (and on
    // stages 3 to 5 what the benchmark allocates), the two runs (and on the last, the whole track),
    // then its question for the class with the commands that run it.
    expect(seen.filter((name) => name.startsWith('#/go/0 ')).length, seen.join(', ')).toBe(4);
    expect(seen.filter((name) => name.startsWith(`#/go/${GO_STAGES.length - 1} `)).length, seen.join(', ')).toBe(6);
    expect(seen.at(-1)).toBe(`#/go/${GO_STAGES.length - 1} 6/6`);
    // The profile beside the talk's, then the talk's benchstat table, on slides of their own.
    await go(page, '#/go/3');
    await expect.poll(() => slideName(page)).toBe('#/go/3 1/5');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => slideName(page)).toBe('#/go/3 2/5');
    await expect.poll(() => page.getByTestId('our-pprof').isVisible()).toBe(true); // its profile loads after the slide shows
    await expect.poll(() => page.getByTestId('talk-pprof').innerText()).toMatch(/top10[\s\S]*3\.46s\s+55\.63%/);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => slideName(page)).toBe('#/go/3 3/5');
    await expect.poll(() => page.getByTestId('our-alloc').isVisible()).toBe(true);
    // A step with the talk's top5: larger type, and still every table inside its card.
    await go(page, '#/go/1');
    await expect.poll(() => slideName(page)).toBe('#/go/1 1/4');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => slideName(page)).toBe('#/go/1 2/4');
    await expect.poll(() => page.locator('[data-testid="talk-pprof"] tbody tr').count()).toBe(5);
    await fitsEvery(page, await settled(page), async ({ width, height }) => {
      const spill = await page.locator('.profile .card').evaluateAll((cards) =>
        cards.filter((card) => [...card.querySelectorAll('table')].some((t) => t.getBoundingClientRect().right > card.getBoundingClientRect().right)).length,
      );
      expect(spill, `profile tables wider than their cards at ${width}x${height}`).toBe(0);
    });
    await go(page, '#/go/4');
    await expect.poll(() => slideName(page)).toBe('#/go/4 1/5');
    await fitsEvery(page, await settled(page), async () => expect(await page.locator('.evidence .counts').isVisible()).toBe(true));
    for (const part of [2, 3, 4]) {
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => slideName(page)).toBe(`#/go/4 ${part}/5`);
    }
    await expect.poll(() => page.locator('.measured').first().innerText()).toMatch(/benchstat use_fixed_array use_memset[\s\S]*627ns ± 0%[\s\S]*do not continue/);

    for (const stage of GO_STAGES) {
      const editor = await openCode(page, `#/go/${stage.index}/code`, stage.title);
      await fitsEvery(page, await settled(page), async ({ width, height }) => {
        const box = (await editor.boundingBox())!;
        expect(box.height, `Go stage ${stage.index}'s code at ${width}x${height}`).toBeGreaterThan(300);
        // The editor ends above the corner arrows, so they never cover its scroll bar.
        const arrows = (await page.locator('.stepper').boundingBox())!;
        expect(box.y + box.height, `Go stage ${stage.index}'s code under the arrows at ${width}x${height}`).toBeLessThanOrEqual(arrows.y);
      });
    }

    // Pages shown in parts: every part fits, and the arrow key walks through them.
    for (const hash of ['#/bench', '#/engines']) {
      await go(page, hash);
      await expect.poll(() => slideName(page)).toMatch(new RegExp(`^${hash} 1/\\d+$`));
      const parts = Number((await slideName(page)).split('/').at(-1));
      for (let part = 1; part <= parts; part++) {
        await fitsEvery(page, await settled(page), async () => {
          if (part === 1 && hash === '#/bench') expect(await page.getByTestId('run').isVisible()).toBe(true);
        });
        if (part < parts) {
          await page.keyboard.press('ArrowRight');
          await expect.poll(() => slideName(page)).toBe(`${hash} ${part + 1}/${parts}`);
        }
      }
    }
    for (const hash of ['#/playground/6', '#/class']) {
      await go(page, hash);
      await expect.poll(() => page.locator('main h1').count()).toBeGreaterThan(0);
      if (hash.startsWith('#/playground')) await page.locator('.monaco-editor').first().waitFor();
      await fitsEvery(page, await settled(page));
    }
    expectClean(opened);
  }, WALK_TIMEOUT_MS);
});
