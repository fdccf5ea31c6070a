import { describe, expect, it } from 'vitest';
import { formatDuration, formatMBps, formatRate, formatRatio, formatRoughDuration, formatRoughSize, formatSig, formatSize } from '../src/core/format.ts';

describe('the one way the lab writes durations, sizes, rates and ratios', () => {
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

  it('keeps three significant digits without exponents', () => {
    expect(formatSig(1234.5)).toBe('1,235');
    expect(formatSig(435.2)).toBe('435');
    expect(formatSig(43.52)).toBe('43.5');
    expect(formatSig(4.352)).toBe('4.35');
    expect(formatSig(0.000512)).toBe('0.00051');
    // Values that round up across a boundary take the format of the rounded value.
    expect([formatSig(0.996), formatSig(9.996), formatSig(99.96), formatSig(0.9949)]).toEqual(['1.00', '10.0', '100', '0.99']);
    expect(formatRatio(0.9962)).toBe('1.00x');
    expect(formatSig(Number.NaN)).toBe('–');
    expect(formatRatio(2.214)).toBe('2.21x');
    expect(formatRatio(null)).toBe('–');
  });

  it('writes a rate in MB/s, and the file page\'s bytes over milliseconds the same way', () => {
    expect(formatMBps(1250.4)).toBe('1,250 MB/s');
    // 850 MB in one second: 850e6 bytes / 1e3 / 1000 ms.
    expect(formatRate(850e6, 1000)).toBe('850 MB/s');
    expect(formatRate(1024, 0)).toBe('');
  });
});
