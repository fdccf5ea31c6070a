import { describe, expect, it } from 'vitest';
import { formatDuration, formatRoughDuration, formatRoughSize, formatSize } from '../src/core/units.ts';

describe('the one way the lab writes durations and sizes', () => {
  it('writes a duration as people say it, from microseconds to days', () => {
    const cases: [number, string][] = [
      [0.078, '78 µs'],
      [0.0025, '2.5 µs'],
      [2.26, '2.26 ms'],
      [21.4, '21 ms'],
      [850, '850 ms'],
      [1500, '1.5 s'],
      [2000, '2 s'],
      [12_000, '12 s'],
      [125_000, '2 min 5 s'],
      [180_000, '3 min'],
      [25 * 60_000, '25 min'],
      [20 * 3_600_000, '20 h'],
      [3 * 86_400_000, '3 days'],
    ];
    expect(cases.map(([ms]) => formatDuration(ms))).toEqual(cases.map(([, text]) => text));
  });

  it('writes an estimate in whole units, after "about"', () => {
    expect([400, 4_200, 42_300, 3 * 60_000, 20 * 3_600_000, 5 * 86_400_000].map(formatRoughDuration)).toEqual([
      'under a second',
      'about 4 s',
      'about 42 s',
      'about 3 min',
      'about 20 h',
      'about 5 days',
    ]);
  });

  it('writes a bench size exactly, and a file size in three digits', () => {
    expect([96, 1024, 1536, 1025, 65536, 1 << 20, 256 << 20].map(formatSize)).toEqual(['96 B', '1 KiB', '1.5 KiB', '1025 B', '64 KiB', '1 MiB', '256 MiB']);
    expect(formatSize(8_388_609)).toBe('8388609 B');
    expect([1025, 3 * 1024 * 1024 + 7, 3_155_000, 1.5 * 2 ** 30, 5 * 2 ** 30, 70_000].map(formatRoughSize)).toEqual(['1025 B', '3 MiB', '3.01 MiB', '1.5 GiB', '5 GiB', '68.4 KiB']);
  });
});
