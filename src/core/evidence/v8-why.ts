// What each JavaScript stage's page says with V8's evidence (data/v8/): the rows of its
// table set against the stage before, and the figure behind each stage's "why" with its
// sentence filled in (the sentence itself is the stage's Markdown's). Apart from the
// data's shape (v8-evidence.ts), so that editing the page leaves the stored evidence as
// it was made (src/node/evidence-inputs.ts).

import type { StageProfile } from '../profile/profile.ts';
import { deoptCount, negligible, type V8Evidence } from './v8-evidence.ts';

/**
 * The stage's hot function, as its stored profile names it: the JavaScript function of the
 * stage's own files with the most self time. From stage 9 on WebAssembly takes most of
 * the time; the table's last row counts it. (The largest function TurboFan compiled is
 * not it: in stage 11 that is the runtime assembler, which runs once, at load.)
 */
export function hotFunction(profile: StageProfile | undefined): string | undefined {
  return profile?.functions.find((f) => f.kind === 'js' && f.file.startsWith('steps/'))?.name;
}

/** The table's cell for the hot function `name` in one stage's evidence: its bytecode and machine code. */
export function hotFunctionFigure(evidence: V8Evidence, name: string | undefined): string {
  if (name === undefined) return '–';
  // A function compiled in a worker too is listed again as "name #2": the first is the calling thread's.
  const traced = evidence.functions.find((f) => f.name === name);
  return traced ? `${name}: ${traced.bytecodeBytes} B, ${traced.machineCodeBytes ?? '–'} B` : `${name}: not compiled`;
}

/** The rows of the stage page's table (src/app/story/EngineEvidence.svelte), in its order: what a stage's "why" may mark. */
export const FIGURE_ROWS = ['kib', 'mib', 'gcs', 'turbofan', 'only', 'deopts', 'kernel', 'wasm'] as const;
export type FigureRow = (typeof FIGURE_ROWS)[number];

export interface EvidenceRow {
  id: FigureRow;
  label: string;
  now: string;
  /** The stage before's value; undefined on stage 0. */
  then: string | undefined;
}

const bytes = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toPrecision(2)} MB` : n >= 1e3 ? `${(n / 1e3).toPrecision(2)} kB` : `${n} B`;
const heapText = (e: V8Evidence, size: 'kib' | 'mib') =>
  `${bytes(e.heap[size].bytesPerHash)}${negligible(e.heap[size]) && e.heap[size].bytesPerHash > 0 ? ' (next to nothing)' : ''}`;
const optimized = (e: V8Evidence) => e.functions.filter((f) => f.optimizedAtEnd).length;
/** The functions `a` compiled and `b` did not ("#2" copies of a second thread count as their first). */
const onlyIn = (a: V8Evidence, b: V8Evidence) => {
  const base = (name: string) => name.replace(/ #\d+$/, '');
  const theirs = new Set(b.functions.map((f) => base(f.name)));
  const mine = [...new Set(a.functions.map((f) => base(f.name)))].filter((name) => !theirs.has(name));
  return mine.length > 0 ? mine.join(', ') : 'none';
};

/**
 * The stage page's table: this stage's figures beside the stage before's; `hot` is the
 * function this stage's stored profile finds hottest (hotFunction()). The row of
 * functions only one of the two compiled needs a stage before, so stage 0 has none.
 */
export function evidenceRows(now: V8Evidence, before: V8Evidence | undefined, hot?: string): EvidenceRow[] {
  const row = (id: FigureRow, label: string, value: (e: V8Evidence) => string): EvidenceRow => ({
    id,
    label,
    now: value(now),
    then: before ? value(before) : undefined,
  });
  return [
    row('kib', 'JS heap allocated per 1 KiB hash', (e) => heapText(e, 'kib')),
    row('mib', 'JS heap allocated per 1 MiB hash', (e) => heapText(e, 'mib')),
    row('gcs', 'garbage collections per 1 MiB hash', (e) => String(e.heap.mib.gcsPerHash)),
    row('turbofan', 'functions in TurboFan code at the end', (e) => `${optimized(e)} of ${e.functions.length}`),
    ...(before
      ? [{ id: 'only' as const, label: 'functions compiled here and not in the other stage', now: onlyIn(now, before), then: onlyIn(before, now) }]
      : []),
    row('deopts', 'deoptimizations while hashing', (e) => String(deoptCount(e))),
    row('kernel', 'hottest JS function at 64 KiB (profile): bytecode, machine code', (e) => hotFunctionFigure(e, hot)),
    row('wasm', 'WebAssembly machine code (TurboFan)', (e) => (e.wasmCode ? e.wasmCode.map((n) => `${n} B`).join(' + ') : 'none')),
  ];
}

/**
 * The figure that backs a stage's "why", and what it says: written in the stage's own
 * Markdown (content/stages/<id>.md: `v8Why:` in its front matter, the sentence under
 * `# What V8 reports {#v8-why}`). `{then}` and `{now}` are the row's values for the stage
 * before and this one; they differ, unless `same` says the point is that they do not.
 */
export interface V8Why {
  row?: FigureRow;
  same?: true;
  says: string;
}

/** A stage's "why" figure as the page says it: its sentence with the marked row's values filled in. */
export function whyText(why: V8Why | undefined, rows: EvidenceRow[]): string {
  const key = rows.find((row) => row.id === why?.row);
  return (why?.says ?? '').replace('{then}', key?.then ?? '–').replace('{now}', key?.now ?? '–');
}
