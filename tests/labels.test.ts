// Labels that say what a reader takes them to say: a slowdown in the article's direction,
// and a class code's alphabet named when a typed code is not one.
import { describe, expect, it } from 'vitest';
import { formatVersus } from '../src/core/format.ts';
import { CODE_PATTERN, classCodeProblem } from '../src/core/class/protocol.ts';

describe('a ratio against Rust WASM', () => {
  it('reads in the article\'s direction, never as a tiny multiple', () => {
    expect(formatVersus(1 / 417)).toBe('about 420x slower');
    expect(formatVersus(1 / 2130)).toBe('about 2,100x slower');
    expect(formatVersus(0.5)).toBe('2.00x slower');
    expect(formatVersus(1.6)).toBe('1.60x faster');
    expect(formatVersus(2.21)).toBe('2.21x faster');
    expect(formatVersus(null)).toBe('–');
    expect(formatVersus(0)).toBe('–');
  });
});

describe('a class code that is not one', () => {
  it('names the alphabet, and sends a 0 or 1 back to the board rather than guessing', () => {
    expect(CODE_PATTERN.test('ABC123')).toBe(false);
    expect(classCodeProblem('ABC123')).toBe('“ABC123” is not a class code: codes never use 0, 1, I or O, which look alike on a projector. Check the code on the board.');
    // Neither reading of a typed 0 (O) nor of a 1 (I) is in the alphabet: no guess could be a code.
    expect(CODE_PATTERN.test('ABCI23')).toBe(false);
    expect(CODE_PATTERN.test('ABCO23')).toBe(false);
    expect(classCodeProblem('ABC')).toBe('“ABC” is not a class code: a code is 6 symbols from the letters A to Z and the digits 2 to 9 (never 0, 1, I or O), as the board shows it.');
    expect(classCodeProblem('')).toMatch(/^Type the code the board shows: 6 symbols/);
  });
});
