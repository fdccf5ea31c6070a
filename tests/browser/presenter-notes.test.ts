// Speaker notes in real Chromium: N shows the slide's notes under it and hides them again;
// the notes window (a second page of the same origin, ?notes) follows the slides as they
// step, shows the next slide and a running timer, and its arrow steps the slides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { baseURL, launchBrowser, openApp, picture } from './harness.ts';

/**
 * How far what the slide shows reaches down into the notes under it, in pixels (0 or less:
 * the notes cover nothing of it): the lowest bottom of anything visible in `main`, less
 * the top of the notes. The stepper's corner arrows, fixed below the notes, are not the slide.
 */
const coveredByNotes = (page: Page) =>
  page.evaluate(() => {
    const notes = document.querySelector('[data-testid="speaker-notes"]')!.getBoundingClientRect().top;
    const fixed = (element: Element | null): boolean =>
      element !== null && element.tagName !== 'MAIN' && (getComputedStyle(element).position === 'fixed' || fixed(element.parentElement));
    let lowest = 0;
    for (const element of document.querySelectorAll('main *')) {
      const box = element.getBoundingClientRect();
      if (box.height > 1 && element.checkVisibility({ visibilityProperty: true }) && !fixed(element)) lowest = Math.max(lowest, box.bottom);
    }
    return Math.ceil(lowest - notes);
  });

describe('speaker notes', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('N toggles the notes, and the notes window follows the slides', async () => {
    const opened = await openApp(browser, '/?present#/stage/3');
    const { page } = opened;
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => page.locator('main h1').textContent()).toBe(STAGES[3].title);
    const panel = page.getByTestId('speaker-notes');
    expect(await panel.count()).toBe(0);
    const fit = () => page.evaluate(() => document.documentElement.style.getPropertyValue('--fit'));
    const fitAlone = await fit();
    await page.keyboard.press('n');
    await expect.poll(() => panel.innerText()).toMatch(/Stage 3: inline the round[\s\S]*guess the speedup/);
    // The slide makes room for its notes: they never cover it, and it never scrolls.
    await expect.poll(() => coveredByNotes(page), { timeout: 5000 }).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollHeight - innerHeight)).toBeLessThanOrEqual(0);
    await picture(page, 'slide-1920-notes');
    // Hidden again, the slide has the whole screen back.
    await page.keyboard.press('n');
    await expect.poll(fit).toBe(fitAlone);
    await page.keyboard.press('n');
    await expect.poll(() => coveredByNotes(page), { timeout: 5000 }).toBeLessThanOrEqual(0);

    // The notes window: the same origin, so it hears the slides.
    const notes = await page.context().newPage();
    await notes.goto(new URL('/?notes', baseURL()).href);
    const where = notes.getByTestId('notes-slide');
    await expect.poll(() => where.textContent()).toMatch(/^Stage 3: Inline round/);
    await expect.poll(() => notes.getByTestId('notes-window').innerText()).toMatch(/guess the speedup/);
    // The next slide, previewed: stage 3's second part, by its heading.
    const second = (await page.locator('main [data-slide]').nth(1).locator('h1, h2, h3').first().textContent())!.trim();
    await expect.poll(() => notes.getByTestId('notes-next').innerText()).toMatch(new RegExp(`^Next: Stage 3: .*, part 2 of \\d+\\s+${second.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const timer = await notes.getByTestId('notes-timer').textContent();
    expect(timer).toMatch(/^0:0\d$/);
    await expect.poll(() => notes.getByTestId('notes-timer').textContent(), { timeout: 4000 }).not.toBe(timer);

    // Stepping the slides moves the notes: through stage 3's parts, on to stage 4.
    for (let press = 0; press < 6 && !/^Stage 4/.test((await where.textContent()) ?? ''); press++) {
      const before = await where.textContent();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => where.textContent()).not.toBe(before);
    }
    await expect.poll(() => where.textContent()).toMatch(/^Stage 4: State in local variables/);
    await expect.poll(() => panel.innerText()).toMatch(/Stage 4: state in local variables/);
    await picture(notes, 'notes-window');

    // The notes window's arrow steps the slides back.
    await notes.getByRole('button', { name: 'Previous slide' }).click();
    await expect.poll(() => page.locator('main h1').textContent()).toBe(STAGES[3].title);
    await expect.poll(() => where.textContent()).toMatch(/^Stage 3/);
    // On stage 3's last part, the next slide is stage 4's page: its title and technique.
    const nextSlide = async () => (await notes.getByTestId('notes-next').innerText()).replace(/\n+/g, '\n');
    await expect.poll(nextSlide).toBe(`Next: Stage 4: ${STAGES[4].title}\n${STAGES[4].title}\n${STAGES[4].technique}`);

    await page.keyboard.press('n');
    await expect.poll(() => panel.count()).toBe(0);
    expect(opened.errors).toEqual([]);
    expect(opened.foreignRequests).toEqual([]);
  });

  it('says so when no slides are open to follow', async () => {
    const { page, errors } = await openApp(browser, '/?notes');
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Waiting for the slides/);
    expect(errors).toEqual([]);
  });
});
