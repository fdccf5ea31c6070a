// The Go compiler's account of one Go stage, as scripts/go-evidence.ts captures it and
// the generated go/<stage>/evidence.json files hold it (checked when read: stored.ts); the
// Go track's pages read it.

import { checked, count, fields, flag, list, stamp, text, type Fields } from './stored.ts';

export const GO_GENERATOR = 'scripts/go-evidence.ts';

export interface InlineDecision {
  line: number;
  column: number;
  function: string;
  inlinable: boolean;
  cost: number | null;
  budget: number | null;
  /** The compiler's reason when it refuses, e.g. "function too complex: cost 104 exceeds budget 80". */
  reason?: string;
}
export interface Located {
  line: number;
  column: number;
}
export interface GoEvidence {
  /** Go release and target the lines come from, e.g. "go1.26 linux/amd64". */
  toolchain: string;
  file: string;
  inlining: InlineDecision[];
  /** Call sites the compiler inlined, one entry per line and callee. */
  inlinedCalls: (Located & { callee: string })[];
  /** Bounds checks left in the code: IsInBounds (an index) or IsSliceInBounds (a slice expression). */
  boundsChecks: (Located & { kind: string })[];
  /** Values the compiler moves to the heap. */
  heap: (Located & { what: string })[];
  /** Calls to the runtime's memory clearing routine, by line. */
  memclr: { line: number; routine: string }[];
  /** Size of each function's amd64 machine code in bytes, from the assembly listing. */
  machineCode: { function: string; bytes: number }[];
}

const place = (f: Fields, path: string) => ({ line: count(f.line, `${path}.line`), column: count(f.column, `${path}.column`) });
const orNull = (value: unknown, path: string) => (value === null ? null : count(value, path));

function inlineDecision(value: unknown, path: string): InlineDecision {
  const f = fields(value, path, ['line', 'column', 'function', 'inlinable', 'cost', 'budget'], ['reason']);
  const decision: InlineDecision = {
    ...place(f, path),
    function: text(f.function, `${path}.function`),
    inlinable: flag(f.inlinable, `${path}.inlinable`),
    cost: orNull(f.cost, `${path}.cost`),
    budget: orNull(f.budget, `${path}.budget`),
  };
  if (f.reason !== undefined) decision.reason = text(f.reason, `${path}.reason`);
  return decision;
}

/** A list of `{line, column, <name>: text}` entries (inlined calls, bounds checks, heap moves). */
function placed<K extends string>(name: K) {
  return (value: unknown, path: string) => {
    const f = fields(value, path, ['line', 'column', name]);
    return { ...place(f, path), [name]: text(f[name], `${path}.${name}`) } as { line: number; column: number } & Record<K, string>;
  };
}

/** The checked evidence of a go/<step>/evidence.json file's parsed JSON; `file` names it in a refusal. */
export function readGoEvidence(json: unknown, file: string): GoEvidence {
  return checked(file, () => {
    const f = fields(json, '', ['generated', 'about', 'toolchain', 'file', 'inlining', 'inlinedCalls', 'boundsChecks', 'heap', 'memclr', 'machineCode']);
    stamp(f, GO_GENERATOR);
    return {
      toolchain: text(f.toolchain, 'toolchain'),
      file: text(f.file, 'file'),
      inlining: list(f.inlining, 'inlining', inlineDecision),
      inlinedCalls: list(f.inlinedCalls, 'inlinedCalls', placed('callee')),
      boundsChecks: list(f.boundsChecks, 'boundsChecks', placed('kind')),
      heap: list(f.heap, 'heap', placed('what')),
      memclr: list(f.memclr, 'memclr', (value, path) => {
        const m = fields(value, path, ['line', 'routine']);
        return { line: count(m.line, `${path}.line`), routine: text(m.routine, `${path}.routine`) };
      }),
      machineCode: list(f.machineCode, 'machineCode', (value, path) => {
        const m = fields(value, path, ['function', 'bytes']);
        return { function: text(m.function, `${path}.function`), bytes: count(m.bytes, `${path}.bytes`) };
      }),
    };
  });
}
