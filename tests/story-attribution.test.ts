// The story may credit the article only with what the article says: every figure and
// quoted phrase in a clause that names the article must be a registry speedup
// (steps/index.ts) or an entry of src/app/ui/lesson/article-facts.ts. Our own measurements go in
// clauses of their own, so a reader can always tell whose number it is.

import { describe, expect, it } from 'vitest';
import { ARTICLE_FACTS } from '../src/app/ui/lesson/article-facts.ts';
import { STORIES } from '../src/app/story/narrative.ts';
import type { StageStory } from '../src/app/ui/lesson/story-types.ts';
import { STAGES } from '../steps/index.ts';

const KNOWN_FIGURES = [
  ...STAGES.map((stage) => stage.articleSpeedup).filter((n): n is number => n !== null),
  ...ARTICLE_FACTS.map((fact) => fact.figure).filter((n): n is number => n !== null),
];
const KNOWN_QUOTES = ARTICLE_FACTS.flatMap((fact) => (fact.quote ? [fact.quote.toLowerCase()] : []));

/** A sentence, or a part of one between semicolons. Decimal points have no space after them. */
function clauses(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|;\s*/).filter((clause) => clause.trim() !== '');
}

/**
 * The figures of a clause: numbers that are not code, not a stage's number ("stages 2
 * and 3") and not an input size ("1 MiB"), which say where a figure applies, not what it is.
 */
function figures(clause: string): number[] {
  const text = clause
    .replace(/`[^`]*`/g, ' ')
    .replace(/\bstages? \d+(?:(?:, | and | or | to |–)\d+)*/gi, ' ')
    .replace(/\d+(?:\.\d+)? ?(?:KiB|MiB|GiB|B|bytes)\b(?!\/)/g, ' ');
  return [...text.matchAll(/(?<![\w.])\d[\d,]*(?:\.\d+)?/g)].map((match) => Number(match[0].replace(/,/g, '')));
}

function quotes(clause: string): string[] {
  return [...clause.matchAll(/[“"]([^”"]+)[”"]/g)].map((match) => match[1].toLowerCase());
}

/** What `clause` credits to the article that neither the registry nor the facts table holds. */
export function unsourced(clause: string): string[] {
  const found: string[] = [];
  for (const n of figures(clause)) if (!KNOWN_FIGURES.some((known) => Math.abs(known - n) < 1e-9)) found.push(String(n));
  for (const q of quotes(clause)) if (!KNOWN_QUOTES.includes(q)) found.push(`“${q}”`);
  return found;
}

/** Every clause of a story that speaks for the article. The article card speaks for it throughout. */
function attributed(story: StageStory): string[] {
  const prose = [story.change, story.why, story.tried, story.cost, story.caution, story.beyond]
    .flatMap((part) => (part ? [part.lead, part.more] : []))
    .concat(story.beyond?.steps ?? [])
    .concat((story.go ?? []).map((note) => note.text), story.elsewhere ?? []);
  // A stage past the end of the article has no article card.
  const card = story.article ? [story.article.headline, story.article.relativeTo, story.article.vsWasm ?? ''] : [];
  return [...prose.flatMap(clauses).filter((clause) => /\barticle/i.test(clause)), ...card.flatMap(clauses)];
}

describe('what the story attributes to the article', () => {
  it('is a figure of the registry or of the article facts table, or a phrase quoted there', () => {
    const problems = STORIES.flatMap((story, i) =>
      attributed(story).flatMap((clause) => unsourced(clause).map((what) => `stage ${i}: ${what} in "${clause}"`)),
    );
    expect(problems).toEqual([]);
  });

  it('finds a figure or a quote the article does not have, and lets the ones it has through', () => {
    expect(unsourced('The article measured about 12 s for 1 MiB on its machine.')).toEqual(['12']);
    expect(unsourced('The article calls the change “large”.')).toEqual(['“large”']);
    expect(unsourced('The article measured 425 → 435 MB/s for stages 6 and 7 at 64 KiB.')).toEqual([]);
    expect(unsourced('The article keeps the loop with `if (i != 6)`.')).toEqual([]);
  });

  it('gives every fact its section and something to check', () => {
    for (const fact of ARTICLE_FACTS) {
      expect(fact.section, fact.fact).toMatch(/^step \d+, /);
      expect(fact.figure !== null || fact.quote !== undefined, fact.fact).toBe(true);
    }
  });
});
