// The wrong turns the exercises' Markdown describes are each found by a detector
// (src/core/exercise/turns.ts), and a verdict adds comments of its own (words.ts). Every turn gets a draft made from a stage's own shipped
// source by one small, explicit change that takes the turn: its detector must fire on it,
// and no detector of an exercise may fire on that exercise's reference. An authored turn
// without a detector, or a detector without an authored turn, fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { exerciseText } from '../src/app/ui/lesson/exercise-texts.ts';
import type { ExerciseVerdict, Speedup } from '../src/core/exercise/goal.ts';
import { DETECTORS, takenTurns, type Files, type TurnInput } from '../src/core/exercise/turns.ts';
import { verdictComments } from '../src/app/playground/exercise/words.ts';

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** A stage's files as shipped, by base name, as the exercise page has them. */
function stageFiles(index: number): Record<string, string> {
  return Object.fromEntries(STAGES[index].files.map((path) => [baseName(path), readFileSync(path, 'utf8')]));
}

/** `files` with `name` changed by `change`, which must change it. */
function edited(files: Files, name: string, change: (text: string) => string): Files {
  const text = change(files[name]);
  expect(text, `the example's change to ${name} changed nothing`).not.toBe(files[name]);
  return { ...files, [name]: text };
}

const speedup = (ratio: number, significant: boolean): Speedup => ({ ratio, range: [ratio * 0.95, ratio * 1.05], p: significant ? 0.001 : 0.4, significant });

/** A verdict at one size: the draft's speedup over stage N-1 and the reference's. */
function verdict(draft: Speedup, reference = speedup(1.5, true)): ExerciseVerdict {
  return { status: 'unclear', sizes: [{ size: 65536, draft, reference, draftVsReference: speedup(draft.ratio / reference.ratio, false), goal: 1.22, status: 'unclear' }] };
}

const EXERCISES = STAGES.slice(1).map((stage) => stage.index);

const inputFor = (exercise: number, draft: Files, attempt: ExerciseVerdict | null = null): TurnInput => ({
  draft,
  start: stageFiles(exercise - 1),
  reference: stageFiles(exercise),
  verdict: attempt,
});

/** The message moved between rounds through an array instead of along its cycles. */
const PERMUTE_THROUGH_ARRAY = [
  'const old = [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15];',
  ...[2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8].map((from, to) => `    m${to} = old[${from}];`),
].join('\n');

interface Example {
  exercise: number;
  turn: string;
  /** What the change does, in words. */
  change: string;
  draft: () => Files;
  verdict?: ExerciseVerdict;
}

const EXAMPLES: Example[] = [
  {
    exercise: 1,
    turn: 'bounds-kept',
    change: "stage 1's full-block reader also stops at the input's end",
    draft: () => edited(stageFiles(1), 'blake3.ts', (t) => t.replace('for (let w = 0; w < 16; w++, offset += 4) {', 'for (let w = 0; w < 16 && offset < bytes.length; w++, offset += 4) {')),
  },
  {
    exercise: 2,
    turn: 'table-per-block',
    change: "stage 2's table of access orders is built at the start of compress()",
    draft: () =>
      edited(stageFiles(2), 'blake3.ts', (t) => {
        const table = /const MSG_ACCESS_ORDERS[^\n]*\nwhile [\s\S]*?\n\}\n/.exec(t)![0];
        return t.replace(table, '').replace(/(function compress\([\s\S]*?\): Uint32Array \{\n)/, `$1${table}`);
      }),
  },
  {
    exercise: 3,
    turn: 'round-called',
    change: "stage 2's seven round() calls become a loop that still calls round()",
    draft: () => edited(stageFiles(2), 'blake3.ts', (t) => t.replace(/ {2}round\(state, blockWords, MSG_ACCESS_ORDERS\[0\]\);[\s\S]*?\/\/ round 7\n/, '  for (const order of MSG_ACCESS_ORDERS) round(state, blockWords, order);\n')),
  },
  {
    exercise: 4,
    turn: 'array-kept',
    change: "stage 4's compress() keeps its locals, but its round loop works on a state array",
    draft: () =>
      edited(stageFiles(4), 'compress.ts', (t) => {
        const start = t.indexOf('for (let i = 0; i < 7 * 16; i += 16) {');
        const end = t.indexOf('\n  }\n', start);
        const rounds = t.slice(start, end).replace(/\bs(\d+)\b/g, 'state[$1]');
        return t.slice(0, start).replace('let s15 = flags;', 'let s15 = flags;\n  const state = new Uint32Array([s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15]);') + rounds + t.slice(end);
      }),
  },
  {
    exercise: 5,
    turn: 'subarray',
    change: "stage 5's parent merge passes a .subarray view of the stack instead of its offset",
    draft: () =>
      edited(stageFiles(5), 'blake3.ts', (t) =>
        t.replace('compress(IV, 0, cvStack, offset, cvStack, offset, true, 0, BLOCK_LEN, PARENT | flags);', 'compress(IV, 0, cvStack.subarray(offset, offset + 16), 0, cvStack, offset, true, 0, BLOCK_LEN, PARENT | flags);'),
      ),
  },
  {
    exercise: 5,
    turn: 'slice-kept',
    change: "stage 5's block loop passes a .slice copy of the chaining value",
    draft: () =>
      edited(stageFiles(5), 'blake3.ts', (t) =>
        t.replace('compress(cv, cvOffset, blockWords, 0, cv, cvOffset, true, counter, BLOCK_LEN, flags);', 'compress(cv.slice(cvOffset, cvOffset + 8), 0, blockWords, 0, cv, cvOffset, true, counter, BLOCK_LEN, flags);'),
      ),
  },
  {
    exercise: 6,
    turn: 'temp-array',
    change: "stage 6's permutations between rounds read the words back from an array",
    draft: () => edited(stageFiles(6), 'compress.ts', (t) => t.replace(/const t0 = m0;[\s\S]*?m8 = t1;/g, PERMUTE_THROUGH_ARRAY)),
  },
  {
    exercise: 7,
    turn: 'stack-fixed',
    change: "stage 7's shared stack gets a fixed 16 entries and is never replaced",
    draft: () =>
      edited(stageFiles(7), 'blake3.ts', (t) =>
        t
          .replace('let cvStack = new Uint32Array(0);', 'const cvStack = new Uint32Array(8 * 16);')
          .replace(/\n\s*if \(cvStack\.length < stackWordsNeeded\) \{\n[^\n]*\n\s*\}/, '')
          .replace(/\n\s*if \(cvStack\.length < stackWordsNeeded\) cvStack = new Uint32Array\(stackWordsNeeded\);/, ''),
      ),
  },
  {
    exercise: 7,
    turn: 'noise',
    change: "stage 7's change, measured as no clear difference from stage 6",
    draft: () => stageFiles(7),
    verdict: verdict(speedup(1.01, false), speedup(1.02, false)),
  },
  {
    exercise: 8,
    turn: 'unaligned',
    change: "stage 8 without its tests of the input's byte offset",
    draft: () => edited(stageFiles(8), 'blake3.ts', (t) => t.replaceAll(' && input.byteOffset % 4 === 0', '')),
  },
  {
    exercise: 8,
    turn: 'view-per-block',
    change: "stage 8's block loop makes a view of each block",
    draft: () =>
      edited(stageFiles(8), 'blake3.ts', (t) =>
        t.replace('compress(cv, cvOffset, inputWords, offset / 4, cv, cvOffset, true, counter, BLOCK_LEN, flags);', 'compress(cv, cvOffset, new Uint32Array(input.buffer, input.byteOffset + offset, 16), 0, cv, cvOffset, true, counter, BLOCK_LEN, flags);'),
      ),
  },
  {
    exercise: 9,
    turn: 'stack-room',
    change: "stage 9 takes four chaining values from the module into the stack at once, sized by stage 8's formula",
    draft: () =>
      edited(stageFiles(9), 'blake3.ts', (t) =>
        t.replace(
          /cvStack\.set\(simdWords\.subarray\(simd\.CVS \/ 4, simd\.CVS \/ 4 \+ 8\), cvStackLen\);([\s\S]*?)cvStackLen \+= 8;/,
          'cvStack.set(simdWords.subarray(simd.CVS / 4, simd.CVS / 4 + 32), cvStackLen);$1cvStackLen += 32;',
        ),
      ),
  },
  {
    exercise: 9,
    turn: 'one-at-a-time',
    change: "stage 9's chunk loop calls the module for every chunk",
    draft: () => edited(stageFiles(9), 'blake3.ts', (t) => t.replace('for (let first = 0; first < chunks; first += LANES) {', 'for (let first = 0; first < chunks; first++) {')),
  },
  {
    exercise: 10,
    turn: 'copy-all',
    change: "stage 10 zeroes the whole chunk after a short input instead of its last block",
    draft: () =>
      edited(stageFiles(10), 'blake3.ts', (t) =>
        t.replace('for (let i = simd.INPUT + length; i < simd.INPUT + padded; i++) simdBytes[i] = 0;', 'simdBytes.fill(0, simd.INPUT + length, simd.INPUT + CHUNK_LEN);'),
      ),
  },
  {
    exercise: 11,
    turn: 'uneven-pieces',
    change: "stage 11's piece is the input divided by the threads' pieces, not a power of two",
    draft: () =>
      edited(stageFiles(11), 'split.ts', (t) =>
        t.replace(/let pieceChunks = [^\n]*\n\s*while \([^\n]*pieceChunks \*= 2;/, 'const pieceChunks = this.pieceChunks ?? Math.max(MIN_PIECE_CHUNKS, Math.floor(wholeChunks / (PIECES_PER_THREAD * threads)));'),
      ),
  },
];

const authored = EXERCISES.flatMap((index) => (exerciseText(index)?.turns ?? []).map((turn) => ({ exercise: index, turn })));

describe('wrong turns', () => {
  it('every turn authored in content/stages/*.md has a detector, and every detector an authored turn', () => {
    expect([...new Set(authored.map((a) => a.turn.id))].sort()).toEqual(Object.keys(DETECTORS).sort());
  });

  it('every authored turn has an example draft here', () => {
    expect(authored.map((a) => `${a.exercise}:${a.turn.id}`).sort()).toEqual(EXAMPLES.map((e) => `${e.exercise}:${e.turn}`).sort());
  });

  it.each(EXAMPLES.map((e) => [e.exercise, e.turn, e.change, e] as const))('exercise %i, %s: found when %s', (exercise, turn, _change, example) => {
    const turns = exerciseText(exercise)!.turns;
    expect(takenTurns(turns, inputFor(exercise, example.draft(), example.verdict ?? null)).map((t) => t.id)).toContain(turn);
  });

  it.each(EXERCISES)("exercise %i: the reference takes none of the exercise's turns, before or after a clear verdict", (exercise) => {
    const turns = exerciseText(exercise)!.turns;
    for (const attempt of [null, verdict(speedup(1.6, true))]) {
      expect(takenTurns(turns, inputFor(exercise, stageFiles(exercise), attempt))).toEqual([]);
    }
  });

  it.each(EXERCISES)('exercise %i: the starting point as shipped takes no turn: nothing was tried yet', (exercise) => {
    expect(takenTurns(exerciseText(exercise)!.turns, inputFor(exercise, stageFiles(exercise - 1), verdict(speedup(1, false))))).toEqual([]);
  });

  it('a shared stack with room for the deepest tree BLAKE3 allows is no wrong turn', () => {
    const roomy = edited(stageFiles(7), 'blake3.ts', (t) =>
      t
        .replace('let cvStack = new Uint32Array(0);', 'const cvStack = new Uint32Array(8 * 55);')
        .replace(/\n\s*if \(cvStack\.length < stackWordsNeeded\) \{\n[^\n]*\n\s*\}/, '')
        .replace(/\n\s*if \(cvStack\.length < stackWordsNeeded\) cvStack = new Uint32Array\(stackWordsNeeded\);/, ''),
    );
    expect(DETECTORS['stack-fixed'](inputFor(7, roomy))).toBe(false);
  });

  it('a construct named only in a comment is not taken for the construct', () => {
    const commented = edited(stageFiles(5), 'blake3.ts', (t) => t.replace('parentChainingValue(cvStack, cvStackLen - 8, 0);', 'parentChainingValue(cvStack, cvStackLen - 8, 0); // not cvStack.subarray(0, 16)'));
    expect(DETECTORS.subarray(inputFor(5, commented))).toBe(false);
  });
});

describe("a verdict's own comments", () => {
  const at = (size: number, draft: Speedup, draftVsReference: Speedup, status: 'met' | 'unclear') => ({ size, draft, reference: speedup(1.5, true), draftVsReference, goal: 1.22, status });

  it('celebrates a draft measurably faster than the reference, at the sizes where it is', () => {
    const ahead: ExerciseVerdict = { status: 'met', sizes: [at(65536, speedup(1.8, true), speedup(1.2, true), 'met'), at(1048576, speedup(1.5, true), speedup(1, false), 'met')] };
    expect(verdictComments(4, ahead)).toEqual([{ kind: 'celebratory', text: 'Faster than the reference here (1.20x at 64 KiB).' }]);
  });

  it('tells a clear gain over the stage before from the goal not yet reached', () => {
    const gained: ExerciseVerdict = { status: 'unclear', sizes: [at(65536, speedup(1.1, true), speedup(0.73, true), 'unclear')] };
    expect(verdictComments(4, gained)).toEqual([{ kind: 'informative', text: 'Measurably faster than stage 4 (1.10x at 64 KiB), but not yet at the goal.' }]);
  });

  it('says nothing more than the verdict sentence when there is nothing to add', () => {
    expect(verdictComments(4, null)).toEqual([]);
    expect(verdictComments(4, verdict(speedup(1, false)))).toEqual([]);
  });
});
