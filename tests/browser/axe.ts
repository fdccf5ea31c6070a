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

/**
 * The rules whose verdict can change with the colours alone: run again after a change of
 * colour scheme on the same markup, they are all the others would find again.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** The findings on the whole page, or only inside the elements `include` selects; all rules, or only `rules`. */
export async function axeFindings(page: Page, route: string, include?: string[], rules?: string[]): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async ([include, rules]) => {
    const options = rules ? { resultTypes: ['violations'], runOnly: { type: 'rule', values: rules } } : { resultTypes: ['violations'] };
    // @ts-expect-error axe is injected above
    const result = await window.axe.run(include ? { include } : document, options);
    return result.violations.map((v: { id: string; impact: string; help: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  }, [include, rules] as const);
  return (violations as Omit<Finding, 'route'>[]).filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ route, ...v }));
}
