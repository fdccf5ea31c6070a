// Where each exercise starts (src/app/playground/exercise/start.ts): stage N-1's files with
// the reference's given files in their place. Every starting point must hash right as the
// learner gets it, with the given files where the draft will see them (in one folder, as
// the sandbox links them); where the learner edits gen.ts, the starting point's generator
// must write exactly the read-only output it starts with, or the first check would change
// code the learner never touched.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blake3 } from '@noble/hashes/blake3.js';
import { STAGES } from '../steps/index.ts';
import { exerciseText } from '../src/app/ui/lesson/exercise-texts.ts';
import { exerciseStart } from '../src/app/playground/exercise/start.ts';
import { OFFICIAL_LENGTHS, patternInput } from '../src/core/vectors.ts';

const ROOT = new URL('../', import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'blake3-lab-exercise-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The starting point's files copied into one folder, as the sandbox links them. */
function startFolder(index: number) {
  const start = exerciseStart(STAGES[index - 1], STAGES[index], exerciseText(index));
  const dir = join(scratch, String(index));
  mkdirSync(dir, { recursive: true });
  for (const path of start.stage.files) copyFileSync(new URL(path, ROOT), join(dir, baseName(path)));
  return { start, dir };
}

describe('exercise starting points', () => {
  // Stage 11 does not open in the playground (steps/index.ts says why), so neither does its exercise.
  const exercises = STAGES.slice(1).filter((stage) => !stage.playgroundUnavailable && !STAGES[stage.index - 1].playgroundUnavailable);

  it.each(exercises.map((stage) => [stage.index] as const))('exercise %i starts from code that hashes right, with what it gives in place', async (index) => {
    const { start, dir } = startFolder(index);
    const text = exerciseText(index)!;
    for (const name of text.edit) expect(start.readOnly.has(name), `${name} is to be edited`).toBe(false);
    for (const name of text.given) expect(start.readOnly.has(name), `${name} is given`).toBe(true);
    const entry = baseName(start.stage.files[0]);
    const module = (await import(join(dir, entry))) as { hash(input: Uint8Array): Uint8Array; chooseOneBlockCode?: () => Promise<void> };
    await module.chooseOneBlockCode?.();
    // Stage 0, where exercise 1 starts, is quadratic on purpose: the official lengths are enough there.
    for (const length of [...OFFICIAL_LENGTHS, ...(index > 1 ? [1024 * 1024 + 1] : [])]) {
      const input = patternInput(length);
      expect(hex(module.hash(input)), `length ${length}`).toBe(hex(blake3(input)));
    }
  });

  it.each(exercises.filter((stage) => exerciseText(stage.index)!.edit.includes('gen.ts')).map((stage) => [stage.index] as const))(
    "exercise %i's generator, run as it starts, writes the read-only output it starts with",
    async (index) => {
      const { start, dir } = startFolder(index);
      expect(start.runsGenerator).toBe(true);
      const gen = (await import(join(dir, 'gen.ts'))) as { generate(): string; OUTPUT_FILE?: string; OUTPUT_FILES?: string[] };
      const outputs = (gen.OUTPUT_FILES ?? [gen.OUTPUT_FILE!]).filter((file) => file.startsWith('./')).map((file) => file.slice(2));
      expect(outputs.length).toBeGreaterThan(0);
      for (const name of outputs) {
        expect(start.readOnly.has(name), `${name} is the generator's output`).toBe(true);
        expect(gen.generate() === readFileSync(join(dir, name), 'utf8'), `${name} as shipped is what gen.ts writes`).toBe(true);
      }
    },
  );

  it('refuses to give a file the reference does not have', () => {
    expect(() => exerciseStart(STAGES[8], STAGES[9], { given: ['nowhere.ts'], edit: [] })).toThrow(/gives nowhere\.ts, which stage 9 does not have/);
  });
});
