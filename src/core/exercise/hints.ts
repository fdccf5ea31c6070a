// The hints an exercise computes rather than reads from its Markdown: where to look,
// from this attempt's verdict (level 2), and which files the reference changes and by
// how many lines, without their content (level 5).
import type { ExerciseVerdict } from './goal.ts';

/** Lines of `after` that are not in `before`, and lines of `before` gone from `after`, by the longest common subsequence. */
export function changedLines(before: string, after: string): { added: number; removed: number } {
  const a = before.split('\n');
  const b = after.split('\n');
  // One row of the LCS table at a time: stage files are a few hundred lines.
  let row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const next = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) next[j] = a[i - 1] === b[j - 1] ? row[j - 1] + 1 : Math.max(row[j], next[j - 1]);
    row = next;
  }
  const common = row[b.length];
  return { added: b.length - common, removed: a.length - common };
}

export interface FileChange {
  name: string;
  added: number;
  removed: number;
}

/** The files the reference changes, by name, with its line counts; files it leaves alone are left out. */
export function referenceChanges(start: Record<string, string>, reference: Record<string, string>): FileChange[] {
  const names = [...new Set([...Object.keys(start), ...Object.keys(reference)])];
  return names
    .map((name) => ({ name, ...changedLines(start[name] ?? '', reference[name] ?? '') }))
    .filter((c) => c.added + c.removed > 0);
}

export function describeChanges(changes: readonly FileChange[]): string {
  if (changes.length === 0) return 'The reference changes no file.';
  const parts = changes.map((c) => `${c.name} (${c.added} lines added, ${c.removed} removed)`);
  return `The reference changes ${changes.length === 1 ? 'one file' : `${changes.length} files`}: ${parts.join('; ')}. Look there first.`;
}

const size = (n: number) => (n >= 1024 * 1024 ? `${n / 1024 / 1024} MiB` : n >= 1024 ? `${n / 1024} KiB` : `${n} bytes`);

/** Where to look, from the last verdict: the size where the draft is furthest behind the reference. */
export function whereToLook(verdict: ExerciseVerdict | null): string {
  if (verdict === null) return 'Measure a draft first: this hint is computed from your own run (where the gap to the reference is largest).';
  const behind = [...verdict.sizes].sort((x, y) => x.draftVsReference.ratio - y.draftVsReference.ratio)[0];
  const ratio = behind.draftVsReference.ratio;
  if (ratio >= 1) return `Your draft is as fast as the reference or faster at every size (${ratio.toFixed(2)}x at ${size(behind.size)} at the least).`;
  const large = behind.size >= 65536;
  return (
    `The gap to the reference is largest at ${size(behind.size)}: the reference is ${(1 / ratio).toFixed(2)}x as fast as your draft there. ` +
    (large
      ? 'At large inputs nearly all the time is in compressing blocks, so look at the work done per block.'
      : 'At small inputs the work around each hash counts too, so look at what is made or copied per call as well as per block.')
  );
}
