// The Go compiler's own account of each Go stage, captured as data the app shows beside
// the code: which functions it can inline (with cost and budget), which calls it
// inlined, every bounds check it could not prove away, what escapes to the heap, where
// it calls the runtime's memclr, and how many bytes of machine code each function
// became. `npm run gen` writes go/<stage>/evidence.json, which every reader checks
// (readGoEvidence); tests/evidence/go-again.test.ts fails when that file no
// longer matches the code.
//
// The build is pinned to linux/amd64 (a cross build works on any host) and only the
// toolchain's major.minor is recorded, so the output depends on the code and the Go
// release, not on the machine or the folder it runs in.

import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GO_GENERATOR, readGoEvidence, type GoEvidence, type InlineDecision, type Located } from '../src/core/evidence/go-evidence.ts';
import { formatStored, generatedBy } from '../src/core/evidence/stored.ts';

export const GO_DIR = fileURLToPath(new URL('../go/', import.meta.url));
const GENERATOR = GO_GENERATOR;
const SOURCE = 'blake2s.go';

/** The Go stages: folders of go/ named like the JS stages ("00-baseline"). */
export function goStageDirs(): string[] {
  return readdirSync(GO_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d\d-[a-z0-9-]+$/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

const ENV = { ...process.env, GOOS: 'linux', GOARCH: 'amd64', CGO_ENABLED: '0', GOTOOLCHAIN: 'local', GOFLAGS: '-mod=readonly' };

/** The oldest Go the module builds with (its go.mod says `go 1.22`). */
export const GO_MINIMUM = [1, 22] as const;

/** Why the Go parts cannot run here (no Go, or one older than GO_MINIMUM), or null when they can. */
export function goMissing(): string | null {
  const release = goRelease();
  if (release === null) return 'no Go toolchain on PATH (install Go 1.22 or later from https://go.dev/dl/)';
  const [major, minor] = release.replace(/^go/, '').split('.').map(Number);
  if (major < GO_MINIMUM[0] || (major === GO_MINIMUM[0] && minor < GO_MINIMUM[1])) {
    return `${release} is on PATH and the Go track needs Go ${GO_MINIMUM.join('.')} or later (https://go.dev/dl/)`;
  }
  return null;
}

/** "go1.26" when a Go toolchain is on PATH, null when not. */
export function goRelease(): string | null {
  try {
    const version = execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8', env: ENV }).trim();
    return /^go\d+\.\d+/.exec(version)?.[0] ?? version;
  } catch {
    return null;
  }
}

/** Runs `go build` with compiler flags and returns what the compiler printed (stderr). */
function runGoBuild(stage: string, gcflags: string): string {
  const result = spawnSync('go', ['build', '-o', '/dev/null', `-gcflags=${gcflags}`, `./${stage}`], {
    cwd: GO_DIR,
    encoding: 'utf8',
    env: ENV,
    maxBuffer: 64 << 20,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`go build ./${stage} failed:\n${result.stderr}`);
  return result.stderr;
}

/** Runs the compiler three ways for one stage and keeps the lines about its source file. */
export function stageEvidence(stage: string, release: string): GoEvidence {
  const lineOf = new RegExp(`^${stage}/${SOURCE.replace('.', '\\.')}:(\\d+):(\\d+): (.*)$`);
  const own = (text: string) =>
    text.split('\n').flatMap((line) => {
      const m = lineOf.exec(line);
      return m ? [{ line: Number(m[1]), column: Number(m[2]), message: m[3] }] : [];
    });
  const { inlining, inlinedCalls, heap } = readDecisions(own(runGoBuild(stage, '-m=2')));
  const boundsChecks = own(runGoBuild(stage, '-d=ssa/check_bce/debug=1')).flatMap(({ line, column, message }) => {
    const m = /^Found (Is\w*InBounds)$/.exec(message);
    return m ? [{ line, column, kind: m[1] }] : [];
  });
  const { memclr, machineCode } = readAssembly(stage, runGoBuild(stage, '-S'));
  const byPlace = (a: Located, b: Located) => a.line - b.line || a.column - b.column;
  return {
    toolchain: `${release} linux/amd64`,
    file: SOURCE,
    inlining: inlining.sort(byPlace),
    inlinedCalls: inlinedCalls.sort(byPlace),
    boundsChecks: boundsChecks.sort(byPlace),
    heap: heap.sort(byPlace),
    memclr: memclr.sort((a, b) => a.line - b.line),
    machineCode: machineCode.sort((a, b) => a.function.localeCompare(b.function)),
  };
}

/** What -m=2 decided: which functions may be inlined (and why not), the calls inlined, and what escapes to the heap. -m=2 prints each decision once, then the reasoning behind escapes on indented lines. */
function readDecisions(decisions: (Located & { message: string })[]) {
  const inlining: InlineDecision[] = [];
  const inlinedCalls: GoEvidence['inlinedCalls'] = [];
  const heap: GoEvidence['heap'] = [];
  for (const { line, column, message } of decisions) {
    let m = /^can inline (\S+) with cost (\d+) as:/.exec(message);
    if (m) {
      inlining.push({ line, column, function: m[1], inlinable: true, cost: Number(m[2]), budget: 80 });
      continue;
    }
    m = /^cannot inline (\S+): (.*)$/.exec(message);
    if (m) {
      const cost = /cost (\d+) exceeds budget (\d+)/.exec(m[2]);
      inlining.push({
        line,
        column,
        function: m[1],
        inlinable: false,
        cost: cost ? Number(cost[1]) : null,
        budget: cost ? Number(cost[2]) : null,
        reason: m[2],
      });
      continue;
    }
    m = /^inlining call to (\S+)$/.exec(message);
    if (m) {
      const callee = m[1];
      if (!inlinedCalls.some((c) => c.line === line && c.callee === callee)) inlinedCalls.push({ line, column, callee });
      continue;
    }
    m = /^(.*) escapes to heap$/.exec(message) ?? /^moved to heap: (.*)$/.exec(message);
    if (m && !heap.some((h) => h.line === line && h.column === column && h.what === m![1])) {
      heap.push({ line, column, what: m[1] });
    }
  }
  return { inlining, inlinedCalls, heap };
}

/**
 * The memclr calls and each function's size, from the assembly listing. It names the
 * source line of every instruction: "(…/blake2s.go:99)", and opens each function with its
 * size: "blake2slab/<stage>.compress STEXT size=1626 …".
 */
function readAssembly(stage: string, listing: string): Pick<GoEvidence, 'memclr' | 'machineCode'> {
  const memclr: GoEvidence['memclr'] = [];
  const machineCode: GoEvidence['machineCode'] = [];
  for (const text of listing.split('\n')) {
    const head = new RegExp(`^blake2slab/${stage}\\.(\\S+) STEXT.* size=(\\d+) `).exec(text);
    if (head && head[1] !== 'init') machineCode.push({ function: head[1], bytes: Number(head[2]) });
    const m = new RegExp(`/${stage}/${SOURCE.replace('.', '\\.')}:(\\d+)\\)\\s+CALL\\s+runtime\\.(memclr\\w*)\\(SB\\)`).exec(text);
    if (m && !memclr.some((c) => c.line === Number(m[1]))) memclr.push({ line: Number(m[1]), routine: `runtime.${m[2]}` });
  }
  return { memclr, machineCode };
}

/** The text of go/<stage>/evidence.json: JSON with one line per entry, so a diff of two runs shows which lines moved. */
export function evidenceFile(stage: string, evidence: GoEvidence): string {
  const about = `What the Go compiler (${evidence.toolchain}) reports about ${stage}/${SOURCE}: go build with -gcflags=-m=2 (inlining, escapes), -gcflags=-d=ssa/check_bce/debug=1 (bounds checks) and -S (memclr calls, code sizes).`;
  return formatStored({ generated: generatedBy(GENERATOR), about }, evidence, ['inlining', 'inlinedCalls', 'boundsChecks', 'heap', 'memclr', 'machineCode']);
}

/** Where a step's evidence is stored, repo-relative. */
export const evidencePath = (stage: string) => `go/${stage}/evidence.json`;

/** A step's stored evidence, checked (readGoEvidence). */
export function storedGoEvidence(stage: string): GoEvidence {
  return readGoEvidence(JSON.parse(readFileSync(new URL(`../${evidencePath(stage)}`, import.meta.url), 'utf8')), evidencePath(stage));
}

export interface GoGenerated {
  path: string;
  generator: string;
  text: string;
}

/** Every stage's evidence file, freshly computed; throws when Go is missing. */
export function generateGoEvidence(): GoGenerated[] {
  const missing = goMissing();
  if (missing !== null) throw new Error(missing);
  const release = goRelease()!;
  return goStageDirs().map((stage) => ({
    path: evidencePath(stage),
    generator: GENERATOR,
    text: evidenceFile(stage, stageEvidence(stage, release)),
  }));
}
