// The playground's sandbox worker, all but its entry: the bench worker's core
// (bench-core.ts: the same verification, warm-up, calibration and timing) serving
// compiled stages instead of the registry's: the learner's draft, the original stage
// and the stage before it, all compiled by the same compiler and linked here the same
// way, so the comparison is fair. It also checks a draft against the official vectors
// and the independent implementation, one input per call, so a draft that hangs on one
// input is stopped on that input.
import { createBenchCore } from '../bench/bench-core.ts';
import type { Contestant, ContestantHasher } from '../bench/contestants.ts';
import { BLAKE3_WASM } from '../../../steps/baseline-info.ts';
import type { VectorCase } from '../vectors.ts';
import { linkOrder, NODE_ONLY, rewriteImports, type Program } from './link.ts';

/** What a generator's Node-only tail imports in the sandbox (link.ts, NODE_ONLY), should it ever run there. */
const NODE_ONLY_MODULE = "throw new Error(\"Node's own modules (node:fs, node:url) are not in the sandbox: only a generator's generate() runs here\");";
import { checkDigest, checkInput, type CheckOutcome, type CheckStep } from './checks.ts';

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * The clock the sandbox times with, taken before any program runs: a draft that replaces
 * performance.now (or Date.now) changes what later lookups find, never this copy. Such a
 * draft is refused all the same, with a message that says so, since its numbers would
 * not be what it meant to show.
 */
const clock = performance.now.bind(performance);
const CLOCKS = [
  { name: 'performance.now', read: () => performance.now, original: performance.now },
  { name: 'Date.now', read: () => Date.now, original: Date.now },
];

function replacedClock(): string | undefined {
  return CLOCKS.find((c) => c.read() !== c.original)?.name;
}

/** Links a program's modules as blob: URLs, dependencies first, and imports its entry. */
async function importProgram(program: Program): Promise<Record<string, unknown>> {
  const files = Object.keys(program.modules);
  const urls = new Map<string, string>([[NODE_ONLY, URL.createObjectURL(new Blob([NODE_ONLY_MODULE], { type: 'text/javascript' }))]]);
  for (const file of linkOrder(program)) {
    const js = rewriteImports(program.modules[file], file, files, (name) => urls.get(name)!);
    // The file name in a comment: error stacks then point at something recognisable.
    const blob = new Blob([`${js}\n//# sourceURL=${program.id}/${file}\n`], { type: 'text/javascript' });
    urls.set(file, URL.createObjectURL(blob));
  }
  return (await import(/* @vite-ignore */ urls.get(program.entry)!)) as Record<string, unknown>;
}

/** A program whose entry exports hash(), checked not to have replaced a clock. */
async function loadProgram(program: Program): Promise<ContestantHasher> {
  const module = await importProgram(program);
  if (typeof module.hash !== 'function') {
    throw new Error(`${program.entry} must export a function hash(input: Uint8Array): Uint8Array`);
  }
  const replaced = replacedClock();
  if (replaced) throw new Error(`${program.title} replaces ${replaced}, a clock the benchmark reads; the lab times with a copy taken before your code ran, so this cannot change a measurement: take it out`);
  return module as unknown as ContestantHasher;
}

/** What a stage's generator (gen.ts) wrote, by file name, or why it could not. */
export type GeneratorOutcome = { ok: true; files: Record<string, string> } | { ok: false; message: string };

/**
 * Runs a compiled generator: its generate() gives the text it writes to each file its
 * OUTPUT_FILE or OUTPUT_FILES names in its own folder ("./compress.ts"; copies it keeps in
 * other stages' folders are not this draft's). Its tail that writes the files runs only
 * under Node, where `process` exists, so importing it here writes nothing.
 */
async function runGenerator(program: Program): Promise<GeneratorOutcome> {
  let module: Record<string, unknown>;
  try {
    module = await importProgram(program);
  } catch (error) {
    return { ok: false, message: `gen.ts could not be loaded: ${describeError(error)}` };
  }
  const named = module.OUTPUT_FILES ?? [module.OUTPUT_FILE];
  const outputs = (Array.isArray(named) ? named : []).filter((f): f is string => typeof f === 'string' && /^\.\/[\w.-]+\.ts$/.test(f));
  if (typeof module.generate !== 'function' || outputs.length === 0) {
    return { ok: false, message: 'gen.ts must export generate(), which returns the text of the file it writes, and OUTPUT_FILE (or OUTPUT_FILES), which names it, like "./compress.ts"' };
  }
  let text: unknown;
  try {
    text = (module.generate as () => unknown)();
  } catch (error) {
    return { ok: false, message: `generate() threw: ${describeError(error)}` };
  }
  if (typeof text !== 'string') return { ok: false, message: `generate() returned ${typeof text}, not the text of ${outputs[0].slice(2)}` };
  return { ok: true, files: Object.fromEntries(outputs.map((file) => [file.slice(2), text])) };
}

/** What the sandbox needs from outside: the vector file, the independent hash, blake3-wasm. */
export interface SandboxDeps {
  vectors: readonly VectorCase[];
  oracle: (input: Uint8Array) => Uint8Array;
  loadBlake3Wasm: () => Promise<ContestantHasher>;
}

/** The sandbox worker's calls: the bench core over the compiled programs, and check(). */
export function servePrograms(programs: Program[], deps: SandboxDeps) {
  const contestants = new Map<string, Contestant>();
  for (const program of programs) {
    contestants.set(program.id, {
      id: program.id,
      title: program.title,
      kind: 'stage',
      oracle: 'blake3',
      requires: program.requires,
      version: program.id,
      files: [],
      load: () => loadProgram(program),
    });
  }
  contestants.set(BLAKE3_WASM.id, {
    ...BLAKE3_WASM,
    kind: 'baseline',
    oracle: 'blake3',
    files: [],
    load: deps.loadBlake3Wasm,
  });
  // Code a learner typed is timed on inputs that change between calls (bench/batch-timer.ts).
  const core = createBenchCore({ resolve: (id) => contestants.get(id), now: clock, varyInputs: true });
  const byId = new Map(programs.map((program) => [program.id, program]));
  const loaded = new Map<string, Promise<ContestantHasher>>();

  return {
    ...core,
    /** Runs the program `id` as a stage's generator: the files it writes, or why it could not. */
    async generate(id: string): Promise<GeneratorOutcome> {
      const program = byId.get(id);
      return program ? runGenerator(program) : { ok: false, message: `unknown program "${id}"` };
    },

    /** One correctness check of a program, never timed; a throw or wrong digest comes back as data. */
    async check(id: string, step: CheckStep): Promise<CheckOutcome> {
      const contestant = contestants.get(id);
      if (!contestant) return { ok: false, message: `unknown program "${id}"` };
      if (!loaded.has(id)) loaded.set(id, contestant.load());
      let hasher: ContestantHasher;
      try {
        hasher = await loaded.get(id)!;
      } catch (error) {
        return { ok: false, message: `could not load: ${describeError(error)}` };
      }
      const { input, expected, label } = checkInput(step, deps.vectors, deps.oracle);
      let digest: unknown;
      try {
        digest = await hasher.hash(input);
      } catch (error) {
        return { ok: false, label, message: `threw: ${describeError(error)}` };
      }
      return checkDigest(label, digest, expected);
    },
  };
}

export type PlaygroundCore = ReturnType<typeof servePrograms>;
