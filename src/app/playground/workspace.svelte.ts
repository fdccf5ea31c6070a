// The files being edited for one stage: a Monaco model per file for the draft and one
// for the original, which edits, resets, the diff, drafts and share links all work on.
// TypeScript sees the models under folder-like URIs (/playground/<stage>/draft/...),
// so "./compress.ts" in the draft resolves to the draft's compress.ts, and the original
// beside it to its own.

import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { Stage } from '../../../steps/index.ts';
import type { MonacoApi } from '../ui/code/monaco.ts';
import { isGeneratedText, loadSource } from '../ui/code/sources.ts';
import { readDraft, writeDraft } from './drafts.ts';

export interface WorkspaceFile {
  name: string;
  /** Repo-relative path of the original. */
  path: string;
  /** Written by a generator (the registry's list, confirmed from the text). */
  generated: boolean;
  /** Shown but not edited (an exercise's given files and a generator's output). */
  readOnly: boolean;
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Monaco models for a stage's original files; created once, shared by workspaces and runs. */
export async function originalModels(monaco: MonacoApi, stage: Stage): Promise<Map<string, Monaco.editor.ITextModel>> {
  const models = new Map<string, Monaco.editor.ITextModel>();
  for (const path of stage.files) {
    const uri = monaco.Uri.parse(`file:///playground/${stage.id}/original/${baseName(path)}`);
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(await loadSource(path), 'typescript', uri);
    models.set(baseName(path), model);
  }
  return models;
}

export class Workspace {
  readonly files: WorkspaceFile[];
  /** Names of the files that differ from the original. */
  edited = $state.raw<ReadonlySet<string>>(new Set());
  /** The file shown in the editor. */
  selected = $state('');
  /** A place the editor should scroll to and put the cursor (an error the learner clicked). */
  target = $state.raw<{ file: string; line: number; column: number } | null>(null);
  /** Why the draft could not be saved, if it could not. */
  saveError = $state<string | null>(null);
  readonly models = new Map<string, Monaco.editor.ITextModel>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners: Monaco.IDisposable[] = [];
  private readonly releasers = new Set<() => void>();

  /**
   * `initial` holds the changed files to start from (a saved draft, a shared variant, an
   * experiment); `persist` says whether edits are saved as this stage's draft; `readOnly`
   * names the files shown but not edited (an exercise's).
   */
  constructor(
    monaco: MonacoApi,
    readonly stage: Stage,
    readonly originals: Map<string, Monaco.editor.ITextModel>,
    initial: Record<string, string>,
    private persist: boolean,
    readOnly: ReadonlySet<string> = new Set(),
  ) {
    this.files = stage.files.map((path) => ({
      name: baseName(path),
      path,
      generated: stage.generated.includes(path) || isGeneratedText(originals.get(baseName(path))!.getValue()),
      readOnly: readOnly.has(baseName(path)),
    }));
    for (const file of this.files) {
      const uri = monaco.Uri.parse(`file:///playground/${stage.id}/draft/${file.name}`);
      monaco.editor.getModel(uri)?.dispose();
      const text = initial[file.name] ?? originals.get(file.name)!.getValue();
      const model = monaco.editor.createModel(text, 'typescript', uri);
      this.models.set(file.name, model);
      this.listeners.push(model.onDidChangeContent(() => this.changed()));
    }
    this.edited = this.diffNames();
    // Open on what changed: an experiment or a shared variant shows its edit first; else on the first file to edit.
    this.selected = this.files.find((f) => this.edited.has(f.name) && !f.readOnly)?.name ?? this.files.find((f) => !f.readOnly)?.name ?? this.files[0].name;
  }

  /** Shows `file` at `line`:`column` in the editor. */
  reveal(file: string, line: number, column: number): void {
    this.selected = file;
    this.target = { file, line, column };
  }

  private diffNames(): Set<string> {
    return new Set(this.files.filter((f) => this.models.get(f.name)!.getValue() !== this.originals.get(f.name)!.getValue()).map((f) => f.name));
  }

  private changed(): void {
    this.edited = this.diffNames();
    if (!this.persist) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.save(), 300);
  }

  /** Writes the draft now (edits are saved a moment after typing stops anyway). */
  save(): void {
    clearTimeout(this.saveTimer);
    if (this.persist) this.saveError = writeDraft(this.stage.id, this.changedFiles());
  }

  /** From now on, edits are this stage's draft (a shared variant the learner keeps). */
  keepAsDraft(): void {
    this.persist = true;
    this.save();
  }

  get persisted(): boolean {
    return this.persist;
  }

  /** The files that differ from the original, by name. */
  changedFiles(): Record<string, string> {
    return Object.fromEntries([...this.edited].map((name) => [name, this.models.get(name)!.getValue()]));
  }

  /** Puts `files` (by name) in the editor; the others go back to the original. */
  replaceAll(files: Record<string, string>): void {
    for (const file of this.files) {
      const text = files[file.name] ?? this.originals.get(file.name)!.getValue();
      const model = this.models.get(file.name)!;
      if (model.getValue() !== text) model.setValue(text);
    }
    this.save();
  }

  reset(): void {
    this.replaceAll({});
  }

  /**
   * Calls `release` before the models are disposed, and returns what cancels that. The
   * page opening another stage disposes this workspace while the editor still shows it,
   * and a diff editor must let go of its models first (Monaco reports it otherwise).
   */
  onDispose(release: () => void): () => void {
    this.releasers.add(release);
    return () => this.releasers.delete(release);
  }

  dispose(): void {
    this.save();
    for (const release of this.releasers) release();
    for (const listener of this.listeners) listener.dispose();
    for (const model of this.models.values()) model.dispose();
  }
}

/** The saved draft of a stage, by file name: only the files that differ. */
export function savedDraft(stage: Stage): Record<string, string> {
  return readDraft(stage.id) ?? {};
}
