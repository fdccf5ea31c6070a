// Telling comment-only changes from changes to the code, on the shapes the stages have:
// line comments, JSDoc blocks, WAT comments, blank lines, code with a trailing comment,
// and the package clause every Go stage renames.
import { describe, expect, it } from 'vitest';
import { classifyHunks, isCommentOrBlank } from '../src/app/ui/code/hunks.ts';

describe('comment-only changes', () => {
  it('counts comment lines and blank lines as prose, code with a trailing comment as code', () => {
    for (const line of ['// Stage 9', '  /** The chaining value. */', '   * more', '   */', ';; i32x4.add', '', '   ']) {
      expect(isCommentOrBlank(line), line).toBe(true);
    }
    for (const line of ['const x = 1; // one', 'return out;', '(i32.add (local.get 0))', 'a * b']) {
      expect(isCommentOrBlank(line), line).toBe(false);
    }
  });

  it("calls a Go stage's renamed package clause prose, and a line that only starts with the word code", () => {
    const hunks = classifyHunks('package baseline\n\nfunc g() {}\n', 'package inlineg\n\nfunc g() {}\n', [
      { originalStartLineNumber: 1, originalEndLineNumber: 1, modifiedStartLineNumber: 1, modifiedEndLineNumber: 1 },
    ]);
    expect(hunks).toEqual([{ line: 1, commentOnly: true }]);
    expect(isCommentOrBlank('packages := 2')).toBe(false);
  });

  it('classifies each change by both of its sides, and places it on the new side', () => {
    const original = ['// old header', 'const a = 1;', 'const b = 2;', '// tail'].join('\n');
    const modified = ['// new header', '// second line', 'const a = 1;', 'const b = 3;'].join('\n');
    const hunks = classifyHunks(original, modified, [
      { originalStartLineNumber: 1, originalEndLineNumber: 1, modifiedStartLineNumber: 1, modifiedEndLineNumber: 2 },
      { originalStartLineNumber: 3, originalEndLineNumber: 3, modifiedStartLineNumber: 4, modifiedEndLineNumber: 4 },
      // "// tail" removed: nothing on the new side, after line 4.
      { originalStartLineNumber: 4, originalEndLineNumber: 4, modifiedStartLineNumber: 4, modifiedEndLineNumber: 0 },
    ]);
    expect(hunks).toEqual([
      { line: 1, commentOnly: true },
      { line: 4, commentOnly: false },
      { line: 4, commentOnly: true },
    ]);
  });

  it('calls a change that removes code a code change, even when it adds only comments', () => {
    const hunks = classifyHunks('x();\n', '// x() is gone\n', [
      { originalStartLineNumber: 1, originalEndLineNumber: 1, modifiedStartLineNumber: 1, modifiedEndLineNumber: 1 },
    ]);
    expect(hunks[0].commentOnly).toBe(false);
  });
});
