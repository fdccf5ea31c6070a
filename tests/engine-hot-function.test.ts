// The stage page's V8 table names each stage's hot function from its stored profile (at
// 64 KiB), not as the largest function TurboFan compiled: that was stage 11's runtime
// assembler, which runs once at load, beside stage 10's subtreeChainingValue.
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { hotFunction, hotFunctionFigure } from '../src/core/evidence/v8-why.ts';
import { storedProfile, v8Evidence } from '../src/app/story/engine-evidence-data.ts';

const KiB = 1024;
const hot = (index: number) => hotFunction(storedProfile(index, 64 * KiB));

describe("the V8 table's hot function", () => {
  it('is the JavaScript function the profile spends most self time in, for every stage', () => {
    for (const stage of STAGES) {
      const profile = storedProfile(stage.index, 64 * KiB)!;
      const ours = profile.functions.filter((f) => f.kind === 'js' && f.file.startsWith('steps/'));
      expect(hot(stage.index), stage.id).toBe(ours[0].name);
      expect(ours.every((f) => f.selfSamples <= ours[0].selfSamples)).toBe(true);
    }
  });

  it("is stage 10's subtreeChainingValue in stages 10 and 11, not stage 11's assembler", () => {
    // Stage 11 at 64 KiB hashes on its calling thread alone, with stage 10's code.
    expect(hot(10)).toBe('subtreeChainingValue');
    expect(hot(11)).toBe('subtreeChainingValue');
    const figure = hotFunctionFigure(v8Evidence(10), hot(11));
    const traced = v8Evidence(10).functions.find((f) => f.name === 'subtreeChainingValue')!;
    expect(figure).toBe(`subtreeChainingValue: ${traced.bytecodeBytes} B, ${traced.machineCodeBytes} B`);
    // Whatever stage 11 compiles at load (its module generator's helpers among them), the
    // row names the function the profile found hot, in stage 11's own trace too.
    expect(hotFunctionFigure(v8Evidence(11), hot(11))).toMatch(/^subtreeChainingValue: (\d+ B, (\d+|–) B|not compiled)$/);
  });

  it('is compress before and after in the stages whose why reads its growth (4 and 6)', () => {
    for (const index of [4, 6]) {
      expect(hot(index)).toBe('compress');
      for (const e of [v8Evidence(index - 1), v8Evidence(index)]) expect(hotFunctionFigure(e, 'compress')).toMatch(/^compress: \d+ B, \d+ B$/);
    }
    expect(hotFunctionFigure(v8Evidence(4), undefined)).toBe('–');
  });
});
