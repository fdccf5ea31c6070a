import { describe, expect, it } from 'vitest';
import { parseRoute, routeHref, routeLabel } from '../src/app/ui/nav/routes.ts';
import { progressOf, type Attempt } from '../src/app/playground/exercise/attempts.ts';

describe('exercise addresses', () => {
  it('reads #/exercises and #/exercise/1 to 11, and refuses the rest', () => {
    expect(parseRoute('#/exercises')).toEqual({ page: 'exercises' });
    expect(parseRoute('#/exercise/2')).toEqual({ page: 'exercise', index: 2 });
    expect(parseRoute('#/exercise/2/solution/1.abc')).toEqual({ page: 'exercise', index: 2, solution: '1.abc' });
    expect(routeHref({ page: 'exercise', index: 2, solution: '1.abc' })).toBe('#/exercise/2/solution/1.abc');
    expect(parseRoute('#/exercise/2/solution/')).toMatchObject({ page: 'not-found' });
    expect(parseRoute('#/exercise/2/answers/1.abc')).toMatchObject({ page: 'not-found', reason: expect.stringMatching(/or a shared solution #\/exercise\/<number>\/solution\/<code>/) });
    expect(routeHref({ page: 'exercise', index: 11 })).toBe('#/exercise/11');
    expect(routeHref({ page: 'exercises' })).toBe('#/exercises');
    expect(routeLabel({ page: 'exercise', index: 2 })).toMatch(/^Exercise 2: /);
    for (const bad of ['#/exercise/0', '#/exercise/12', '#/exercise/x', '#/exercise', '#/exercise/2/more']) {
      expect(parseRoute(bad).page, bad).toBe('not-found');
    }
  });
});

describe('progress from the attempts kept', () => {
  const attempt = (exercise: number, status: 'met' | 'short' | null): Attempt => ({
    exercise,
    files: {},
    check: { ok: status !== null },
    verdict: status === null ? null : { status, sizes: [] },
    time: '2026-01-01T00:00:00.000Z',
    browser: 'Chromium',
  });

  it('is solved once any attempt met the goal, attempted otherwise, not started without one', () => {
    const kept = [attempt(2, null), attempt(2, 'met'), attempt(2, 'short'), attempt(3, 'short')];
    expect(progressOf(kept, 2)).toBe('solved');
    expect(progressOf(kept, 3)).toBe('attempted');
    expect(progressOf(kept, 4)).toBe('not started');
  });
});
