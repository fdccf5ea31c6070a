import { describe, expect, it } from 'vitest';
import { describeEnvironment, shortName } from '../src/core/results/text/environment-label.ts';
import { mbPerSec } from '../src/core/stats/benchunit.ts';
import { payloadFromLink, shareUrl } from '../src/core/results/io/links.ts';
import type { Environment } from '../src/core/bench/results.ts';
import { chromiumEnvironment } from './fixtures/environment.ts';

const env: Environment = chromiumEnvironment({ userAgent: 'Mozilla/5.0', date: '2026-11-21T10:30:00.000Z' });

describe('MB/s and the machine, named', () => {
  it('converts ns per hash to MB/s (10^6 bytes per second)', () => {
    // 1 MiB in 1 ms is 1048.576 MB/s.
    expect(mbPerSec(1048576, 1e6)).toBeCloseTo(1048.576, 9);
    expect(mbPerSec(96, 1000)).toBeCloseTo(96, 9);
  });

  it('names the machine in plain text, with the label when there is one', () => {
    expect(describeEnvironment(env)).toBe('Chromium 156.0.8078.73 · Linux x86_64 · 2 cores · 2026-11-21 10:30 UTC');
    expect(shortName(env)).toBe('Chromium 156.0.8078.73 on Linux x86_64');
    expect(shortName({ ...env, label: '  Ana’s laptop ' })).toBe('Ana’s laptop');
  });
});

describe('share links', () => {
  const location = { origin: 'https://lab.example', pathname: '/' };

  it('puts the payload in the fragment and reads it back', () => {
    const url = shareUrl('AbC-_123', location);
    expect(url).toBe('https://lab.example/#/share/AbC-_123');
    expect(payloadFromLink(url)).toBe('AbC-_123');
    expect(payloadFromLink(`  ${url}\n`)).toBe('AbC-_123');
    expect(payloadFromLink('AbC-_123')).toBe('AbC-_123');
  });

  it('refuses text that is not a share link', () => {
    expect(payloadFromLink('')).toBeNull();
    expect(payloadFromLink('https://lab.example/#/bench')).toBeNull();
    expect(payloadFromLink('https://lab.example/#/share/')).toBeNull();
    expect(payloadFromLink('two words')).toBeNull();
  });
});
