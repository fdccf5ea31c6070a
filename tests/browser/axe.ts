// axe-core in a page of the browser tests: the serious and critical violations it finds,
// for the accessibility walk (accessibility.test.ts) and pages only a class server serves.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Finding {
  route: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The findings on the whole page, or only inside the elements `include` selects. */
export async function axeFindings(page: Page, route: string, include?: string[]): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async (include) => {
    // @ts-expect-error axe is injected above
    const result = await window.axe.run(include ? { include } : document, { resultTypes: ['violations'] });
    return result.violations.map((v: { id: string; impact: string; help: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  }, include);
  return (violations as Omit<Finding, 'route'>[]).filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ route, ...v }));
}
