// What the Go track shows: the compiler evidence and the committed benchmark run, both
// bundled (no Go toolchain needed to read the track), and a run the reader imports
// from `npm run bench:go` on their own machine, which then takes the committed one's place.

import { readGoEvidence, type GoEvidence } from '../../core/evidence/go-evidence.ts';
import { readGoRun, type GoRun } from './measured.ts';
import { GO_STAGES } from './stages.ts';

const EVIDENCE = import.meta.glob<unknown>('/go/*/evidence.json', { import: 'default', eager: true });
const SOURCES = import.meta.glob<string>('/go/*/blake2s.go', { query: '?raw', import: 'default' });
const COMMITTED = import.meta.glob<string>('/data/go/*.txt', { query: '?raw', import: 'default', eager: true });

/** The compiler's evidence for every stage, in stage order, each file checked as it is read. */
export const goEvidence: GoEvidence[] = GO_STAGES.map((stage) => {
  const path = `go/${stage.id}/evidence.json`;
  const evidence = EVIDENCE[`/${path}`];
  if (!evidence) throw new Error(`${path} is missing: run npm run gen`);
  return readGoEvidence(evidence, path);
});

/** The Go source of a stage, loaded when first shown. */
export function loadGoSource(id: string): Promise<string> {
  const load = SOURCES[`/go/${id}/blake2s.go`];
  return load ? load() : Promise.reject(new Error(`go/${id}/blake2s.go is not bundled`));
}

export interface ShownRun {
  source: 'committed' | 'imported';
  /** File name, e.g. "bench-2026-11-23-vm.txt". */
  name: string;
  run: GoRun;
}

/**
 * Whose run a card shows, for its heading: a committed run was measured on another
 * machine, and a teacher must not take it for theirs.
 * "Committed run (vm, Intel Xeon @ 2.80GHz)", "Your run (laptop)".
 */
export function whoseRun(shown: ShownRun): string {
  const machine = shown.run.machine ?? shown.run.cpu;
  const where = machine ? ` (${machine})` : '';
  return shown.source === 'imported' ? `Your run${where}` : `Committed run${where}`;
}

/** The newest committed run (file names start with the date). */
function committedRun(): ShownRun | null {
  const [path, text] = Object.entries(COMMITTED).sort(([a], [b]) => a.localeCompare(b)).at(-1) ?? [];
  if (!path || text === undefined) return null;
  const check = readGoRun(text);
  if (!check.ok) throw new Error(`${path}: ${check.error}`);
  return { source: 'committed', name: path.slice(path.lastIndexOf('/') + 1), run: check.run };
}

/** Larger than any real run (ten rounds are about 30 KB); refuses to read a wrong file whole. */
const MAX_BYTES = 4 << 20;

class GoRuns {
  readonly committed = committedRun();
  imported = $state.raw<ShownRun | null>(null);
  error = $state<string | null>(null);

  get shown(): ShownRun | null {
    return this.imported ?? this.committed;
  }

  async importFile(file: File): Promise<void> {
    this.error = null;
    if (file.size > MAX_BYTES) {
      this.error = `${file.name} is ${Math.round(file.size / 1024)} KiB: a Go benchmark run of these stages is far smaller. Choose the file npm run bench:go wrote.`;
      return;
    }
    const check = readGoRun(await file.text());
    if (!check.ok) {
      this.error = `${file.name} could not be read: ${check.error}`;
      return;
    }
    this.imported = { source: 'imported', name: file.name, run: check.run };
  }

  forget(): void {
    this.imported = null;
    this.error = null;
  }
}

export const goRuns = new GoRuns();
