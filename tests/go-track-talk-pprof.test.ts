// The talk's three pprof tables as the Go track stores them (data/go/talk-pprof.json),
// held against the slides' text in ../shared/seeds when it is there: every figure and
// name of every row, and pprof's summary lines, exactly as printed. Without the seeds the
// comparison is skipped, and the stored tables are still checked for shape, arithmetic
// and the steps they belong to.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import TABLES from '../data/go/talk-pprof.json';
import { GO_STAGES } from '../src/app/go/stages.ts';
import { talkPprofFor, type TalkPprofRow } from '../src/app/go/profiles.ts';

// The seeds sit beside the repository (../shared/seeds), or beside the folder of a git worktree.
const CANDIDATES = ['../../shared/seeds/', '../../../shared/seeds/'].map((dir) => fileURLToPath(new URL(`${dir}001_e3ddcbe143fcd3a2.txt`, import.meta.url)));
const SLIDES = CANDIDATES.find(existsSync) ?? CANDIDATES[0];
const HAVE_SLIDES = existsSync(SLIDES);
if (!HAVE_SLIDES) console.warn(`skipping the comparison with the talk's pprof slides: ${SLIDES} is not there`);

/** One `top` row as the slide text prints it: flat, flat%, sum%, cum, cum%, name (and pprof's inline label). */
const ROW = /(\d+(?:\.\d+)?m?s) (\d+\.\d+%) (\d+\.\d+%) ?(\d+(?:\.\d+)?m?s) (\d+\.\d+%) (\S+(?: \(inline\))?)/g;

function readRows(text: string): TalkPprofRow[] {
  return [...text.matchAll(ROW)].map(([, flat, flatPercent, sumPercent, cum, cumPercent, name]) => ({ flat, flatPercent, sumPercent, cum, cumPercent, name }));
}

const seconds = (figure: string) => (figure.endsWith('ms') ? Number(figure.slice(0, -2)) / 1000 : Number(figure.slice(0, -1)));

describe('the talk’s pprof tables as stored', () => {
  it('are the deck’s “pprof”, “Back to pprof” and “Allocations and copies”, for stages 0, 1 and 3', () => {
    expect(TABLES.tables.map((t) => [t.slide, t.stage, t.command])).toEqual([
      ['pprof', '00-baseline', 'top5'],
      ['Back to pprof', '01-inline-g', 'top5'],
      ['Allocations and copies', '03-arrays', 'top10'],
    ]);
    expect(talkPprofFor('02-bounds-checks')).toBeUndefined();
    expect(talkPprofFor('03-arrays')?.slide).toBe('Allocations and copies');
    for (const t of TABLES.tables) expect(GO_STAGES.map((s) => s.id), t.slide).toContain(t.stage);
  });

  it('have as many rows as the command asked for, and sums that add up', () => {
    for (const t of TABLES.tables) {
      expect(t.rows).toHaveLength(Number(t.command.slice(3)));
      let sum = 0;
      for (const row of t.rows) {
        sum += Number(row.flatPercent.slice(0, -1));
        // pprof rounds each share to two decimals: the running sum may differ by a rounding step per row.
        expect(Math.abs(Number(row.sumPercent.slice(0, -1)) - sum), `${t.slide}: ${row.name}`).toBeLessThan(0.03);
        expect(seconds(row.cum)).toBeGreaterThanOrEqual(seconds(row.flat));
      }
    }
  });
});

describe.skipIf(!HAVE_SLIDES)('the talk’s pprof tables against the slides', () => {
  const text = HAVE_SLIDES ? readFileSync(SLIDES, 'utf8') : '';

  for (const table of TABLES.tables) {
    it(`“${table.slide}”: every figure and name of (pprof) ${table.command} as the slide prints it`, () => {
      const lines = text.split('\n').filter((line) => line.includes(`(pprof) ${table.command} `));
      const slide = lines.find((line) => line.startsWith(`${table.slide === 'pprof' ? '' : `${table.slide} `}(pprof) ${table.command} `));
      expect(slide, `a slide with "(pprof) ${table.command}" for ${table.slide}`).toBeDefined();
      expect(slide).toContain(table.summary.join(' '));
      expect(readRows(slide!)).toEqual(table.rows);
    });
  }

  it('and the first table is on the slide after the one titled “pprof”', () => {
    const slides = text.split(/\nSlide \d+\n/);
    const title = slides.findIndex((s) => s.trim().endsWith('text\n\npprof') || /Slide \d+ text\s+pprof\s*$/.test(s.trim()));
    expect(title).toBeGreaterThan(0);
    expect(slides[title + 1]).toContain('(pprof) top5 Showing top 5 nodes out of 39');
  });
});
