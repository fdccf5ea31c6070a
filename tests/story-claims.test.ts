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
import type { V8Evidence } from '../src/core/evidence/v8-evidence.ts';
import { evidenceRows, hotFunction, whyText } from '../src/core/evidence/v8-why.ts';
import { selfShare } from '../src/app/story/profile-figures.ts';
import { v8Evidence } from '../src/app/story/engine-evidence-data.ts';
import { enginesRun } from '../src/app/story/engine-figures.ts';
import { READER_STEP, fullLadderSize, stepFindings } from '../src/app/story/engine-findings.ts';
import { cellKey } from '../src/core/results/analysis/model.ts';
import { callShare } from '../src/app/story/native-figures.ts';
import { ARTICLE_FACTS } from '../src/app/ui/lesson/article-facts.ts';

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

const evidence: V8Evidence[] = STAGES.map((stage) => v8Evidence(stage.index));

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
      const why = STORIES[stage.index].v8Why;
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
    expect(whyText(STORIES[8].v8Why, rows)).toContain('`readLittleEndianWordsFull`');
  });

  it('says which of bytecode and machine code grows wherever it marks the hot function’s size', () => {
    for (const [index, { v8Why: why }] of STORIES.entries()) {
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
    expect(STORIES[4].v8Why.says).toMatch(/bytecode of `compress` grows almost fourfold while its machine code stays the same size/);
  });
});

describe('what the profile notes say of the stored profiles (64 KiB)', () => {
  const share = (index: number, ...names: string[]) => selfShare(index, names);

  it('stage 3: compress carries round’s work, and what the step saved shows in g', () => {
    expect(share(3, 'compress')).toBeGreaterThan(share(2, 'round', 'compress'));
    expect(share(3, 'g')).toBeLessThan(share(2, 'g'));
    expect(STORIES[3].profile.inlining?.says.more).toContain(`${share(3, 'g').toFixed(1)}% of the samples against ${share(2, 'g').toFixed(1)}%`);
  });

  it('stage 8: the copy is chunkChainingValue’s in stage 4 and hash’s from stage 5 on, and the view removes it', () => {
    for (const index of [5, 6, 7]) {
      expect(share(index, 'chunkChainingValue'), `stage ${index}`).toBeLessThan(share(4, 'chunkChainingValue') / 5);
      expect(share(index, 'hash'), `stage ${index}`).toBeGreaterThan(share(4, 'chunkChainingValue'));
    }
    expect(share(8, 'hash', 'hashInput')).toBeLessThan(share(7, 'hash') / 4);
    expect(STORIES[8].profile.note).toContain(`reached ${share(7, 'hash').toFixed(1)}% in stage 7`);
  });

  it('stage 5: the stored Node profiles have nothing in (program) for stage 4 or 5, as the note says', () => {
    expect(share(4, '(program)')).toBe(0);
    expect(share(5, '(program)')).toBe(0);
    expect(STORIES[5].profile.note).toMatch(/have none in `\(program\)` for stage 4 or 5/);
  });
});

describe('what the stories say of the engines run (data/engines/)', () => {
  const { models } = enginesRun();
  const ratios = (engine: string, from: string, to: string, sizes: number[]) =>
    sizes.map((size) => {
      const throughput = models.find((m) => m.runtime.id === engine)!.model.throughput;
      return throughput.get(cellKey(to, size))!.center / throughput.get(cellKey(from, size))!.center;
    });
  const [KiB, MiB] = [1024, 1024 * 1024];

  it('stage 5: removing the allocations was worth less than half of stage 4’s time, so they were not most of it', () => {
    expect(Math.max(...ratios('chromium', '04-state-locals', '05-no-copies', [96, 512, KiB, 32 * KiB, 64 * KiB, 256 * KiB, MiB]))).toBeLessThan(2);
  });

  it("stages 8 and measure: stage 8 fell short of the article's multiple of blake3-wasm from 1 KiB to 1 MiB in both engines, and the engines' ranges are apart", () => {
    const article = ARTICLE_FACTS.find((f) => f.id === 'stage8-vs-wasm')!.figure!;
    const range = (engine: string) => ratios(engine, 'blake3-wasm', '08-little-endian', [KiB, 32 * KiB, 64 * KiB, 256 * KiB, MiB]);
    for (const engine of ['chromium', 'firefox']) expect(Math.max(...range(engine)), engine).toBeLessThan(article);
    const [chromium, firefox] = [range('chromium'), range('firefox')];
    expect(Math.max(...chromium) < Math.min(...firefox) || Math.max(...firefox) < Math.min(...chromium), 'the two ranges do not overlap').toBe(true);
  });

  it('stage 9: it gained more over stage 8 than the article’s step, and fell short of its large-input ratio at 1 KiB', () => {
    expect(Math.min(...ratios('chromium', '08-little-endian', '09-simd-wasm', [64 * KiB, 256 * KiB, MiB]))).toBeGreaterThan(STAGES[9].articleSpeedup!);
    const [small] = ratios('chromium', 'blake3-wasm', '09-simd-wasm', [KiB]);
    expect(small).toBeLessThan(Math.min(...ratios('chromium', 'blake3-wasm', '09-simd-wasm', [64 * KiB, 256 * KiB, MiB])));
  });

  it('engines page: stage 1 pays in every engine where the steps are judged, by more than at one chunk', () => {
    const size = fullLadderSize(models)!;
    const reader = stepFindings(models, size).find((f) => f.contestant === READER_STEP)!;
    const small = stepFindings(models, KiB).find((f) => f.contestant === READER_STEP)!;
    expect(reader.verdict).toBe('every');
    reader.perRuntime.forEach((e, i) => expect(e.speedup!, e.runtime.id).toBeGreaterThan(small.perRuntime[i].speedup!));
  });

  it('engines page: stages 1, 4 and 9 paid in both engines, and no other step did', () => {
    const every = stepFindings(models, fullLadderSize(models)!).filter((f) => f.verdict === 'every').map((f) => f.contestant);
    expect(every).toEqual(['01-read-words-full', '04-state-locals', '09-simd-wasm']);
    const page = readFileSync(join(ROOT, 'content/engines.md'), 'utf8').replace(/\s+/g, ' ');
    expect(page).toContain('{every-count} steps paid in both engines: the one that removed work (stage 1), the state in registers (stage 4) and the vectors (stage 9)');
    // "Every engine rewards that" of stage 4, at one chunk too.
    expect(stepFindings(models, KiB).find((f) => f.contestant === '04-state-locals')?.verdict).toBe('every');
  });
});

describe('what stage 10 says of the gap to native code (data/native/)', () => {
  it('JavaScript’s share of a call is at most half the gap a block at 1 KiB, so most of it is the compression', () => {
    const { callPerBlock1k, gapPerBlock1k } = callShare();
    expect(callPerBlock1k).toBeGreaterThan(0);
    expect(callPerBlock1k).toBeLessThan(gapPerBlock1k / 2);
    expect(STORIES[10].pastArticle!.rust).toContain('Most of the difference is the compression itself');
  });
});

describe('what the V8 why sentences say of the stored traces (data/v8/)', () => {
  const mib = (index: number) => evidence[index].heap.mib;
  const kib = (index: number) => evidence[index].heap.kib;

  it('stage 3: a 1 MiB hash allocates less than stage 2’s, as its inlining note says', () => {
    expect(mib(3).bytesPerHash).toBeLessThan(mib(2).bytesPerHash);
    expect(STORIES[3].profile.inlining?.says.more).toMatch(/allocating less too/);
  });

  it('stage 4: the state array is gone from the heap (less allocated per MiB)', () => {
    expect(mib(4).bytesPerHash).toBeLessThan(mib(3).bytesPerHash);
  });

  it('stage 5: the collector no longer runs', () => {
    expect(mib(4).gcsPerHash).toBeGreaterThan(0);
    expect(mib(5).gcsPerHash).toBe(0);
  });

  it('stage 6: compress’s bytecode grows about six times, its machine code far less', () => {
    const [before, now] = [evidence[5].functions[0], evidence[6].functions[0]];
    expect([before.name, now.name]).toEqual(['compress', 'compress']);
    const bytecode = now.bytecodeBytes / before.bytecodeBytes;
    expect(bytecode).toBeGreaterThan(5);
    expect(bytecode).toBeLessThan(7);
    expect(now.machineCodeBytes! / before.machineCodeBytes!).toBeLessThan(bytecode / 3);
  });

  it('stage 7: at 1 MiB the saving is a far smaller share than at 1 KiB', () => {
    const drop = (h: (i: number) => { bytesPerHash: number }) => 1 - h(7).bytesPerHash / h(6).bytesPerHash;
    expect(drop(mib)).toBeLessThan(drop(kib) / 2);
  });

  it('stage 11: the why says the trace fixed the pool, and the page names both processors when they differ', () => {
    expect(STORIES[11].v8Why.says).toMatch(/^In the trace .*fixes the pool’s size/);
    expect(evidence[11].cpu === evidence[10].cpu || readFileSync(join(ROOT, 'src/app/story/EngineEvidence.svelte'), 'utf8').includes('was traced on another processor')).toBe(true);
  });
});

describe('what the text says the class board shows', () => {
  it('names the board’s view of each machine’s verdicts by the label the board gives it', () => {
    const label = /label: '([^']+)' \}/.exec(readFileSync(join(ROOT, 'src/app/class/Board.svelte'), 'utf8').split("id: 'verdicts'")[1] ?? '')?.[1];
    expect(label, 'the board has a view of the verdicts').toBeDefined();
    const named = sources().filter(({ path }) => path.startsWith('content')).flatMap(({ path, text }) => [...text.matchAll(/“([^”]*machine[^”]*tell[^”]*)”/g)].map((m) => `${path}: ${m[1]}`));
    expect(named.length).toBeGreaterThan(0);
    for (const claim of named) expect(claim.slice(claim.indexOf(': ') + 2), claim).toBe(label);
  });
});

describe('what the step answer says of the article', () => {
  it('stage 1: says the article gives no figure, not that it measured its headline’s words', async () => {
    const { fullResults } = await import('./fixtures/full-results.ts');
    const { stepAnswer } = await import('../src/app/story/step-answer.ts');
    const full = fullResults();
    const ids = ['00-reference', '01-read-words-full', 'blake3-wasm'];
    const runs = full.runs.filter((r) => ids.includes(r.contestant));
    const results = { ...full, contestants: full.contestants.filter((c) => ids.includes(c.id)), runs };
    const text = stepAnswer(results, 1, STORIES[1])!.text;
    expect(text).toMatch(/; the article gives no figure for this step\.$/);
    expect(text).not.toMatch(/measured No figure/);
  });
});
