// One press of "Check and measure" on an exercise: compile the draft, check it (and on a
// wrong digest, find in words where it breaks), then one interleaved run of the stage
// before, the draft and the reference, each compiled and run in the sandbox as the
// playground does, judged by the exercise's goal (src/core/exercise/goal.ts).
import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { Progress } from '../../../core/bench/runner.ts';
import type { Results } from '../../../core/bench/results.ts';
import type { Stage } from '../../../../steps/index.ts';
import { judgeExercise, type ExerciseCell, type ExerciseVerdict } from '../../../core/exercise/goal.ts';
import { whereItBreaks } from '../../../core/exercise/diagnose.ts';
import type { CheckStep } from '../../../core/playground/checks.ts';
import type { Program } from '../../../core/playground/link.ts';
import { OFFICIAL_LENGTHS } from '../../../core/vectors.ts';
import { formatSize } from '../../../core/format.ts';
import { compile, type CompileError } from '../compiler.ts';
import { Sandbox } from '../sandbox.ts';
import { SandboxKeeper } from '../sandbox-keeper.ts';
import { checkProgram, measurePrograms, type CheckReport } from '../check-and-measure.ts';
import { DRAFT_ID } from '../run.svelte.ts';
import type { Workspace } from '../workspace.svelte.ts';
import { browserName, saveAttempt } from './attempts.ts';
import { postExerciseOutcome } from '../../../core/class/exercise-relay.ts';

export type ExercisePhase = 'idle' | 'generating' | 'compiling' | 'checking' | 'diagnosing' | 'measuring' | 'done';

/** The length of the input a failed check step was on, when it was a digest that differed. */
function failingLength(report: CheckReport): number | null {
  if (report.ok || report.failure.actual === undefined || report.failure.expected === undefined) return null;
  const label = report.failure.label ?? '';
  const vector = /^official vector (\d+) of/.exec(label);
  if (vector) return OFFICIAL_LENGTHS[Number(vector[1]) - 1] ?? null;
  const random = /^(\d+) pseudo-random bytes/.exec(label);
  return random ? Number(random[1]) : null;
}

/**
 * Each contestant's time per size: 2 s a round, 20 s at least. Every contestant of an
 * exercise is a stage or a draft of one, so the box is there only for a draft gone very
 * slow; the bench's 5 s (made for stage 0's quadratic hash) cut a draft that hashes 1 MiB
 * twice to a sample or two on a slow or busy machine, and "measure again with 40 rounds"
 * must get its 40 rounds of the slowest stage (stage 1 at 1 MiB, about 0.2 s a hash here).
 */
export function exerciseTimeBoxMs(rounds: number): number {
  return Math.max(20_000, rounds * 2_000);
}

/** What the check of an attempt found, as it is kept. */
type AttemptCheck = { ok: boolean; message?: string };

/** The generator's id in the sandbox, and how long its generate() may take (the stages' run in milliseconds). */
const GENERATOR_ID = 'generator';
const GENERATOR_TIMEOUT_MS = 10_000;

export class ExerciseRun {
  phase = $state<ExercisePhase>('idle');
  compileErrors = $state.raw<CompileError[]>([]);
  checked = $state.raw<{ done: number; total: number } | null>(null);
  checkReport = $state.raw<CheckReport | null>(null);
  /** Where a wrong digest first goes wrong, in words. */
  diagnosis = $state<string | null>(null);
  progress = $state.raw<Progress | null>(null);
  results = $state.raw<Results | null>(null);
  verdict = $state.raw<ExerciseVerdict | null>(null);
  /** Why the draft's gen.ts gave no code to check: it threw, wrote no text, or never finished. */
  generatorError = $state<string | null>(null);
  /** Why the draft, checked right beforehand, went wrong while it was timed: where, and what it did. */
  timedFailure = $state<string | null>(null);
  error = $state<string | null>(null);
  /** What became of the last attempt's outcome on its way to a class board, when this browser is in a class that takes it. */
  classNote = $state<string | null>(null);
  attempts = $state(0);
  private controller: AbortController | null = null;
  private readonly sandboxes = new SandboxKeeper(() => new Sandbox());
  private stages: Promise<{ previous: Program; reference: Program }> | null = null;

  constructor(
    readonly exercise: number,
    readonly previous: Stage,
    readonly reference: Stage,
    /** Stage N-1 as shipped: what the draft is measured against (the starting point may hold given files of stage N). */
    private readonly previousModels: Map<string, Monaco.editor.ITextModel>,
    private readonly referenceModels: Map<string, Monaco.editor.ITextModel>,
    private readonly options: {
      /** The learner edits gen.ts: it runs in the sandbox before each check, and its output is what is checked. */
      runsGenerator?: boolean;
      /** Attempts are the learner's own, kept and sent to a class; a solution opened from a link is neither. */
      keepsAttempts?: boolean;
    } = {},
  ) {}

  get running(): boolean {
    return this.phase !== 'idle' && this.phase !== 'done';
  }

  /** `prediction`: the speedup the learner expects over stage N-1 (a guess choice's ratio), kept with the attempt. */
  async start(workspace: Workspace, sizes: number[], rounds: number, prediction: number | null = null): Promise<void> {
    if (this.running) return;
    const controller = (this.controller = new AbortController());
    this.clear();
    const files = workspace.changedFiles();
    // What the check found, kept with the attempt even when measuring fails afterwards.
    const outcome: { check: AttemptCheck } = { check: { ok: false, message: 'not checked' } };
    try {
      await this.attempt(workspace, sizes, rounds, controller.signal, outcome);
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      this.phase = 'done';
      if (this.controller === controller) this.controller = null;
      if (!controller.signal.aborted && this.options.keepsAttempts !== false) this.keep(files, outcome.check, prediction);
    }
  }

  private clear(): void {
    this.compileErrors = [];
    this.checkReport = null;
    this.checked = null;
    this.diagnosis = null;
    this.progress = null;
    this.results = null;
    this.verdict = null;
    this.timedFailure = null;
    this.generatorError = null;
    this.error = null;
    this.classNote = null;
  }

  /** Runs the generator (if the exercise has one), compiles, checks and, when all that passed, measures. */
  private async attempt(workspace: Workspace, sizes: number[], rounds: number, signal: AbortSignal, outcome: { check: AttemptCheck }): Promise<void> {
    if (this.options.runsGenerator) {
      this.phase = 'generating';
      const generated = await this.generate(workspace, signal);
      if (generated) return void (outcome.check = { ok: false, message: generated });
    }
    this.phase = 'compiling';
    const draft = await compile(workspace.models, { id: DRAFT_ID, title: 'Your draft', requires: this.previous.requires });
    if (!draft.ok) {
      this.compileErrors = draft.errors;
      return void (outcome.check = { ok: false, message: `TypeScript: ${draft.errors[0].message}` });
    }
    this.phase = 'checking';
    const sandbox = await this.sandboxes.ready();
    const report = (this.checkReport = await checkProgram(sandbox, draft.program, (done, total) => (this.checked = { done, total }), signal));
    if (!report.ok) {
      outcome.check = { ok: false, message: report.failure.message };
      const length = failingLength(report);
      if (length !== null && length > 0) {
        this.phase = 'diagnosing';
        outcome.check.message = this.diagnosis = await this.whereItBreaks(sandbox, draft.program, length, signal);
      }
      return;
    }
    outcome.check = { ok: true };
    this.phase = 'measuring';
    this.verdict = await this.measure(sandbox, workspace, draft.program, sizes, rounds, signal);
    if (this.timedFailure) outcome.check = { ok: false, message: `while timed ${this.timedFailure}` };
  }

  /** Keeps the attempt in this browser and sends its outcome to the class board, if this browser is in a class that asks. */
  private keep(files: Record<string, string>, check: AttemptCheck, prediction: number | null): void {
    this.attempts++;
    const attempt = { exercise: this.exercise, files, check, verdict: this.verdict, ...(prediction !== null && { prediction }), time: new Date().toISOString(), browser: browserName() };
    saveAttempt(attempt).catch(
      (error) => (this.error = `This attempt could not be kept in this browser: ${error instanceof Error ? error.message : String(error)}`),
    );
    void postExerciseOutcome(this.exercise, this.verdict, check).then((note) => (this.classNote = note));
  }

  /**
   * Runs the draft's gen.ts in the sandbox and puts what it writes in the read-only files
   * it names; returns why it could not (its compile errors are kept as the draft's), or null.
   */
  private async generate(workspace: Workspace, signal: AbortSignal): Promise<string | null> {
    const gen = workspace.models.get('gen.ts')!;
    const compiled = await compile(new Map([['gen.ts', gen]]), { id: GENERATOR_ID, title: 'gen.ts' });
    if (!compiled.ok) {
      this.compileErrors = compiled.errors;
      return `TypeScript: ${compiled.errors[0].message}`;
    }
    const sandbox = await this.sandboxes.ready();
    const worker = sandbox.startWorker([compiled.program]);
    try {
      const outcome = await worker.call((core) => core.generate(GENERATOR_ID), { timeoutMs: GENERATOR_TIMEOUT_MS, signal });
      if (!outcome.ok) return (this.generatorError = outcome.message);
      for (const [name, text] of Object.entries(outcome.files)) {
        const file = workspace.files.find((f) => f.name === name);
        if (!file?.readOnly) return (this.generatorError = `gen.ts writes ${name}, which is not one of this exercise's generated files`);
        const model = workspace.models.get(name)!;
        if (model.getValue() !== text) model.setValue(text);
      }
      return null;
    } catch (error) {
      return (this.generatorError = `gen.ts did not finish within ${GENERATOR_TIMEOUT_MS / 1000} s (${error instanceof Error ? error.message : String(error)})`);
    } finally {
      worker.stop();
    }
  }

  /** One interleaved run of stage N-1, the draft and the reference, judged by the exercise's rule. */
  /** Stage N-1 and the reference, compiled once for the page: their files never change, whatever the draft does. */
  private compiledStages(): Promise<{ previous: Program; reference: Program }> {
    this.stages ??= (async () => {
      const previous = await compile(this.previousModels, { id: this.previous.id, title: `Stage ${this.previous.index}`, requires: this.previous.requires });
      const reference = await compile(this.referenceModels, { id: this.reference.id, title: `Stage ${this.reference.index} (the reference)`, requires: this.reference.requires });
      if (!previous.ok || !reference.ok) throw new Error('a stage of the lesson itself did not compile');
      return { previous: previous.program, reference: reference.program };
    })();
    // A compile that failed (the TypeScript worker lost, say) is tried again on the next press.
    this.stages.catch(() => (this.stages = null));
    return this.stages;
  }

  private async measure(sandbox: Sandbox, workspace: Workspace, program: Program, sizes: number[], rounds: number, signal: AbortSignal): Promise<ExerciseVerdict | null> {
    const { previous, reference } = await this.compiledStages();
    const results = await measurePrograms(
      sandbox,
      { programs: [program, previous, reference], sizes, rounds, timeBoxMs: exerciseTimeBoxMs(rounds), extras: [] },
      (progress) => (this.progress = progress),
      (partial) => (this.results = partial),
      signal,
    );
    this.results = results;
    // A size the time box stopped keeps the samples it took, and they are judged like the rest.
    const samples = (id: string, size: number) => results.runs.find((r) => r.contestant === id && r.size === size && (r.status === 'ok' || r.status === 'timeboxed'))?.nsPerOp ?? [];
    const cells: ExerciseCell[] = sizes.map((size) => ({ size, previous: samples(this.previous.id, size), draft: samples(DRAFT_ID, size), reference: samples(this.reference.id, size) }));
    // A draft that went wrong while timed (a wrong digest on the changing input, a throw) has failed, whatever its speed.
    const broken = results.runs.find((r) => r.contestant === DRAFT_ID && r.status === 'failed');
    if (broken) {
      this.timedFailure = `at ${formatSize(broken.size)}: ${broken.reason ?? 'it failed'}`;
      return null;
    }
    const missing = cells.find((c) => c.draft.length < 2 || c.previous.length < 2 || c.reference.length < 2);
    if (missing) {
      const failed = results.runs.find((r) => r.size === missing.size && r.status !== 'ok');
      throw new Error(`no verdict at ${missing.size} bytes: ${failed?.reason ?? 'too few samples to compare'}`);
    }
    return judgeExercise(cells);
  }

  /**
   * Tries shorter inputs (the block and chunk edges below the failing length) in the
   * sandbox. Each is the check's own pseudo-random input of that length, compared with
   * @noble/hashes, so "the first 1 KiB hash right" means a 1 KiB input hashes right.
   */
  private async whereItBreaks(sandbox: Sandbox, program: Program, length: number, signal: AbortSignal): Promise<string> {
    const worker = sandbox.startWorker([program]);
    try {
      return await whereItBreaks(length, async (n) => {
        const step: CheckStep = { kind: 'differential', length: n };
        try {
          return (await worker.call((core) => core.check(program.id, step), { timeoutMs: 4_000, signal })).ok;
        } catch {
          return false;
        }
      });
    } finally {
      worker.stop();
    }
  }

  cancel(): void {
    this.controller?.abort();
  }

  dispose(): void {
    this.cancel();
    this.sandboxes.close();
  }
}
