// The one list of stages, in lesson order. The tests, the app, the command-line bench
// and outside checkers all find the stages here and nowhere else: registering a stage
// is what puts it under test and on screen.

import type { OneBlockChoice } from './10-simd-one-block/blake3.ts';
import type { ThreadUse } from './11-every-core/blake3.ts';

export type { OneBlockChoice, ThreadUse };

/** What every stage and every baseline module exports. */
export interface Hasher {
  /** BLAKE3 (or, for the SHA-256 baseline, SHA-256) of `input`: a fresh 32-byte digest. */
  hash(input: Uint8Array): Uint8Array;
  /**
   * Stages 0 to 10: the chaining value of `input` as one part of a larger input whose first
   * chunk is chunk number `counter` (a complete subtree or the last part, never the root),
   * for the file page, whose workers each hash their own parts of a file.
   */
  chainingValue?(input: Uint8Array, counter: number): Uint8Array;
  /** Stage 11 only: how many threads it hashes large inputs on, or why only one. */
  threadUse?(): ThreadUse;
  /** Stage 10 only: which of its two one-block codes it chose, and the timings that chose it. */
  oneBlockChoice?(): OneBlockChoice;
}

export interface Stage {
  /** Folder name under steps/, sorts in lesson order: "04-state-locals". */
  id: string;
  /** Position in the lesson, from 0: its place in STAGES. */
  index: number;
  /** Short title for lists and charts. */
  title: string;
  /** The one technique this stage adds over the previous one. */
  technique: string;
  /** Repo-relative source files; the first is the entry. Same names across stages so diffs pair by path. */
  files: string[];
  /** Files written by a generator (a subset of `files`), shown marked as generated. */
  generated: string[];
  /** The article's published speedup over the previous stage, where it gave one. */
  articleSpeedup: number | null;
  /** A capability the stage needs beyond plain JavaScript. */
  requires?: 'wasm-simd';
  /** Hashes large inputs on several threads, which a page has only when cross-origin isolated (else on one). */
  threads?: true;
  /** Why the playground cannot open this stage, for one it cannot: its sandbox links a stage's own files only. */
  playgroundUnavailable?: string;
  /** For a stage that writes WebAssembly: the name its module's text (its `wat()`) is shown under. */
  watFile?: string;
  load(): Promise<Hasher>;
}

const ENTRY = 'blake3.ts';

function files(id: string, extra: string[] = []): string[] {
  return [ENTRY, ...extra].map((name) => `steps/${id}/${name}`);
}

/** The lesson's order is the list's: a stage's index is its position, never typed. */
export const STAGES: Stage[] = ([
  {
    id: '00-reference',
    title: 'Reference port',
    technique: 'A direct transcription of the reference algorithm, with its quadratic word reader.',
    files: files('00-reference'),
    generated: [],
    articleSpeedup: null,
    load: () => import('./00-reference/blake3.ts'),
  },
  {
    id: '01-read-words-full',
    title: 'Full-block word reader',
    technique: 'A second word reader with no length checks, used for every full 64-byte block.',
    files: files('01-read-words-full'),
    generated: [],
    articleSpeedup: null,
    load: () => import('./01-read-words-full/blake3.ts'),
  },
  {
    id: '02-precomputed-permutations',
    title: 'Precomputed permutations',
    technique: 'Compute the message access order of all 7 rounds once instead of permuting every block.',
    files: files('02-precomputed-permutations'),
    generated: [],
    articleSpeedup: 1.6,
    load: () => import('./02-precomputed-permutations/blake3.ts'),
  },
  {
    id: '03-inline-round',
    title: 'Inline round into compress',
    technique: 'Fold round() into compress() as a 7-iteration loop over one flat 112-entry order table.',
    files: files('03-inline-round'),
    generated: [],
    articleSpeedup: 1.24,
    load: () => import('./03-inline-round/blake3.ts'),
  },
  {
    id: '04-state-locals',
    title: 'State in local variables',
    technique: 'Keep the 16 state words in locals s0..s15, with every g() call generated inline.',
    files: files('04-state-locals', ['compress.ts', 'gen.ts']),
    generated: ['steps/04-state-locals/compress.ts'],
    articleSpeedup: 2.2,
    load: () => import('./04-state-locals/blake3.ts'),
  },
  {
    id: '05-no-copies',
    title: 'No copies',
    technique: 'compress reads and writes at offsets into caller-owned arrays; the CV stack is one Uint32Array.',
    files: files('05-no-copies', ['compress.ts', 'gen.ts']),
    generated: ['steps/05-no-copies/compress.ts'],
    articleSpeedup: 3,
    load: () => import('./05-no-copies/blake3.ts'),
  },
  {
    id: '06-message-locals',
    title: 'Message in local variables',
    technique: 'Load the block into locals m0..m15 and permute by reassigning along the cycles.',
    files: files('06-message-locals', ['compress.ts', 'gen.ts']),
    generated: ['steps/06-message-locals/compress.ts'],
    articleSpeedup: 1.5,
    load: () => import('./06-message-locals/blake3.ts'),
  },
  {
    id: '07-reuse-buffers',
    title: 'Reuse buffers',
    technique: 'Keep the block buffer and the CV stack at module level and reuse them across calls.',
    files: files('07-reuse-buffers', ['compress.ts']),
    generated: ['steps/07-reuse-buffers/compress.ts'],
    articleSpeedup: 1.023,
    load: () => import('./07-reuse-buffers/blake3.ts'),
  },
  {
    id: '08-little-endian',
    title: 'Little-endian fast path',
    technique: 'On little-endian machines read block words straight from a Uint32Array view of the input.',
    files: files('08-little-endian', ['compress.ts']),
    generated: ['steps/08-little-endian/compress.ts'],
    articleSpeedup: 1.48,
    load: () => import('./08-little-endian/blake3.ts'),
  },
  {
    id: '09-simd-wasm',
    title: 'SIMD WebAssembly',
    technique: 'Generate a tiny SIMD WebAssembly module at runtime that hashes whole subtrees, four chunks or parents at once.',
    files: files('09-simd-wasm', ['compress.ts', 'compress4x.ts', 'wasm.ts', 'gen.ts']),
    generated: ['steps/09-simd-wasm/compress.ts', 'steps/09-simd-wasm/compress4x.ts'],
    articleSpeedup: 1.39,
    requires: 'wasm-simd',
    watFile: 'compress4x.wat',
    load: () => import('./09-simd-wasm/blake3.ts'),
  },
  {
    id: '10-simd-one-block',
    title: 'One block in the module',
    technique: 'Inputs of a chunk or less, the last chunks and the parents hashed in the WebAssembly module too, one block at a time.',
    files: files('10-simd-one-block', ['compress.ts', 'compress4x.ts', 'compress1x.ts', 'wasm.ts', 'gen.ts', 'gen-wasm.ts']),
    generated: [
      'steps/10-simd-one-block/compress.ts',
      'steps/10-simd-one-block/compress4x.ts',
      'steps/10-simd-one-block/compress1x.ts',
      'steps/10-simd-one-block/wasm.ts',
    ],
    articleSpeedup: null,
    requires: 'wasm-simd',
    watFile: 'modules.wat',
    // Times its two one-block codes here, so the synchronous hash() uses the faster one from the start.
    load: async () => {
      const stage = await import('./10-simd-one-block/blake3.ts');
      await stage.chooseOneBlockCode();
      return stage;
    },
  },
  {
    id: '11-every-core',
    title: 'Every core',
    technique: 'Hash large inputs on every core, all in one shared WebAssembly memory: the calling thread copies the input in, each thread hashes whole subtrees (a worker from a copy in its own staging), and the calling thread merges their chaining values.',
    // worker.node.mjs, the three-line entry of a Node worker thread, is left out: the
    // app's code view and the bench's stage versions read the .ts files.
    files: files('11-every-core', ['split.ts', 'subtree.ts', 'job.ts', 'pool.ts', 'worker.ts', 'compress4x.ts', 'wasm.ts', 'gen.ts', 'gen-wasm.ts']),
    generated: ['steps/11-every-core/compress4x.ts', 'steps/11-every-core/wasm.ts'],
    articleSpeedup: null,
    requires: 'wasm-simd',
    threads: true,
    // The pool's module on its shared memory, then stage 10's, which hash below the threshold.
    watFile: 'modules.wat',
    playgroundUnavailable:
      "Stage 11 builds on stage 10's files where they are, in stage 10's folder, and starts worker threads of its own; the playground links and runs one folder's files in one sandbox. Try stage 10 here, and measure stage 11 on the Benchmark page.",
    // The pool starts here, asynchronously, so the synchronous hash() never waits for a thread.
    load: async () => {
      const stage = await import('./11-every-core/blake3.ts');
      await stage.start();
      return stage;
    },
  },
] satisfies Omit<Stage, 'index'>[]).map((stage, index) => ({ ...stage, index }));

/** Look a stage up by id; undefined when there is none. */
export function stageById(id: string): Stage | undefined {
  return STAGES.find((stage) => stage.id === id);
}
