// Every stage from 1 on asks the learner to make its step: its exercise's words, both
// authored hints and the sizes its goal is judged at come from the stage's Markdown, and
// those sizes must be ones the stage's own run measures, or the goal could not be judged.
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { parseMarkdown } from '../src/core/content/markdown.ts';
import { exerciseText, readExercise } from '../src/app/ui/lesson/exercise-texts.ts';
import { stepPlan } from '../src/app/ui/run/step-plan.ts';

describe('exercise texts', () => {
  it('stage 0 has no exercise: there is no step before it to start from', () => {
    expect(exerciseText(0)).toBeNull();
  });

  it.each(STAGES.slice(1).map((stage) => [stage.index, stage.id] as const))('stage %i (%s) has an exercise with both hints and sizes its plan measures', (index) => {
    const text = exerciseText(index);
    expect(text, `content/stages/${STAGES[index].id}.md has no "# Exercise {#exercise}"`).not.toBeNull();
    expect(text!.intro.length).toBeGreaterThan(0);
    expect(text!.hint3.join(' ')).toMatch(/\?/);
    expect(text!.hint4.join(' ')).toMatch(/`[^`]+`/);
    expect(text!.sizes.length).toBeGreaterThan(0);
    const measured = stepPlan(index).sizes;
    for (const size of text!.sizes) expect(measured, `stage ${index}'s run does not measure ${size} B`).toContain(size);
    for (const turn of text!.turns) expect(turn.text.length).toBeGreaterThan(0);
  });

  const good = [
    '---',
    'exercise:',
    '  sizes: [1024, 65536]',
    '  given: [wasm.ts]',
    '  edit: [blake3.ts]',
    '  turns:',
    '    copy: actionable',
    '---',
    '# Change',
    'Words.',
    '# Exercise {#exercise}',
    'Start here.',
    '## Hint 3 {#hint-3}',
    'What kind?',
    '## Hint 4 {#hint-4}',
    'Like `x`.',
    '## Wrong turn: a copy {#turn-copy}',
    'A copy per block.',
    '# Speaker notes: x {#notes}',
    '- note',
  ].join('\n');
  const read = (text: string) => readExercise(parseMarkdown(text, 'content/stages/99-x.md'), 'content/stages/99-x.md');

  it('reads a well-formed section', () => {
    expect(read(good)).toEqual({
      intro: ['Start here.'],
      hint3: ['What kind?'],
      hint4: ['Like `x`.'],
      sizes: [1024, 65536],
      turns: [{ id: 'copy', kind: 'actionable', text: ['A copy per block.'] }],
      given: ['wasm.ts'],
      edit: ['blake3.ts'],
    });
    // Without them every file is the starting point's, and every one but a generator's output is edited.
    expect(read(good.replace("  given: [wasm.ts]\n  edit: [blake3.ts]\n", ''))).toMatchObject({ given: [], edit: [] });
  });

  it.each([
    ['a missing hint 4', good.replace('## Hint 4 {#hint-4}\nLike `x`.\n', ''), /99-x\.md, "Exercise": has no "## Hint 4 \{#hint-4\}"/],
    ['a hint placed under another heading', good.replace('## Hint 3 {#hint-3}\nWhat kind?\n', '').replace('- note', '- note\n## Hint 3 {#hint-3}\nWhat kind?'), /"Exercise": has no "## Hint 3/],
    ['an empty hint', good.replace('What kind?\n', ''), /"Hint 3": has no text/],
    ['sizes that are not bytes', good.replace('[1024, 65536]', '[1 KiB]'), /"exercise.sizes" holds "1 KiB"/],
    ['a given file that is not a file name', good.replace('[wasm.ts]', '[../x.ts]'), /"exercise.given" is a list of file names/],
    ['no sizes', good.replace('  sizes: [1024, 65536]\n', ''), /no "sizes: \[\.\.\]"/],
    ['a turn of no known kind', good.replace('copy: actionable', 'copy: serious'), /"Wrong turn: a copy": "exercise.turns.copy" .* "serious"/],
    ['a turn with no section', good.replace('copy: actionable', 'copy: actionable\n    view: informative'), /"exercise.turns.view" has no/],
    ['front matter without a section', good.replace(/# Exercise[\s\S]*?(?=# Speaker)/, ''), /no "# Exercise \{#exercise\}" section/],
  ])('refuses %s, naming the file and heading', (_, text, message) => {
    expect(() => read(text)).toThrow(message);
  });
});
