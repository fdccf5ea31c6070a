// The playground's worker. It runs inside the sandbox page (src/app/playground/sandbox-page.html),
// in an opaque origin, started from a blob: URL holding this file's bundle, so it must be
// one self-contained module: no chunks, no imports left at run time.
//
// It is the bench worker's core (bench-core.ts, the same verification, warm-up,
// calibration and timing) serving compiled stages instead of the registry's: the
// learner's draft, the original stage and the stage before it, all compiled by the
// same compiler and linked here the same way, so the comparison is fair. It also
// checks a draft against the official vectors and the independent implementation, one
// input per call, so a draft that hangs on one input is stopped on that input.

import { expose } from 'comlink';
import { blake3 } from '@noble/hashes/blake3.js';
import * as blake3WasmGlue from 'blake3-wasm/dist/wasm/web/blake3_js.js';
import blake3WasmDataUrl from 'blake3-wasm/dist/wasm/web/blake3_js_bg.wasm?url&inline';
import { createBenchCore } from '../src/core/bench/bench-core.ts';
import type { Contestant, ContestantHasher } from '../src/core/bench/contestants.ts';
import { decodeDataUrl } from '../steps/baselines.ts';
import { BLAKE3_WASM } from '../steps/blake3-wasm-info.ts';
import { linkOrder, rewriteImports, type Program } from '../src/core/playground/link.ts';
import { checkDigest, checkInput, type CheckOutcome, type CheckStep } from '../src/core/playground/checks.ts';
import vectorFile from '../data/blake3-vectors.json';

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Links a program's modules as blob: URLs, dependencies first, and imports its entry. */
async function loadProgram(program: Program): Promise<ContestantHasher> {
  const files = Object.keys(program.modules);
  const urls = new Map<string, string>();
  for (const file of linkOrder(program)) {
    const js = rewriteImports(program.modules[file], file, files, (name) => urls.get(name)!);
    // The file name in a comment: error stacks then point at something recognisable.
    const blob = new Blob([`${js}\n//# sourceURL=${program.id}/${file}\n`], { type: 'text/javascript' });
    urls.set(file, URL.createObjectURL(blob));
  }
  const module = (await import(/* @vite-ignore */ urls.get(program.entry)!)) as { hash?: unknown };
  if (typeof module.hash !== 'function') {
    throw new Error(`${program.entry} must export a function hash(input: Uint8Array): Uint8Array`);
  }
  return module as ContestantHasher;
}

async function loadBlake3Wasm(): Promise<ContestantHasher> {
  await blake3WasmGlue.default(decodeDataUrl(blake3WasmDataUrl));
  return {
    hash(input) {
      const out = new Uint8Array(32);
      blake3WasmGlue.hash(input, out);
      return out;
    },
  };
}

function serve(programs: Program[]) {
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
    load: loadBlake3Wasm,
  });
  const core = createBenchCore({ resolve: (id) => contestants.get(id) });
  const loaded = new Map<string, Promise<ContestantHasher>>();

  return {
    ...core,
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
      const { input, expected, label } = checkInput(step, vectorFile.cases, blake3);
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

export type PlaygroundCore = ReturnType<typeof serve>;

// The sandbox page sends one message: the programs to serve and the port to the app.
addEventListener(
  'message',
  (event: MessageEvent<{ type: 'init'; programs: Program[] }>) => {
    const port = event.ports[0];
    if (event.data?.type !== 'init' || !port) return;
    expose(serve(event.data.programs), port);
  },
  { once: true },
);
