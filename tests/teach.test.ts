// The Teach page's plans (content/teach.md): each adds up to its length with no gap, every
// item says what it is, every link names a slide or page the app has, and a plan that
// does not add up is refused with where it goes wrong.
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../src/core/content/markdown.ts';
import { parseRoute } from '../src/app/ui/nav/routes.ts';
import { PLAN_MINUTES, readTeach, TEACH, TEACH_LINKS } from '../src/app/teach/plans.ts';
import { STAGES } from '../steps/index.ts';
import { GO_TRACK } from '../go/index.ts';

const read = (text: string) => () => readTeach(parseMarkdown(text, 'teach.md'), 'teach.md');
const FRONT = '---\ntitle: T\nlede: L\n---\n\n# Before {#prepare}\n\n- Serve it.\n\n';
const plan = (minutes: number, steps: string) => `# Plan {#plan-${minutes}}\n\nWhat it is.\n\n${steps}`;

describe('teaching plans', () => {
  it('has a 45-minute and a 90-minute plan whose steps add up to their length', () => {
    expect(TEACH.plans.map((p) => p.minutes)).toEqual([...PLAN_MINUTES]);
    for (const p of TEACH.plans) {
      expect(p.steps[0].from).toBe(0);
      expect(p.steps.at(-1)!.to).toBe(p.minutes);
      for (const [i, step] of p.steps.entries()) if (i > 0) expect(step.from).toBe(p.steps[i - 1].to);
      // Each plan shows slides, asks the room something, has it measure and looks at the board.
      expect(new Set(p.steps.flatMap((s) => s.items.map((item) => item.kind)))).toEqual(new Set(['Show', 'Ask', 'Measure', 'Board']));
    }
    expect(TEACH.prepare.items.join(' ')).toMatch(/npm run classroom[\s\S]*HTTPS[\s\S]*plain HTTP/);
  });

  it('links slides in presenter mode, each to a page that exists', () => {
    for (const [name, href] of Object.entries(TEACH_LINKS)) {
      const [search, hash] = href.split('#');
      expect(parseRoute(`#${hash}`).page, name).not.toBe('not-found');
      if (name.startsWith('stage:') || name.startsWith('go:') || name === 'intro') expect(search, name).toBe('/?present');
    }
    // A stage is named by its id; its number, in the address, comes from the registry.
    expect(TEACH_LINKS['stage:05-no-copies']).toBe('/?present#/stage/5');
    expect(TEACH_LINKS['go:04-memclr']).toBe('/?present#/go/4');
    expect(Object.keys(TEACH_LINKS).filter((name) => name.startsWith('stage:'))).toEqual(STAGES.map((s) => `stage:${s.id}`));
    expect(Object.keys(TEACH_LINKS).filter((name) => name.startsWith('go:'))).toEqual(GO_TRACK.map((s) => `go:${s.id}`));
    expect(Object.keys(TEACH_LINKS).some((name) => /^(stage|go)-\d/.test(name)), 'no slide is named by its number').toBe(false);
  });

  it('refuses a plan with a gap, one that ends early, an item without its kind, or a link to nowhere', () => {
    const step = (name: string, time: string, items = '- Show: [stage 1](stage:01-read-words-full).') => `## ${time} A step {#${name}}\n\n${items}\n\n`;
    const good45 = plan(45, step('plan-45-1', '0:00–0:45'));
    const good90 = plan(90, step('plan-90-1', '0:00–1:30'));
    expect(read(FRONT + good45 + good90)).not.toThrow();
    expect(read(FRONT + plan(45, step('plan-45-1', '0:00–0:20') + step('plan-45-2', '0:25–0:45')) + good90)).toThrow(/should start at 0:20/);
    expect(read(FRONT + plan(45, step('plan-45-1', '0:00–0:40')) + good90)).toThrow(/end at 0:40, not at 0:45/);
    expect(read(FRONT + plan(45, step('plan-45-1', '0:00–0:45', '- Look at stage 1.')) + good90)).toThrow(/starts with "Show:"/);
    expect(read(FRONT + plan(45, step('plan-45-1', '0:00–0:45', '- Show: [stage 40](stage-40).')) + good90)).toThrow(/links to no slide/);
    expect(read(FRONT + plan(45, step('plan-45-1', '0:00–0:45', '- Show: [stage 1](stage-1).')) + good90)).toThrow(/links to no slide/);
    expect(read(FRONT + plan(45, step('plan-45-1', '0:00–0:45', '- Show: [stage 2](stage:01-read-words-full).')) + good90)).toThrow(/says stage 2, but that stage is number 1/);
    expect(read(FRONT + plan(45, step('plan-45-1', '0:00–0:45', '- Show: [Go stage 3](go:04-memclr).')) + good90)).toThrow(/says stage 3, but that stage is number 4/);
    expect(read(FRONT + plan(45, step('plan-45-1', 'Later')) + good90)).toThrow(/starts with its time/);
    expect(read(FRONT + good45)).toThrow(/plan-90/);
    expect(read(FRONT + good45 + good90 + '# Extra\n\nWords.\n')).toThrow(/does not show "Extra"/);
  });
});
