// Reading the results views from the browser tests: table cells and chart pixels.
import type { Page } from 'playwright-core';

/** A median with its interval, as the tables print it: "1,024 ± 2%", "57.3 ± ∞", maybe with footnote marks. */
export const MEDIAN_CELL = /^[\d,.]+ ± (\d+%|∞|<1%)[¹²³⁴⁵⁶⁷⁸⁹⁰]*$/;

/** How many pixels of the first chart in `scope` have been painted (0 while it is blank or missing). */
export async function paintedPixels(page: Page, scope = '[data-testid="results-view"]'): Promise<number> {
  return page.evaluate((selector) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`${selector} canvas`);
    if (!canvas || canvas.width === 0 || canvas.height === 0) return 0;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
    return painted;
  }, scope);
}

/** Every cell text of the tables with these test ids, row by row: what a reader compares by eye. */
export async function tableTexts(page: Page, ids: string[]): Promise<Record<string, string[][]>> {
  const out: Record<string, string[][]> = {};
  for (const id of ids) {
    out[id] = await page.locator(`[data-testid="${id}"] tbody tr`).evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent!.trim())),
    );
  }
  return out;
}
