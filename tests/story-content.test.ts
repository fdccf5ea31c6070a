import { describe, expect, it } from 'vitest';
import { layoutTree } from '../src/app/story/tree.ts';
import { familyWiseErrorRate } from '../src/app/story/multiple.ts';
import { STORIES } from '../src/app/story/narrative.ts';
import { inlineSegments } from '../src/app/ui/lesson/inline.ts';
import { stageFiles } from '../src/app/ui/code/sources.ts';
import { STAGES } from '../steps/index.ts';

describe('layoutTree', () => {
  it('one chunk is its own root', () => {
    const tree = layoutTree(1);
    expect(tree.nodes).toEqual([{ x: 0, level: 0, kind: 'chunk', root: true }]);
    expect(tree.parents).toBe(0);
  });

  it('puts the largest power of two of chunks on the left', () => {
    // 5 chunks: root(P(P(C0,C1),P(C2,C3)), C4), as the spec's tree rule says.
    const tree = layoutTree(5);
    const root = tree.nodes.find((node) => node.root)!;
    const [left, right] = root.children!.map((i) => tree.nodes[i]);
    expect(left).toMatchObject({ kind: 'parent', level: 2, x: 1.5 });
    expect(right).toMatchObject({ kind: 'chunk', x: 4 });
    expect(tree.height).toBe(3);
    expect(tree.parents).toBe(4);
  });

  it('builds a complete tree for a power of two', () => {
    const tree = layoutTree(8);
    expect(tree.height).toBe(3);
    expect(tree.nodes.filter((node) => node.kind === 'parent' && node.level === 1)).toHaveLength(4);
  });

  it('refuses a tree without chunks', () => {
    expect(() => layoutTree(0)).toThrow(RangeError);
    expect(() => layoutTree(2.5)).toThrow(RangeError);
  });
});

describe('familyWiseErrorRate', () => {
  it('family-wise error grows with the number of tests', () => {
    expect(familyWiseErrorRate(1, 0.05)).toBeCloseTo(0.05, 10);
    expect(familyWiseErrorRate(20, 0.05)).toBeCloseTo(0.6415, 4); // 1 - 0.95^20
  });
});

describe('stage stories', () => {
  it('tell one story per registered stage', () => {
    expect(STORIES).toHaveLength(STAGES.length);
  });

  it('have balanced `code` marks, so no backtick shows up on screen', () => {
    for (const story of STORIES) {
      const parts = [story.change, story.why, story.tried, story.cost, story.caution].filter((p) => p !== undefined);
      for (const text of parts.flatMap((p) => [p.lead, p.more]).concat((story.go ?? []).map((n) => n.text))) {
        expect(text.split('`').length % 2, text).toBe(1);
      }
    }
  });

  it('headline the article’s step with the registry’s speedup, typed there only', () => {
    STAGES.forEach((stage, i) => {
      if (stage.articleSpeedup !== null) expect(STORIES[i].article?.headline, stage.id).toBe(`${stage.articleSpeedup}×`);
    });
  });

  it('give a headline figure wherever the registry has no speedup', () => {
    STAGES.forEach((stage, i) => {
      if (stage.articleSpeedup === null && !STORIES[i].pastArticle) expect(STORIES[i].article?.headline, stage.id).toBeTruthy();
    });
  });

  it('have either the article figure or, past the article, what the Rust crate does', () => {
    STAGES.forEach((stage, i) => {
      const story = STORIES[i];
      expect(Boolean(story.article) !== Boolean(story.pastArticle), stage.id).toBe(true);
      if (story.pastArticle) {
        expect(stage.articleSpeedup, stage.id).toBeNull();
        expect(story.pastArticle.rust, stage.id).toMatch(/Rust/);
        // The large line says where the stage gains; native code's figure is kept apart, named.
        expect(story.pastArticle.headline, stage.id).not.toMatch(/\d\s*[GM]B\/s/);
        expect(story.pastArticle.native.figure, stage.id).toMatch(/^\d[\d.]* GB\/s$/);
      }
    });
  });
});

describe('inlineSegments', () => {
  it('splits `code` from text', () => {
    expect(inlineSegments('a `b` c')).toEqual([
      { code: false, text: 'a ' },
      { code: true, text: 'b' },
      { code: false, text: ' c' },
    ]);
  });
  it('leaves an unmatched backtick as text', () => {
    expect(inlineSegments('a ` b')).toEqual([{ code: false, text: 'a ` b' }]);
  });
});

describe('stageFiles', () => {
  it('pairs files by name with the stage before and lists dropped files', () => {
    const [s3, s4] = [STAGES[3], STAGES[4]];
    const files = stageFiles(s4, s3);
    expect(files[0]).toMatchObject({
      name: 'blake3.ts',
      path: 'steps/04-state-locals/blake3.ts',
      previousPath: 'steps/03-inline-round/blake3.ts',
    });
    expect(files.find((f) => f.name === 'compress.ts')).toMatchObject({ previousPath: undefined, generated: true });
    const back = stageFiles(s3, s4); // pretend order reversed: 4's extra files count as removed
    expect(back.filter((f) => f.path === undefined).map((f) => f.name)).toEqual(['compress.ts', 'gen.ts']);
  });

  it('adds the runtime WAT for the SIMD stages only, under the name the registry gives', () => {
    expect(stageFiles(STAGES[9], STAGES[8]).at(-1)).toMatchObject({ runtime: 'wat', name: 'compress4x.wat' });
    expect(stageFiles(STAGES[10], STAGES[9]).at(-1)).toMatchObject({ runtime: 'wat', name: 'modules.wat' });
    expect(stageFiles(STAGES[8], STAGES[7]).some((f) => f.runtime)).toBe(false);
  });
});
