// The story in real Chromium against the built app: every stage by deep link and by
// keyboard, the lesson list following along, unknown addresses, and no page error or
// request to another origin anywhere on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { STORIES } from '../../src/app/story/narrative.ts';
import { INTRO, introFigures } from '../../src/app/story/intro-prose.ts';
import { MEASURE, measureFigures } from '../../src/app/story/measure-prose.ts';
import { routeHref } from '../../src/app/ui/nav/routes.ts';
import { drawn, launchBrowser, openApp, type OpenedPage } from './harness.ts';

const LAST = STAGES.length - 1;

function heading(page: Page) {
  return page.locator('main h1');
}

/** The text of the lesson-list entry marked as the current page, or null. */
function currentInList(page: Page) {
  return page.locator('nav[aria-label="Lesson"] [aria-current="page"]').textContent({ timeout: 5_000 }).catch(() => null);
}

function expectClean(opened: OpenedPage) {
  expect(opened.errors, 'page errors').toEqual([]);
  expect(opened.foreignRequests, 'requests to other origins').toEqual([]);
}

describe('the story', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens every stage by deep link, with its title and its entry marked current', async () => {
    for (const stage of STAGES) {
      const opened = await openApp(browser, `/#/stage/${stage.index}`);
      const { page } = opened;
      await expect.poll(() => heading(page).textContent()).toBe(stage.title);
      await expect.poll(() => currentInList(page)).toContain(stage.title);
      expect(await page.title()).toContain(`Stage ${stage.index}`);
      // Each page shows the article's figure beside this machine's; past the article, what native code does.
      if (STORIES[stage.index].pastArticle) {
        // The card holds the figure and a line; native code's figure reads full width below the cards.
        await expect.poll(() => page.locator('.figures').textContent()).toMatch(/Beyond the article.*native Rust \(not this stage\).*GB\/s/s);
        // Native code's figure is never the card's large line, where it would read as the stage's own.
        expect(await page.locator('.article-figure .headline').textContent()).not.toMatch(/GB\/s/);
      } else {
        await expect.poll(() => page.locator('.article-figure .headline').textContent()).toMatch(/\S/);
      }
      // V8's evidence, before and after, with the row behind the why marked.
      const engine = page.locator('section.engine');
      await expect.poll(() => engine.locator('h2').textContent()).toBe('What V8 reports');
      expect(await engine.textContent()).toMatch(/V8 \d+\.\d+\.\d+/);
      // The facts table comes when its figures are read; the list of functions is there before it.
      await expect
        .poll(() => engine.locator('table.facts thead th').allTextContents())
        .toEqual(stage.index === 0 ? ['', 'stage 0'] : ['', `stage ${stage.index - 1}`, `stage ${stage.index}`]);
      await expect.poll(() => engine.locator('.backs').textContent()).toMatch(/Backs the why\s+\S/);
      expect(await engine.locator('.backs').textContent()).not.toContain('{');
      // From stage 1 on the page offers its step as an exercise; stage 0 has no step before it.
      const yourTurn = page.getByTestId('your-turn');
      if (stage.index === 0) expect(await yourTurn.count()).toBe(0);
      else {
        await expect.poll(() => yourTurn.textContent()).toBe('Your turn: make this step yourself →');
        expect(await yourTurn.getAttribute('href')).toBe(`#/exercise/${stage.index}`);
      }
      expectClean(opened);
      await page.context().close();
    }
  });

  it('steps through intro, all stages and "how we measure" with the arrow keys, Home and End', async () => {
    const opened = await openApp(browser, '/#/');
    const { page } = opened;
    await expect.poll(() => heading(page).textContent()).toContain('2000×');

    for (const stage of STAGES) {
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => heading(page).textContent()).toBe(stage.title);
      expect(page.url()).toMatch(new RegExp(`#/stage/${stage.index}$`));
      await expect.poll(() => currentInList(page)).toContain(stage.title);
    }
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => heading(page).textContent()).toBe('How we measure');
    await page.keyboard.press('ArrowRight'); // the end of the story: stays
    await expect.poll(() => page.url()).toMatch(/#\/measure$/);

    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => heading(page).textContent()).toBe(STAGES[LAST].title);
    await page.keyboard.press('Home');
    await expect.poll(() => heading(page).textContent()).toBe(STAGES[0].title);
    await page.keyboard.press('End');
    await expect.poll(() => heading(page).textContent()).toBe(STAGES[LAST].title);
    await expect.poll(() => currentInList(page)).toContain(STAGES[LAST].title);

    // The stepper's links do the same as the keys.
    await page.getByRole('link', { name: /Previous/ }).click();
    await expect.poll(() => heading(page).textContent()).toBe(STAGES[LAST - 1].title);
    expectClean(opened);
  });

  it('leaves arrow keys to a focused form control', async () => {
    const opened = await openApp(browser, '/#/');
    const { page } = opened;
    const slider = page.locator('main input[type="range"]').first();
    const before = await slider.inputValue();
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => slider.inputValue()).not.toBe(before);
    expect(page.url()).toMatch(/#\/$/);
    await expect.poll(() => heading(page).textContent()).toContain('2000×');
    expectClean(opened);
  });

  it('switches a stage between story and code with "c" and the tabs', async () => {
    const opened = await openApp(browser, '/#/stage/2');
    const { page } = opened;
    await expect.poll(() => heading(page).textContent()).toBe(STAGES[2].title);
    await page.keyboard.press('c');
    await expect.poll(() => page.url()).toMatch(/#\/stage\/2\/code$/);
    await page.locator('nav[aria-label="Stage views"]').getByRole('link', { name: 'Story' }).click();
    await expect.poll(() => page.url()).toMatch(/#\/stage\/2$/);
    expectClean(opened);
  });

  it.each([
    ['/#/no-such-thing', 'no page called'],
    [`/#/stage/${LAST + 1}`, `numbered 0 to ${LAST}`],
    ['/#/stage/two', 'needs a stage number'],
    ['/#/stage/3/diagram', 'is neither'],
  ])('%s says "No such page" and offers a way back', async (path, reason) => {
    const opened = await openApp(browser, path);
    const { page } = opened;
    await expect.poll(() => heading(page).textContent()).toBe('No such page');
    expect(await page.locator('main').textContent()).toContain(reason);
    await page.locator('main').getByRole('link', { name: 'Stage 0' }).click();
    await expect.poll(() => heading(page).textContent()).toBe(STAGES[0].title);
    expectClean(opened);
  });

  it.each([
    ['/#/bench', 'Benchmark'],
    ['/#/results', 'Results'],
    ['/#/compare', 'Compare'],
    ['/#/share/not-a-results-link', 'Results'],
  ])('%s opens its page under the %s section', async (path, section) => {
    const opened = await openApp(browser, path);
    const { page } = opened;
    await expect.poll(() => heading(page).count(), { timeout: 15_000 }).toBe(1);
    expect((await heading(page).textContent())?.trim()).not.toBe('');
    expect(await page.locator('nav[aria-label="Sections"] [aria-current="page"]').textContent()).toBe(section);
    if (path.includes('/share/')) {
      // A broken share link explains itself instead of showing nothing.
      await expect.poll(() => page.locator('main [role="alert"]').count()).toBeGreaterThan(0);
    }
    expectClean(opened);
  });

  it('shows the front page\'s words from content/intro.md: the stages counted, its marks as markup, its links built by the router', async () => {
    const opened = await openApp(browser, '/#/');
    const { page } = opened;
    await expect.poll(() => heading(page).textContent()).toBe(INTRO.title);
    expect(await page.locator('main .lede').first().textContent()).toMatch(new RegExp(`^${introFigures().count} versions`));
    // The sections under the first screen are drawn after the first paint.
    await expect.poll(() => page.locator('main h2').allTextContents()).toEqual([INTRO.blake3, INTRO.lesson, INTRO.use].map((section) => section.heading));
    expect(await page.locator('main h3').allTextContents()).toEqual([INTRO.chunks, INTRO.compression, INTRO.chaining, INTRO.tree, INTRO.map].map((section) => section.heading));
    const use = page.locator('main section[aria-labelledby="use-title"]');
    expect(await use.locator('li').count()).toBe(INTRO.use.items.length);
    expect(await use.locator('kbd').allTextContents()).toEqual(expect.arrayContaining(['←', '→', 'P']));
    const hrefs = await use.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(expect.arrayContaining([routeHref({ page: 'bench' }), routeHref({ page: 'measure' }), '/selftest.html']));
    // No mark is left showing as text.
    expect(await page.locator('main').textContent()).not.toMatch(/\*\*|\+\+|\]\(|`/);
    expectClean(opened);
  });

  it('teaches the measurement with the engine\'s own numbers', async () => {
    const opened = await openApp(browser, '/#/measure');
    const { page } = opened;
    await expect.poll(() => heading(page).textContent()).toBe('How we measure');
    const figures = measureFigures();
    const text = await page.locator('main').textContent();
    expect(text).toContain(MEASURE.lede[0]);
    expect(text).toContain(`up for ${figures['warmup-ms']} ms`);
    expect(text).toContain(`the ${figures.lo} and the ${figures.hi} fastest`);
    expect(text).not.toMatch(/\{[a-z-]+\}|\*\*|`/);
    const verdicts = await page.locator('main table tbody td:last-child').allTextContents();
    // The example family: four survive Holm, the 0.03 and the 0.048 do not.
    expect(verdicts.map((v) => v.startsWith('significant'))).toEqual([true, true, true, true, false, false]);
    const slider = page.locator('main .trap input[type="range"]');
    await slider.fill('1');
    await expect.poll(() => page.locator('main .trap .big').textContent()).toBe('5.0%');
    expect(await page.locator('main .trap figcaption').textContent()).toContain(' among 1 comparisons ');
    expectClean(opened);
  });

  it('fits a phone: nothing wider than the screen, the sections one row that scrolls by itself, the current one in view', async () => {
    const opened = await openApp(browser, '/#/');
    const { page } = opened;
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['#/', '#/stage/4', '#/stage/9/code', '#/measure']) {
      await page.evaluate((hash) => (location.hash = hash), path);
      await expect.poll(() => heading(page).count()).toBe(1);
      await page.locator('main h1').waitFor();
      // The whole page: a stage's profile tables, drawn last, were once the widest part.
      await drawn(page, path);
      const widest = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(widest, `${path} scrolls sideways`).toBeLessThanOrEqual(360);
      // Sections past the edge are reached by scrolling the row, not the page.
      const row = await page.locator('nav[aria-label="Sections"]').evaluate((nav) => ({
        right: nav.getBoundingClientRect().right,
        scrolls: getComputedStyle(nav).overflowX === 'auto' || nav.scrollWidth <= nav.clientWidth,
        current: nav.querySelector('[aria-current="page"]')!.getBoundingClientRect().right,
        tops: new Set([...nav.querySelectorAll('a')].map((a) => a.getBoundingClientRect().top)).size,
      }));
      expect(row.right, `${path}: the row of sections is wider than the screen`).toBeLessThanOrEqual(360);
      expect(row.scrolls, `${path}: sections past the edge cannot be reached`).toBe(true);
      expect(row.tops, `${path}: the sections wrap`).toBe(1);
      await expect.poll(() => page.locator('nav[aria-label="Sections"] [aria-current="page"]').evaluate((a) => a.getBoundingClientRect().right), { message: `${path}: the current section is out of sight` }).toBeLessThanOrEqual(row.right);
    }
    expectClean(opened);
  });

  it('follows the system theme and lets the reader pin one', async () => {
    const opened = await openApp(browser, '/#/', { colorScheme: 'dark' });
    const { page } = opened;
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await expect.poll(background).toBe('rgb(15, 18, 22)');
    await page.getByRole('button', { name: /Theme/ }).click(); // system -> light
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('light');
    await expect.poll(background).toBe('rgb(246, 247, 249)');
    expectClean(opened);
  });
});
