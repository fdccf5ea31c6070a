// The file page's lines and checks (src/core/file/b3sum.ts) and its estimates
// (src/core/file/estimate.ts): b3sum's escaping both ways, every kind of bad line refused
// with its reason, checks by name, and stage 0 refused on a large file with a prefix offered.
import { describe, expect, it } from 'vitest';
import { b3sumLine, checkAgainst, escapeName, parseCheckText } from '../src/core/file/b3sum.ts';
import { estimatePlanMs, prefixBytes, PREFIX_TARGET_MS, REFUSE_OVER_MS, speedPoints } from '../src/core/file/estimate.ts';
import { formatRoughDuration } from '../src/core/format.ts';
import { planParts } from '../src/core/file/tree.ts';
import type { Results } from '../src/core/bench/results.ts';
import committed from '../data/engines/chromium-firefox-2026-11-27.json';

const HEX = 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262';
const OTHER = '17762fddd969a453925d65717ac3eea21320b66b54342fde15128d6caf21215f';
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe('b3sum lines', () => {
  it('are the digest, two spaces and the name; a backslash, newline or carriage return is escaped and the line starts with a backslash', () => {
    expect(b3sumLine(HEX, 'notes.txt')).toBe(`${HEX}  notes.txt`);
    expect(b3sumLine(HEX, 'a  b.txt')).toBe(`${HEX}  a  b.txt`);
    expect(b3sumLine(HEX, 'back\\slash')).toBe(`\\${HEX}  back\\\\slash`);
    expect(b3sumLine(HEX, 'two\nlines\r')).toBe(`\\${HEX}  two\\nlines\\r`);
    expect(escapeName('plain')).toEqual({ text: 'plain', escaped: false });
  });

  it('read back, escaped or not, tagged or not, blank lines skipped', () => {
    const text = [`${HEX}  notes.txt`, '', `\\${OTHER}  two\\nlines\\\\x`, `BLAKE3 (tagged.bin) = ${HEX}`, `${HEX.toUpperCase()}  upper.bin\r`].join('\n');
    const { lines, problems } = parseCheckText(text);
    expect(problems).toEqual([]);
    expect(lines).toEqual([
      { line: 1, hex: HEX, name: 'notes.txt' },
      { line: 3, hex: OTHER, name: 'two\nlines\\x' },
      { line: 4, hex: HEX, name: 'tagged.bin' },
      { line: 5, hex: HEX, name: 'upper.bin' },
    ]);
    // What the page prints, it reads back.
    for (const name of ['a', 'b\\c', 'd\ne', 'f\r\ng']) expect(parseCheckText(b3sumLine(HEX, name)).lines[0].name).toBe(name);
  });

  it('that are not b3sum lines are listed with the reason, and the good ones still read', () => {
    const { lines, problems } = parseCheckText([`${HEX}  ok.txt`, 'hello', `${HEX.slice(1)}  short.txt`, `\\${HEX}  bad\\qescape`, `${HEX}  `].join('\n'));
    expect(lines.map((l) => l.name)).toEqual(['ok.txt']);
    expect(problems.map((p) => [p.line, p.reason])).toEqual([
      [2, expect.stringMatching(/64 hex digits, two spaces and a file name/)],
      [3, expect.stringMatching(/not a BLAKE3 digest/)],
      [4, expect.stringMatching(/backslash/)],
      [5, expect.stringMatching(/names no file/)],
    ]);
  });

  it('are checked by name, or by the last part of their path: match, mismatch, or not hashed here', () => {
    const digests = new Map([['notes.txt', HEX], ['data.bin', OTHER]]);
    const [a, b, c, d] = parseCheckText([`${HEX}  notes.txt`, `${HEX}  data.bin`, `${OTHER}  backups/data.bin`, `${HEX}  missing.txt`].join('\n')).lines;
    expect(checkAgainst(a, digests)).toEqual({ verdict: 'match', file: 'notes.txt' });
    expect(checkAgainst(b, digests)).toEqual({ verdict: 'mismatch', file: 'data.bin' });
    expect(checkAgainst(c, digests)).toEqual({ verdict: 'match', file: 'data.bin' });
    expect(checkAgainst(d, digests)).toEqual({ verdict: 'not-hashed' });
  });
});

describe('estimates', () => {
  const run = committed as unknown as Results;
  const stage0 = speedPoints(run, '00-reference', 'chromium');
  const stage10 = speedPoints(run, '10-simd-one-block', 'chromium');

  it('come from the medians of a run, per size', () => {
    expect(stage10.map((p) => p.size)).toEqual(run.config.sizes);
    expect(stage10.every((p) => p.ns > 0)).toBe(true);
  });

  it('grow with the square of a piece for stage 0: hours on 1 GiB, refused, with a prefix of at most 20 s offered', () => {
    const ms = estimatePlanMs(planParts(GiB, 1), stage0, 1)!;
    expect(ms).toBeGreaterThan(60 * 60_000);
    expect(ms).toBeGreaterThan(REFUSE_OVER_MS);
    expect(formatRoughDuration(ms)).toMatch(/^about \d+ (h|days)$/);
    const prefix = prefixBytes([GiB], stage0, 1);
    expect(prefix).toBeGreaterThanOrEqual(64 * 1024);
    expect(estimatePlanMs(planParts(prefix, 1), stage0, 1)!).toBeLessThanOrEqual(PREFIX_TARGET_MS);
  });

  it('share the pieces between workers: stage 10 on two workers takes about half as long as on one', () => {
    const one = estimatePlanMs(planParts(GiB, 1), stage10, 1)!;
    const two = estimatePlanMs(planParts(GiB, 2), stage10, 2)!;
    expect(one).toBeLessThan(REFUSE_OVER_MS);
    expect(two / one).toBeGreaterThan(0.4);
    expect(two / one).toBeLessThan(0.6);
  });

  it('are absent without measurements, and said roughly', () => {
    expect(estimatePlanMs(planParts(MiB, 1), [], 1)).toBeUndefined();
    expect(formatRoughDuration(400)).toBe('under a second');
    expect(formatRoughDuration(42_300)).toBe('about 42 s');
    expect(formatRoughDuration(20 * 3_600_000)).toBe('about 20 h');
  });
});
