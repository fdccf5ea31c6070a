// The diff reads on every stage's main file, in light and dark: every token on a
// changed line keeps WCAG AA contrast (4.5:1) against the tints the diff paints under
// it, measured from the colours Chromium computes; and the diff opens on a change to
// the code, not on the rewritten header comment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { STAGES } from '../../steps/index.ts';
import { launchBrowser, openApp } from './harness.ts';

interface Seen {
  /** The lowest contrast of any token on a changed line, with what it was. */
  worst: { ratio: number; text: string; colour: string; background: string } | null;
  /** Text of the changed lines on screen. */
  changedLines: string[];
}

/** Measures the diff on screen: the changed lines' text and their tokens' contrast over the painted tints. */
function measureDiff(page: Page): Promise<Seen> {
  return page.evaluate(() => {
    const parse = (css: string): number[] => (css.match(/[\d.]+/g) ?? []).map(Number);
    // Paints an rgba colour over an opaque one, as the screen does.
    const over = (top: number[], bottom: number[]) => {
      const alpha = top[3] ?? 1;
      return [0, 1, 2].map((i) => top[i] * alpha + bottom[i] * (1 - alpha));
    };
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a: number[], b: number[]) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    const hex = (rgb: number[]) => '#' + rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
    const seen: Seen = { worst: null, changedLines: [] };
    for (const side of document.querySelectorAll<HTMLElement>('.monaco-diff-editor .editor.original, .monaco-diff-editor .editor.modified')) {
      const box = side.querySelector('.monaco-scrollable-element')!.getBoundingClientRect();
      const editorBackground = parse(getComputedStyle(side.querySelector('.monaco-editor-background') ?? side).backgroundColor);
      // The tints, bottom to top: whole changed lines, then changed characters.
      const tints = [...side.querySelectorAll<HTMLElement>('.line-insert, .line-delete, .char-insert, .char-delete')]
        .sort((a, b) => Number(a.className.includes('char')) - Number(b.className.includes('char')))
        .map((element) => ({ rect: element.getBoundingClientRect(), colour: parse(getComputedStyle(element).backgroundColor), line: element.className.includes('line') }));
      for (const line of side.querySelectorAll<HTMLElement>('.view-lines .view-line')) {
        const lineBox = line.getBoundingClientRect();
        if (lineBox.bottom < box.top || lineBox.top > box.bottom) continue;
        const middle = (lineBox.top + lineBox.bottom) / 2;
        if (!tints.some((tint) => tint.line && tint.rect.top <= middle && tint.rect.bottom >= middle)) continue;
        seen.changedLines.push((line.textContent ?? '').replace(/\u00a0/g, ' '));
        for (const token of line.querySelectorAll<HTMLElement>('span span')) {
          if (!token.textContent?.trim()) continue;
          const colour = parse(getComputedStyle(token).color);
          // A wrapped token has one box per screen row; each row has its own tints.
          for (const rect of token.getClientRects()) {
            const y = (rect.top + rect.bottom) / 2;
            const under = tints.filter((t) => t.rect.top < y && t.rect.bottom > y && t.rect.left < rect.right - 1 && t.rect.right > rect.left + 1);
            // Where the tints under the token begin, it is painted with every tint covering that spot.
            const spots = [rect.left + 1, ...under.map((t) => t.rect.left + 1)].filter((x) => x >= rect.left && x < rect.right);
            for (const x of spots) {
              let background = editorBackground.slice(0, 3);
              for (const tint of under) if (tint.rect.left <= x && tint.rect.right > x) background = over(tint.colour, background);
              const ratio = contrast(colour.slice(0, 3), background);
              if (!seen.worst || ratio < seen.worst.ratio) {
                seen.worst = { ratio, text: token.textContent!, colour: hex(colour), background: hex(background) };
              }
            }
          }
        }
      }
    }
    return seen;
  });
}

const isComment = (line: string) => line.trim() === '' || /^\s*(\/\/|\/\*|\*|;;)/.test(line);

describe('diffs you can read', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`opens every stage's main file on a code change, every token on a changed line at 4.5:1 or more (${scheme})`, async () => {
      const opened = await openApp(browser, '/#/stage/1/code', { colorScheme: scheme });
      const { page } = opened;
      const report: string[] = [];
      for (const stage of STAGES.slice(1)) {
        await page.evaluate((index) => (location.hash = `#/stage/${index}/code`), stage.index);
        await expect.poll(() => page.locator('main h1').textContent()).toBe(stage.title);
        // The diff is computed in Monaco's worker; the change list follows it.
        await expect.poll(() => page.getByTestId('hunk-nav').textContent(), { timeout: 30_000 }).toMatch(/Change 1 of \d+|No change to the code/);
        const nav = (await page.getByTestId('hunk-nav').textContent()) ?? '';
        // A file rewritten whole (stage 11's blake3.ts) takes Monaco longer to tint than the list takes to appear.
        await expect
          .poll(async () => (await measureDiff(page)).changedLines.length, { message: `stage ${stage.index}: changes on screen`, timeout: 15_000 })
          .toBeGreaterThan(0);
        const seen = await measureDiff(page);
        if (!nav.includes('No change to the code')) {
          expect(seen.changedLines.some((line) => !isComment(line)), `stage ${stage.index} opens on code, saw:\n${seen.changedLines.join('\n')}`).toBe(true);
        }
        expect(seen.worst!.ratio, `stage ${stage.index}: ${JSON.stringify(seen.worst)}`).toBeGreaterThanOrEqual(4.5);
        report.push(`stage ${stage.index}: lowest ${seen.worst!.ratio.toFixed(2)}:1 ("${seen.worst!.text}" ${seen.worst!.colour} on ${seen.worst!.background})`);
      }
      console.log(`diff contrast, ${scheme}:\n${report.join('\n')}`);
      expect(opened.errors).toEqual([]);
    });
  }

  it('steps between code changes, and stops at comment-only ones on request', async () => {
    const opened = await openApp(browser, '/#/stage/9/code');
    const { page } = opened;
    const nav = page.getByTestId('hunk-nav');
    await expect.poll(() => nav.textContent(), { timeout: 30_000 }).toMatch(/Change 1 of \d+/);
    const codeStops = Number(/of (\d+)/.exec((await nav.textContent())!)![1]);
    await nav.getByRole('button', { name: /Next change/ }).click();
    await expect.poll(() => nav.textContent()).toMatch(/Change 2 of/);
    await page.getByTestId('include-comments').check();
    await expect.poll(() => nav.textContent()).toMatch(/Change 1 of \d+/);
    const allStops = Number(/of (\d+)/.exec((await nav.textContent())!)![1]);
    expect(allStops).toBeGreaterThan(codeStops);
    // Every stage rewrites its header: with comments included, the diff starts there.
    const seen = await measureDiff(page);
    expect(seen.changedLines.some(isComment)).toBe(true);
    expect(opened.errors).toEqual([]);
  });
});
