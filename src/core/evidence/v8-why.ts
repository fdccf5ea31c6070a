// What each JavaScript stage's page says with V8's evidence (data/v8/): the rows of its
// table set against the stage before, the figure behind each stage's "why", and that
// sentence. Apart from the data's shape (v8-evidence.ts), so that editing the lesson's
// words leaves the stored evidence as it was made (src/node/evidence-inputs.ts).

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

/** A row of the stage page's table (src/app/story/EngineEvidence.svelte). */
export type FigureRow = 'kib' | 'mib' | 'gcs' | 'turbofan' | 'only' | 'deopts' | 'kernel' | 'wasm';

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
 * The figure that backs each stage's "why", and what it says. `{then}` and `{now}` are
 * the row's values for the stage before and this one; they differ, unless `same` says
 * the point is that they do not.
 */
export const WHY_FIGURE: { row?: FigureRow; same?: true; says: string }[] = [
  { row: 'gcs', says: 'The baseline allocates on every block: a 1 MiB hash keeps the garbage collector busy {now} times.' },
  { row: 'mib', same: true, says: 'Allocation is not what changed ({then} and {now} per 1 MiB hash): the time stage 0 lost went into reading bytes, which allocates nothing.' },
  { row: 'mib', says: '`permute()` and its copies are gone: a 1 MiB hash allocates {then} before, {now} after.' },
  { row: 'turbofan', says: '`round()` is no longer a function of its own: TurboFan compiles {then} functions before, {now} after.' },
  { row: 'kernel', says: 'Every `g` written out with the state in locals: the bytecode of `compress` grows almost fourfold while its machine code stays the same size ({then} before, {now} after: bytecode, then machine code), and its state array is gone from the heap.' },
  { row: 'mib', says: '`compress` allocates nothing any more: {then} per 1 MiB hash before, {now} after, and the collector no longer runs.' },
  { row: 'kernel', says: 'Seven written-out rounds: the bytecode grows about six times ({then} before, {now} after), the machine code far less.' },
  { row: 'kib', says: 'The buffers are reused: a 1 KiB hash allocates {then} before, {now} after; at 1 MiB the difference hardly shows.' },
  { row: 'only', says: 'The byte-to-word reader drops out: only stage 7 compiles `{then}`. On this little-endian machine the words come straight from the view; stage 8 compiles `{now}` instead, the old `hash` behind the check that picks the view or the copy.' },
  { row: 'wasm', says: 'The four-lane compression is WebAssembly now ({now} of machine code), outside what TurboFan reports for JavaScript.' },
  { row: 'wasm', says: 'The one-block compressions join `compress4x` in the modules: {then} of WebAssembly machine code before, {now} after.' },
  { says: 'In the trace a 1 MiB hash ran on two threads, because the trace fixes the pool’s size (as the stage loads it measures from which size its pool pays, and may hash 1 MiB on one): the pool worker compiles its own copies of the functions (listed as “#2”).' },
];

/** A stage's "why" figure as the page says it: its sentence with the marked row's values filled in. */
export function whyText(why: (typeof WHY_FIGURE)[number] | undefined, rows: EvidenceRow[]): string {
  const key = rows.find((row) => row.id === why?.row);
  return (why?.says ?? '').replace('{then}', key?.then ?? '–').replace('{now}', key?.now ?? '–');
}
