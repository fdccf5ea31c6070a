// Every page, checked by axe-core in light and dark with a full results set loaded, on one
// walk in two tabs (each page opened once, then checked in each scheme):
// no serious or critical violation, every chart an image with a name linked to its
// table, a visible focus ring on everything the keyboard reaches, and no page or console
// error on the whole walk (the walk opens the playground, then the code views, with
// TypeScript's service running). The pages are found by following the app's own links
// from the front page, so a page added later is checked by being linked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { encodeSharePayload } from '../../src/core/results/io/share.ts';
import { fullResults, storeResultsScript } from '../fixtures/full-results.ts';
import { axeFindings, COLOUR_RULES, type Finding } from './axe.ts';
import { launchBrowser, openApp } from './harness.ts';

/** Most pages the crawl visits: far more than the app has, a guard against a link loop. */
const MAX_PAGES = 80;

/** In-app addresses linked from the page on screen: "#/stage/4", "#/bench". A stage's other files are the same page. */
function linkedRoutes(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLAnchorElement>('a[href^="#/"]')]
      .map((a) => a.getAttribute('href')!)
      .filter((href) => !/^#\/stage\/\d+\/code\/./.test(href) && !href.startsWith('#/share/')),
  );
}

/**
 * Waits until the page has drawn what it loads lazily (its heading, charts and code) and
 * its markup holds still (a code editor keeps adding to it for a while after it shows):
 * axe then judges the finished page, and the dark scheme finds the same markup.
 */
async function settle(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => !document.querySelector('main [role="status"]')?.textContent?.includes('Loading'), null, { timeout: 20_000 }).catch(() => {});
  let before = await markupBesideColours(page);
  for (let read = 0; read < 20; read++) {
    await page.waitForTimeout(250);
    const now = await markupBesideColours(page);
    if (now === before) return;
    before = now;
  }
}

/** Charts on screen without a name, or whose description does not point at a table caption. */
function unlinkedCharts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('canvas')]
      // Monaco paints its overview ruler on canvases of its own; those are not charts.
      .filter((canvas) => !canvas.closest('.monaco-editor, .monaco-diff-editor'))
      .map((canvas) => canvas.closest('[role="img"]'))
      .filter((image) => {
        if (!image?.getAttribute('aria-label')) return true;
        const described = document.getElementById(image.getAttribute('aria-describedby') ?? '');
        return described?.tagName !== 'CAPTION';
      })
      .map((image) => image?.outerHTML.slice(0, 120) ?? 'a canvas outside any image'),
  );
}

/** What the keyboard's focus is on: its name and whether it shows a ring; null on none (past the page's end). */
type Stop = { name: string; visible: boolean } | null;

/** The page's record of each Tab press, kept from before the first press to after the last. */
interface FocusLog {
  stops: Stop[];
  read: () => Stop;
  end: () => void;
}

/**
 * Tabs through the first `count` stops of the page and lists those that show no focus ring.
 * The page reads each stop itself when the next Tab goes down (and the last one after the
 * last press), so a stop costs one round trip to the browser, not two.
 */
async function unfocusable(page: Page, count: number): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    const read = (): Stop => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      // Monaco's hidden text area draws its own cursor; the editor marks focus itself.
      if (element.closest('.monaco-editor')) return { name: 'editor', visible: true };
      const style = getComputedStyle(element);
      const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
      const shadow = style.boxShadow !== 'none';
      const name = `${element.tagName.toLowerCase()} "${(element.textContent || element.getAttribute('aria-label') || '').trim().slice(0, 40)}"`;
      return { name, visible: ring || shadow };
    };
    const stops: Stop[] = [];
    let pressed = 0;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Tab') return;
      // Before this press: the stop the previous one reached.
      if (pressed++ > 0) stops.push(read());
      // Past the page's end the focus stays out, as when the walk stopped pressing there.
      if (stops.includes(null)) event.preventDefault();
    };
    addEventListener('keydown', onKey, { capture: true });
    const log: FocusLog = { stops, read, end: () => removeEventListener('keydown', onKey, { capture: true }) };
    (window as unknown as { focusLog: FocusLog }).focusLog = log;
  });
  for (let i = 0; i < count; i++) await page.keyboard.press('Tab');
  const stops = await page.evaluate(() => {
    const log = (window as unknown as { focusLog: FocusLog }).focusLog;
    log.end();
    return [...log.stops, log.read()];
  });
  const missing: string[] = [];
  for (const stop of stops) {
    if (stop === null) break;
    if (!stop.visible) missing.push(stop.name);
  }
  return missing;
}

type Scheme = 'light' | 'dark';
const SCHEMES: Scheme[] = ['light', 'dark'];

/** What the one walk found, per colour scheme. */
interface Walk {
  seen: Set<string>;
  /** The pages each tab opened, in its order. */
  visited: string[][];
  findings: Record<Scheme, Finding[]>;
  charts: string[];
  noRing: Record<Scheme, string[]>;
  errors: string[];
  /** Pages whose markup was the same in dark as in light, checked there by the colour rules. */
  colourOnly: number;
  /** Pages whose markup changed with the scheme, checked there by every rule. */
  allRulesInDark: string[];
}

/**
 * A digest of the page's markup without what a colour scheme changes in it: colour
 * values, and the code editor's theme and token colour classes (Monaco's `vs` or
 * `vs-dark`, `mtk17`). Pages the same in both schemes this way differ only in colours.
 * Taken in the page (SHA-256), so only the digest, not the markup, comes back.
 */
function markupBesideColours(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const markup = document.body.outerHTML
      .replace(/#[0-9a-fA-F]{3,8}\b|rgba?\([^)]*\)/g, 'colour')
      .replace(/\b(vs-dark|vs|hc-black|hc-light)\b/g, 'theme')
      .replace(/\bmtk\d+\b/g, 'mtk');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(markup));
    return `${markup.length}:${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  });
}

/** After the system's scheme changes: the app follows it on the next frames (src/app/ui/nav/theme.svelte.ts). */
async function useScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((dark) => matchMedia('(prefers-color-scheme: dark)').matches === dark, scheme === 'dark');
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Tabs that walk at once, taking pages from one queue: a reader with two tabs open, twice as fast. */
const TABS = 2;

/**
 * One walk over every page the app links to: each page opened once and checked in light,
 * then in dark (the app follows the system's scheme as it changes, as a reader's would).
 */
async function walk(browser: Browser, shareRoute: string): Promise<Walk> {
  const queue = ['#/', shareRoute];
  const result: Walk = { seen: new Set(queue), visited: [], findings: { light: [], dark: [] }, charts: [], noRing: { light: [], dark: [] }, errors: [], colourOnly: 0, allRulesInDark: [] };
  const tabbed = new Set<string>();
  let opened = 0;
  let busy = 0;

  async function check(page: Page, route: string): Promise<void> {
    await useScheme(page, 'light');
    await page.evaluate((hash) => (location.hash = hash), route);
    await settle(page);
    result.charts.push(...(await unlinkedCharts(page)).map((chart) => `${route}: ${chart}`));
    // Focus: the first stops of every kind of page ("#/stage/N/code"), once each, in each scheme.
    const kind = route.replace(/\d+/g, 'N').replace(/^#\/share\/.*/, '#/share');
    const firstOfKind = !tabbed.has(kind);
    tabbed.add(kind);
    // Every rule in light; in dark only the colour rules, when the markup is the same as in
    // light but for its colours (the scheme changes colours, not elements): the others
    // would find the same again.
    let lightMarkup = '';
    for (const scheme of SCHEMES) {
      await useScheme(page, scheme);
      const markup = await markupBesideColours(page);
      const rules = scheme === 'dark' && markup === lightMarkup ? COLOUR_RULES : undefined;
      lightMarkup = markup;
      if (rules) result.colourOnly++;
      else if (scheme === 'dark') result.allRulesInDark.push(route);
      result.findings[scheme].push(...(await axeFindings(page, route, undefined, rules)));
      if (firstOfKind) result.noRing[scheme].push(...(await unfocusable(page, 25)).map((name) => `${route}: ${name}`));
    }
    for (const next of await linkedRoutes(page)) {
      if (!result.seen.has(next)) {
        result.seen.add(next);
        queue.push(next);
      }
    }
  }

  async function tab(): Promise<void> {
    const { page, errors } = await openApp(browser, '/#/', { colorScheme: 'light', beforeLoad: storeResultsScript() });
    const visited: string[] = [];
    result.visited.push(visited);
    // Until the queue is empty and no other tab can add to it.
    while ((queue.length > 0 || busy > 0) && opened < MAX_PAGES) {
      const route = queue.shift();
      if (route === undefined) {
        await page.waitForTimeout(50);
        continue;
      }
      busy++;
      opened++;
      visited.push(route);
      try {
        await check(page, route);
      } finally {
        busy--;
      }
    }
    result.errors.push(...errors);
    await page.context().close();
  }

  await Promise.all(Array.from({ length: TABS }, tab));
  return result;
}

describe('accessibility of every page', () => {
  let browser: Browser;
  let walked: Walk;
  beforeAll(async () => {
    browser = await launchBrowser();
    walked = await walk(browser, `#/share/${await encodeSharePayload(fullResults('Ana’s laptop'))}`);
  }, 900_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('reaches every kind of page, with no page or console error on the whole walk', () => {
    // The crawl reached the story, the code, the bench, the results and a shared set.
    for (const expected of ['#/stage/0', '#/stage/1/code', '#/measure', '#/bench', '#/results', '#/compare']) {
      expect([...walked.seen], expected).toContain(expected);
    }
    // A code view came after a playground, so the errors below cover code shown while
    // TypeScript's service runs.
    const codeAfterPlayground = walked.visited.some((visited) => {
      const playground = visited.findIndex((route) => route.startsWith('#/playground/'));
      return playground >= 0 && visited.slice(playground).some((route) => /^#\/stage\/\d+\/code$/.test(route));
    });
    expect(codeAfterPlayground).toBe(true);
    expect(walked.charts).toEqual([]);
    expect(walked.errors).toEqual([]);
  });

  for (const scheme of SCHEMES) {
    it(`has no serious or critical axe violation on any page, charts named and linked, focus visible (${scheme})`, () => {
      const findings = walked.findings[scheme];
      const colourOnly =
        scheme === 'dark' ? ` (${walked.colourOnly} with the same markup as in light, by the colour rules; every rule on ${walked.allRulesInDark.map((route) => route.slice(0, 24)).join(' ') || 'none'})` : '';
      console.log(`axe (${scheme}): ${walked.visited.flat().length} pages${colourOnly}, ${findings.length} serious or critical`);
      expect(findings.map((f) => `${f.route} ${f.impact} ${f.id}: ${f.help} at ${f.targets.join(', ')}`)).toEqual([]);
      expect(walked.noRing[scheme]).toEqual([]);
    });
  }
});
