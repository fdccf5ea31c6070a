// The talk's benchstat tables as the Go track stores them (data/go/talk-tables.json),
// held against the slides' text in ../shared/seeds when it is there: every figure of
// every table must be exactly as printed. Without the seeds the comparison is skipped,
// and the stored tables are still checked for shape and for the steps they belong to.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import TABLES from '../data/go/talk-tables.json';
import { GO_STAGES } from '../src/app/go/stages.ts';
import { TALK_CODE, TALK_STEPS, TALK_SUMMARY, type PublishedRow } from '../src/app/go/published.ts';

const SLIDES = fileURLToPath(new URL('../../shared/seeds/001_e3ddcbe143fcd3a2.txt', import.meta.url));
const HAVE_SLIDES = existsSync(SLIDES);
if (!HAVE_SLIDES) console.warn(`skipping the comparison with the talk's slides: ${SLIDES} is not there`);

/** One benchstat row as the slide text prints it: name, old ± spread, new ± spread, delta or ~, (p=…). */
const ROW = /(Hash\w+-4) (\S+ ±\s?\d+%) (\S+ ±\s?\d+%) (~|[+-]\d+\.\d+%) \((p=\d\.\d+)\)/g;

function readTables(line: string): { time: PublishedRow[]; speed: PublishedRow[] } {
  const [time, speed] = line.split('name old speed');
  const rows = (text: string) => [...text.matchAll(ROW)].map(([, name, old, now, delta, p]) => ({ name, old, new: now, delta, p }));
  return { time: rows(time), speed: rows(speed ?? '') };
}

describe('the talk’s tables as stored', () => {
  it('have one step per Go stage after the first, in order, each with three sizes of time and speed', () => {
    expect(TABLES.steps.map((step) => step.stage)).toEqual(GO_STAGES.slice(1).map((stage) => stage.id));
    expect(Object.keys(TALK_STEPS)).toEqual(GO_STAGES.slice(1).map((stage) => stage.id));
    expect(TALK_STEPS[GO_STAGES[0].id]).toBeUndefined();
    for (const table of [TALK_SUMMARY, ...TABLES.steps]) {
      expect(table.time.map((row) => row.name)).toEqual(table.speed.map((row) => row.name));
      expect(table.time).toHaveLength(3);
      for (const row of [...table.time, ...table.speed]) {
        expect(row.delta).toMatch(/^(~|[+-]\d+\.\d\d%)$/);
        expect(row.p).toMatch(/^p=0\.\d{3}$/);
      }
    }
  });

  it('say where a slide’s times do not continue from the slide before (use_memset, and the step after it)', () => {
    const flagged = GO_STAGES.flatMap((stage) => (TALK_STEPS[stage.id]?.discontinuity ? [stage.id] : []));
    expect(flagged).toEqual(['04-memclr', '05-reuse-buffers']);
    expect(TALK_STEPS['04-memclr']!.discontinuity).toContain('373ns');
    expect(TALK_STEPS['04-memclr']!.discontinuity).toContain('627ns');
    expect(TALK_STEPS['05-reuse-buffers']!.discontinuity).toContain('596ns');
    expect(TALK_STEPS['05-reuse-buffers']!.discontinuity).toContain('310ns');
  });

  it('name each Go stage’s code as the talk’s commands do: the start by the first step’s old, each step by its new', () => {
    expect(GO_STAGES.map((stage) => TALK_CODE[stage.id])).toEqual(['baseline', 'inlinable_g', 'eliminate_bounds_checks', 'use_fixed_array', 'use_memset', 'reuse_slices']);
    expect(TALK_STEPS['03-arrays']).toMatchObject({ before: 'eliminate_checks', after: 'use_fixed_array', compares: 'eliminate_checks (old) against use_fixed_array (new)' });
  });
});

describe.skipIf(!HAVE_SLIDES)('the talk’s tables against the slides', () => {
  const lines = HAVE_SLIDES ? readFileSync(SLIDES, 'utf8').split('\n') : [];

  it('the summary: every figure as slide 2 prints it', () => {
    const line = lines.find((text) => text.startsWith(`${TABLES.summary.slide} name old time/op`));
    expect(line, 'slide 2 in the slides').toBeDefined();
    const printed = readTables(line!);
    expect(printed.time).toHaveLength(3);
    expect({ time: TABLES.summary.time, speed: TABLES.summary.speed }).toEqual(printed);
  });

  for (const step of TABLES.steps) {
    it(`stage ${step.stage}: every figure of “$ ${step.command}” as its Results slide prints it`, () => {
      const slides = lines.filter((text) => text.startsWith(`Results: $ ${step.command} name`));
      expect(slides.length, `a Results slide for ${step.command}`).toBeGreaterThan(0);
      // Some slides repeat (the talk shows a table again with a remark): all copies agree.
      for (const slide of slides) {
        const printed = readTables(slide);
        expect(printed.time).toHaveLength(3);
        expect({ time: step.time, speed: step.speed }).toEqual(printed);
      }
    });
  }
});
