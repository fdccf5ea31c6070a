// The state of one "Check and measure": compile, check, measure, judge, each step's
// outcome kept for the panel to show, and a cancel that stops whatever is running. The
// sandbox is started on the first run and kept for the page's life, or started again by
// the next run when it did not load (src/app/playground/sandbox-keeper.ts).

import type { Progress } from '../../core/bench/runner.ts';
import type { Results } from '../../core/bench/results.ts';
import { STAGES } from '../../../steps/index.ts';
import { BLAKE3_WASM } from '../../../steps/baseline-info.ts';
import type { MonacoApi } from '../ui/code/monaco.ts';
import { compile, type CompileError } from './compiler.ts';
import type { Program } from '../../core/playground/link.ts';
import { Sandbox } from './sandbox.ts';
import { SandboxKeeper } from './sandbox-keeper.ts';
import { checkProgram, measurePrograms, type CheckReport } from './check-and-measure.ts';
import { judge, type Verdict } from './verdict.ts';
import { originalModels, type Workspace } from './workspace.svelte.ts';

export const DRAFT_ID = 'draft';

export interface RunOptions {
  sizes: number[];
  rounds: number;
  withPrevious: boolean;
  withWasm: boolean;
}

export type Phase = 'idle' | 'compiling' | 'checking' | 'measuring' | 'done';

/**
 * Why a stage cannot run in the sandbox, or null. A stage that starts workers of its
 * own needs a worker script at a URL of the app, which an opaque origin cannot load.
 */
export function sandboxLimitation(stageIndex: number, texts: readonly string[]): string | null {
  if (texts.some((text) => /\bnew\s+(Shared)?Worker\s*\(/.test(text))) {
    return `Stage ${stageIndex} starts Web Workers of its own. The playground's sandbox cannot: a worker needs a script from this site, and the sandbox may load nothing from it. You can edit, compare and share this stage here; measure it on the Benchmark page.`;
  }
  return null;
}

export class PlaygroundRun {
  phase = $state<Phase>('idle');
  compileErrors = $state.raw<CompileError[]>([]);
  checked = $state.raw<{ done: number; total: number } | null>(null);
  checkReport = $state.raw<CheckReport | null>(null);
  progress = $state.raw<Progress | null>(null);
  results = $state.raw<Results | null>(null);
  verdict = $state.raw<Verdict | null>(null);
  error = $state<string | null>(null);
  /** The learner pressed Cancel during the last run. */
  cancelled = $state(false);
  /** Titles of the contestants of the last run, by id. */
  titles = $state.raw<Record<string, string>>({});
  private controller: AbortController | null = null;
  private readonly sandboxes = new SandboxKeeper(() => new Sandbox());

  get running(): boolean {
    return this.phase !== 'idle' && this.phase !== 'done';
  }

  async start(monaco: MonacoApi, workspace: Workspace, options: RunOptions): Promise<void> {
    if (this.running) return;
    const controller = (this.controller = new AbortController());
    this.compileErrors = [];
    this.checkReport = null;
    this.checked = null;
    this.progress = null;
    this.results = null;
    this.verdict = null;
    this.error = null;
    this.cancelled = false;
    const stage = workspace.stage;
    try {
      this.phase = 'compiling';
      workspace.save();
      const draft = await compile(workspace.models, { id: DRAFT_ID, title: 'Your draft', requires: stage.requires });
      if (!draft.ok) {
        this.compileErrors = draft.errors;
        return;
      }
      this.phase = 'checking';
      const sandbox = await this.sandboxes.ready();
      this.checkReport = await checkProgram(sandbox, draft.program, (done, total) => (this.checked = { done, total }), controller.signal);
      if (!this.checkReport.ok) return;

      this.phase = 'measuring';
      const programs: Program[] = [draft.program];
      const original = await compile(workspace.originals, { id: stage.id, title: `Stage ${stage.index} as it is`, requires: stage.requires });
      if (!original.ok) throw new Error(`stage ${stage.index} itself did not compile: ${original.errors[0].message}`);
      programs.push(original.program);
      const previous = STAGES[stage.index - 1];
      if (options.withPrevious && previous) {
        const compiled = await compile(await originalModels(monaco, previous), { id: previous.id, title: `Stage ${previous.index}`, requires: previous.requires });
        if (compiled.ok) programs.push(compiled.program);
      }
      const extras = options.withWasm ? [BLAKE3_WASM.id] : [];
      this.titles = Object.fromEntries([...programs.map((p) => [p.id, p.title]), [BLAKE3_WASM.id, BLAKE3_WASM.title]]);
      const results = await measurePrograms(
        sandbox,
        { programs, sizes: options.sizes, rounds: options.rounds, extras },
        (progress) => (this.progress = progress),
        (partial) => (this.results = partial),
        controller.signal,
      );
      this.results = results;
      this.verdict = judge(results, DRAFT_ID, stage.id, `stage ${stage.index}`);
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      this.phase = 'done';
      if (this.controller === controller) this.controller = null;
    }
  }

  cancel(): void {
    if (this.controller) this.cancelled = true;
    this.controller?.abort();
  }

  dispose(): void {
    this.cancel();
    this.sandboxes.close();
  }
}
