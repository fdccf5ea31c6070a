// The Go compiler's account of one Go stage, as scripts/go-evidence.ts captures it and
// the generated go/<stage>/evidence.ts files hold it; the Go track's pages read it.

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
