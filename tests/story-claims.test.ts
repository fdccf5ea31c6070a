// Claims the lesson's text makes about tools and figures, held against the tools' real
// behaviour and the stored evidence, so a sentence that was once corrected cannot come
// back wrong: which Go flag reports refused inlining, which stages follow the article,
// and what the marked row of V8's table shows.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import type { StageProfile, StoredProfiles } from '../src/core/profile/profile.ts';
import { STORIES } from '../src/app/story/narrative.ts';
import { INTRO } from '../src/app/story/intro-prose.ts';
import { evidenceRows, hotFunction, whyText, WHY_FIGURE, type V8Evidence } from '../src/core/evidence/v8-evidence.ts';

/** A stage's stored profile at 64 KiB, as the page reads it (data/profiles/, npm run gen). */
function storedProfile64(id: string): StageProfile | undefined {
  const stored = JSON.parse(readFileSync(new URL(`../data/profiles/${id}.json`, import.meta.url), 'utf8')) as StoredProfiles;
  return stored.profiles.find((p) => p.inputBytes === 64 * 1024);
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every .ts and .svelte file under src/ and the lesson's Markdown under content/, with its text. */
function sources(dir = ''): { path: string; text: string }[] {
  if (dir === '') return [...sources('src'), ...sources('content')];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|svelte|md)$/.test(entry.name) ? [{ path, text: readFileSync(join(ROOT, path), 'utf8') }] : [];
  });
}

/** Sentences, or parts of them between semicolons. */
const clauses = (text: string) => text.split(/(?<=[.!?])\s+|;\s*/);

const storyTexts = STORIES.flatMap((story) => [
  ...[story.change, story.why, story.tried, story.cost, story.caution].flatMap((part) => (part ? [part.lead, part.more] : [])),
  ...(story.go ?? []).map((note) => note.text),
]);

const evidence: V8Evidence[] = await Promise.all(
  STAGES.map(async (stage) => ((await import(`../data/v8/${stage.id}.ts`)) as { default: V8Evidence }).default),
);

describe('what the text says the Go compiler reports', () => {
  it('names -m=2 wherever it says the compiler tells what it refused to inline (-m alone prints only what it inlined)', () => {
    const wrong: string[] = [];
    let claims = 0;
    for (const { path, text } of sources()) {
      for (const clause of clauses(text)) {
        if (!/gcflags=-m\b/.test(clause) || !/refus|cannot inline/i.test(clause)) continue;
        claims++;
        if (!clause.includes('-m=2')) wrong.push(`${path}: ${clause.trim()}`);
      }
    }
    expect(claims, 'the Go inlining note still says how to see refused inlining').toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });
});

describe('which stages the text says retell the article', () => {
  const pastArticle = new Set(STORIES.flatMap((story, i) => (story.pastArticle ? [i] : [])));
  // The front page's words (content/intro.md), as the page shows them.
  const intro = Object.values(INTRO).flatMap((value) => (typeof value === 'string' ? [value] : Array.isArray(value) ? value : [value.heading, ...value.paragraphs, ...value.items]));

  it('never says every stage makes the article’s change: the stages past its end have no article step', () => {
    expect(pastArticle.size).toBeGreaterThan(0);
    const claims = [...storyTexts, ...intro].flatMap(clauses).filter((c) => /change the article made/.test(c));
    expect(claims.length).toBeGreaterThan(0);
    for (const claim of claims) {
      expect(claim, 'a claim over every stage').not.toMatch(/\bevery (later )?stage\b|\ball (the )?stages\b/i);
      const range = /\bstages (\d+) to (\d+)\b/i.exec(claim);
      expect(range, `names the stages it covers: ${claim}`).not.toBeNull();
      for (let stage = Number(range![1]); stage <= Number(range![2]); stage++) {
        expect(pastArticle.has(stage), `stage ${stage} is past the article: ${claim}`).toBe(false);
      }
    }
  });
});

describe('the figure marked as backing each stage’s why', () => {
  it('reads differently for the stage before and this one, unless the point is that it does not move', () => {
    for (const stage of STAGES.slice(1)) {
      const why = WHY_FIGURE[stage.index];
      if (!why.row) continue;
      const hot = hotFunction(storedProfile64(stage.id));
      const row = evidenceRows(evidence[stage.index], evidence[stage.index - 1], hot).find((r) => r.id === why.row);
      expect(row, `${stage.id}: the row it marks is in the table`).toBeDefined();
      if (why.same) expect(row!.now, stage.id).toBe(row!.then);
      else expect(row!.now, `${stage.id}: ${row!.label}`).not.toBe(row!.then);
    }
  });

  it('stage 8: the byte reader is compiled in stage 7 only, and the sentence names it', () => {
    const rows = evidenceRows(evidence[8], evidence[7]);
    expect(rows.find((r) => r.id === 'only')?.then).toContain('readLittleEndianWordsFull');
    expect(whyText(WHY_FIGURE[8], rows)).toContain('`readLittleEndianWordsFull`');
  });

  it('says which of bytecode and machine code grows wherever it marks the hot function’s size', () => {
    for (const [index, why] of WHY_FIGURE.entries()) {
      if (why.row !== 'kernel') continue;
      expect(why.says, STAGES[index].id).toMatch(/bytecode/);
      expect(why.says, STAGES[index].id).toMatch(/machine code/);
    }
  });

  it('stage 4: compress’s bytecode grows almost fourfold while its machine code keeps its size, as the sentence says', () => {
    const [before, now] = [evidence[3].functions[0], evidence[4].functions[0]];
    expect([before.name, now.name]).toEqual(['compress', 'compress']);
    const growth = now.bytecodeBytes / before.bytecodeBytes;
    expect(growth).toBeGreaterThan(3.5);
    expect(growth).toBeLessThan(4);
    expect(Math.abs(now.machineCodeBytes! / before.machineCodeBytes! - 1)).toBeLessThan(0.05);
    expect(WHY_FIGURE[4].says).toMatch(/bytecode of `compress` grows almost fourfold while its machine code stays the same size/);
  });
});
