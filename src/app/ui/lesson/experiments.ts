// Guided experiments: starting points for the playground that each stage page offers,
// with what to expect. Each one is a small patch on the stage's own files, applied when
// the learner clicks, so the starting point is always today's stage plus one visible
// change. tests/playground-experiments.test.ts applies every patch to the files on disk
// and compiles the result, so a stage that changes cannot leave a patch behind that no
// longer fits. What to expect comes from the committed run of the "Every engine" page
// (committed-steps.ts), never from a run no data file holds.

import { STAGES, type Stage } from '../../../../steps/index.ts';
import { formatSize } from '../../../core/format.ts';
import { effectFigures, effectWords, engineStepModels, stepEffect, type StepEffect } from './committed-steps.ts';

/** Replace `find`, which must occur exactly once in `file`, by `replace`. */
export interface Edit {
  file: string;
  find: string;
  replace: string;
}

/** Take `file` as stage `fromStage` has it, unless only its comments differ. */
export interface TakeFile {
  file: string;
  fromStage: string;
}

export type PatchStep = Edit | TakeFile;

export interface Experiment {
  id: string;
  title: string;
  /** What the patch does, in a sentence. */
  what: string;
  /** What the learner should see when measuring it. */
  expect: string;
  /** The sizes "Check and measure" starts with ticked, when the experiment needs particular ones. */
  sizes?: number[];
  /** Whether the result is still a correct BLAKE3 (a broken one is meant to fail the check). */
  correct: boolean;
  patch: PatchStep[];
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The size the undo experiments quote the committed run at: the largest that every stage ran at in full. */
const UNDO_BYTES = 64 * 1024;
/** Stages whose step is for small inputs, quoted where it is: stage 10's is for one chunk and less. */
const UNDO_AT: Record<string, number> = { '10-simd-one-block': 1024 };

/** "In the committed run of the “Every engine” page, in Chromium, stage 7 was 0.99× stage 6 at 96 B (p = 0.91): not measurably faster or slower". */
function committedSays(effect: StepEffect): string {
  const stage = Number.parseInt(effect.stage, 10);
  return `In the committed run of the “Every engine” page, in Chromium, stage ${stage} was ${effectFigures(effect)}: ${effectWords(effect)}`;
}

/** What a draft that takes a stage's step back should do, by what the committed run says the step did. */
function undoneWords(effect: StepEffect): string {
  const stage = Number.parseInt(effect.stage, 10);
  const where = `at ${formatSize(effect.size)}`;
  if (!effect.measurable) return `so that run could not tell the two apart ${where}: measure and see whether this machine can`;
  return effect.ratio > 1 ? `so expect your draft to come out slower than stage ${stage} ${where}` : `so your draft may come out faster than stage ${stage} ${where}`;
}

/** The committed run's step of `stage` in Chromium at `size`. */
const chromiumStep = (stage: string, size: number) => stepEffect(engineStepModels(), 'chromium', stage, size);

/** Undo a stage: every file the stage before has under the same name, as it had it. */
function undo(stage: Stage): Experiment | null {
  const previous = STAGES[stage.index - 1];
  if (!previous) return null;
  const before = new Set(previous.files.map(baseName));
  // Generators do not run in the browser: taking the old gen.ts would change nothing that runs.
  const patch = stage.files
    .map(baseName)
    .filter((name) => before.has(name) && name !== 'gen.ts')
    .map((file) => ({ file, fromStage: previous.id }));
  return {
    id: 'undo',
    title: 'Undo this stage and measure what it was worth',
    what: `Puts stage ${previous.index}'s code in the editor wherever this stage changed it, so your draft is this stage without its change.`,
    expect: (() => {
      const effect = chromiumStep(stage.id, UNDO_AT[stage.id] ?? UNDO_BYTES);
      const article = stage.articleSpeedup ? ` The article measured ${stage.articleSpeedup}× for this step.` : '';
      return `${committedSays(effect)}, ${undoneWords(effect)}.${article} On a busy machine a small gain can read as "no measurable difference": that is an answer too.`;
    })(),
    correct: true,
    patch,
  };
}

/** Experiments written for one stage, by stage id. */
const SPECIFIC: Record<string, Experiment[]> = {
  '00-reference': [
    {
      id: 'break-iv',
      title: 'Break it on purpose',
      what: 'Changes the last bit of the first IV word (0x6a09e667 becomes 0x6a09e666).',
      expect: 'The check stops at the first official vector, the empty input, and shows where its digest first differs from the right one. Nothing is timed.',
      correct: false,
      patch: [{ file: 'blake3.ts', find: '  0x6a09e667, 0xbb67ae85,', replace: '  0x6a09e666, 0xbb67ae85,' }],
    },
  ],
  '07-reuse-buffers': [
    {
      id: 'allocate-again',
      title: 'Allocate the stack on every call again',
      what: 'Makes hash() allocate a fresh chaining-value stack on every call, as stage 6 did, instead of reusing the module-level one.',
      // One allocation a call weighs most at the smallest size the run has.
      expect: `The sizes it needs are ticked for you. ${committedSays(chromiumStep('07-reuse-buffers', 96))}, ${undoneWords(chromiumStep('07-reuse-buffers', 96))}. ${[65536, 1048576]
        .map((size) => chromiumStep('07-reuse-buffers', size))
        .map((e) => `At ${formatSize(e.size)} it was ${effectFigures(e).replace(/ at [^(]+/, ' ')}: ${effectWords(e)}.`)
        .join(' ')}`,
      sizes: [96, 65536, 1048576],
      correct: true,
      patch: [
        {
          file: 'blake3.ts',
          find: '  if (cvStack.length < stackWordsNeeded) {\n    cvStack = new Uint32Array(stackWordsNeeded);\n  }',
          replace: '  cvStack = new Uint32Array(stackWordsNeeded); // a fresh stack on every call, as in stage 6',
        },
      ],
    },
  ],
  '08-little-endian': [
    {
      id: 'no-fast-path',
      title: 'Turn the little-endian fast path off',
      what: 'Passes false where hash() decides whether to read block words straight from a Uint32Array view.',
      expect: `The draft reads every block through stage 7's byte reader again, so it gives back whatever this stage gained on your machine. ${committedSays(chromiumStep('08-little-endian', UNDO_BYTES))}, ${undoneWords(chromiumStep('08-little-endian', UNDO_BYTES))}.`,
      correct: true,
      patch: [
        {
          file: 'blake3.ts',
          find: 'return hashInput(input, IS_LITTLE_ENDIAN && input.byteOffset % 4 === 0);',
          replace: 'return hashInput(input, false); // fast path off: always copy through the byte reader',
        },
      ],
    },
  ],
};

/** The experiments a stage page offers, the stage's own first. */
export function experimentsFor(stage: Stage): Experiment[] {
  if (stage.playgroundUnavailable) return [];
  const generic = undo(stage);
  return [...(SPECIFIC[stage.id] ?? []), ...(generic ? [generic] : [])];
}

/** A file's text without its line comments and blank lines: what runs, roughly. */
function codeOf(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^\s*\/\/.*$/, '').trimEnd())
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * The stage's files (by file name) with the patch applied. `read` gives the text of a
 * repo-relative path. Throws when an edit no longer fits, naming it.
 */
export async function applyPatch(
  files: Record<string, string>,
  patch: readonly PatchStep[],
  read: (path: string) => Promise<string>,
): Promise<Record<string, string>> {
  const out = { ...files };
  for (const step of patch) {
    if (!(step.file in out)) throw new Error(`the experiment changes ${step.file}, which this stage does not have`);
    if ('fromStage' in step) {
      const theirs = await read(`steps/${step.fromStage}/${step.file}`);
      if (codeOf(theirs) !== codeOf(out[step.file])) out[step.file] = theirs;
      continue;
    }
    const first = out[step.file].indexOf(step.find);
    if (first === -1 || out[step.file].indexOf(step.find, first + 1) !== -1) {
      throw new Error(`the experiment's edit of ${step.file} no longer fits the stage (the text it replaces is ${first === -1 ? 'gone' : 'there twice'})`);
    }
    out[step.file] = out[step.file].slice(0, first) + step.replace + out[step.file].slice(first + step.find.length);
  }
  return out;
}
