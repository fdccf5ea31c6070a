// Which changes of a diff touch code and which only comments. Every stage rewrites its
// header comment, so a diff that opens on its first change shows prose, not code; the
// code view opens on the first change that touches code and steps between those, and
// comment-only changes are one click away.

/** A changed region as Monaco reports it: 1-based inclusive lines, end 0 when that side has none. */
export interface LineChange {
  originalStartLineNumber: number;
  originalEndLineNumber: number;
  modifiedStartLineNumber: number;
  modifiedEndLineNumber: number;
}

export interface Hunk {
  /** The first line on the new side to show: the change itself, or where lines were removed. */
  line: number;
  commentOnly: boolean;
}

// `//`, `/*`, ` * ` and `*/` lines of TypeScript and Go; `;;` and `(; ;)` of WAT.
const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|;;|\(;|;\))/;
// Every Go stage is a package of its own, so every Go diff renames it: not a change to the code.
const GO_PACKAGE_CLAUSE = /^package \w+$/;

/** A blank line, one that is entirely a comment (a comment after code counts as code), or Go's package clause. */
export function isCommentOrBlank(line: string): boolean {
  return line.trim() === '' || COMMENT_LINE.test(line) || GO_PACKAGE_CLAUSE.test(line);
}

function onlyComments(lines: string[], start: number, end: number): boolean {
  if (end === 0) return true; // nothing on this side
  return lines.slice(start - 1, end).every(isCommentOrBlank);
}

/** Each change with where it starts on the new side and whether it is comments (and blank lines) only. */
export function classifyHunks(original: string, modified: string, changes: readonly LineChange[]): Hunk[] {
  const before = original.split('\n');
  const after = modified.split('\n');
  return changes.map((change) => ({
    line: Math.max(1, change.modifiedStartLineNumber),
    commentOnly:
      onlyComments(before, change.originalStartLineNumber, change.originalEndLineNumber) &&
      onlyComments(after, change.modifiedStartLineNumber, change.modifiedEndLineNumber),
  }));
}
