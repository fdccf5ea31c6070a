import { describe, expect, it } from 'vitest';
import { changedLines, describeChanges, referenceChanges, whereToLook } from '../src/core/exercise/hints.ts';
import type { ExerciseVerdict } from '../src/core/exercise/goal.ts';

describe('computed hints', () => {
  it('counts the lines a change adds and removes', () => {
    expect(changedLines('a\nb\nc', 'a\nB\nc\nd')).toEqual({ added: 2, removed: 1 });
    expect(changedLines('same', 'same')).toEqual({ added: 0, removed: 0 });
  });

  it('names only the files the reference changes, never their content', () => {
    const changes = referenceChanges({ 'blake3.ts': 'x\ny', 'util.ts': 'u' }, { 'blake3.ts': 'x\nz', 'util.ts': 'u' });
    expect(changes).toEqual([{ name: 'blake3.ts', added: 1, removed: 1 }]);
    const text = describeChanges(changes);
    expect(text).toContain('blake3.ts (1 lines added, 1 removed)');
    expect(text).not.toContain('z');
  });

  it('points at the size with the largest gap to the reference', () => {
    const at = (size: number, ratio: number) => ({ size, draftVsReference: { ratio } }) as ExerciseVerdict['sizes'][number];
    const verdict = { status: 'short', sizes: [at(1024, 0.9), at(65536, 0.5)] } as ExerciseVerdict;
    expect(whereToLook(verdict)).toContain('largest at 64 KiB: the reference is 2.00x as fast');
    expect(whereToLook(null)).toContain('Measure a draft first');
  });
});
