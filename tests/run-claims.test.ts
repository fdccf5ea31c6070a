// Sentences of the lesson that say what a committed run shows, each held against the run
// it reads: the two-engine run (data/engines/), the native run (data/native/), the stored
// profiles (data/profiles/) and the Go compiler's evidence (go/*/evidence.json). Where a
// sentence's word follows the data it is a `{placeholder}` (engine-figures.ts,
// native-figures.ts, committed-steps.ts); where the sentence itself is the claim, it is
// listed here with what must hold for it to be true. A new committed run that turns one
// false fails here with the file and the sentence; each sentence must still be in its
// file, so a rewrite cannot leave its check behind.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import type { StageProfile, StoredProfiles } from '../src/core/profile/profile.ts';
import { cellKey } from '../src/core/results/analysis/model.ts';
import { engineStepModels, stepEffect } from '../src/app/ui/lesson/committed-steps.ts';
import { engineFigures } from '../src/app/story/engine-figures.ts';
import { loadTimedBlocks, loadTimedIn, nativeRun, type NativeRun } from '../src/app/story/native-figures.ts';
import { readEnginesRun } from '../src/app/ui/results/engines-run.ts';
import { ARTICLE_FACTS } from '../src/app/ui/lesson/article-facts.ts';
import { experimentsFor } from '../src/app/ui/lesson/experiments.ts';
import { readGoRun, stepRows as goStepRows } from '../src/app/go/measured.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const LARGE = [64 * KiB, 256 * KiB, MiB];

const json = (path: string): unknown => JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'));
/** The data file a module of the app imports, so a new committed run is the one checked. */
function importedRun(module: string, folder: string): string {
  const name = new RegExp(`from '[./]*/(${folder}/[^']+\\.json)'`).exec(readFileSync(new URL(`../${module}`, import.meta.url), 'utf8'))?.[1];
  if (!name) throw new Error(`${module} imports no file of ${folder}/`);
  return name;
}
const ENGINES_FILE = importedRun('src/app/ui/results/engines-run.ts', 'data/engines');
const NATIVE_FILE = importedRun('src/app/story/native-figures.ts', 'data/native');

/** Everything the claims read, so a test can hand them a changed copy. */
export interface Runs {
  engines: unknown;
  native: unknown;
  profiles: (id: string, bytes: number) => StageProfile;
  goHeap: (id: string) => string[];
  /** A stage's V8 heap figures (data/v8/), bytes allocated a hash at 1 KiB and 1 MiB. */
  heap: (id: string) => { kib: number; mib: number };
  /** The committed Go benchmark runs (data/go/*.txt), each by its file name. */
  goRuns: Record<string, string>;
}

interface Read {
  models: ReturnType<typeof engineStepModels>;
  native: NativeRun;
  runs: Runs;
}

const committed: Runs = {
  engines: json(ENGINES_FILE),
  native: json(NATIVE_FILE),
  profiles: (id, bytes) => {
    const found = (json(`data/profiles/${id}.json`) as StoredProfiles).profiles.find((p) => p.inputBytes === bytes);
    if (!found) throw new Error(`data/profiles/${id}.json has no profile at ${bytes} bytes`);
    return found;
  },
  goHeap: (id) => (json(`go/${id}/evidence.json`) as { heap: { what: string }[] }).heap.map((h) => h.what),
  heap: (id) => {
    const { heap } = json(`data/v8/${id}.json`) as { heap: { kib: { bytesPerHash: number }; mib: { bytesPerHash: number } } };
    return { kib: heap.kib.bytesPerHash, mib: heap.mib.bytesPerHash };
  },
  goRuns: Object.fromEntries(
    readdirSync(new URL('../data/go/', import.meta.url))
      .filter((name) => name.endsWith('.txt'))
      .map((name) => [name, readFileSync(new URL(`../data/go/${name}`, import.meta.url), 'utf8')]),
  ),
};

/** Every committed Go run's step from `previous` to `id`, one list of rows per run. */
function goSteps(read: Read, previous: string, id: string) {
  return Object.entries(read.runs.goRuns).map(([name, text]) => {
    const check = readGoRun(text);
    if (!check.ok) throw new Error(`data/go/${name}: ${check.error}`);
    return goStepRows(check.run, previous, id);
  });
}
/** The talk's benchstat table for a Go stage's step (data/go/talk-tables.json). */
const talkStep = (id: string) => (json('data/go/talk-tables.json') as { steps: { stage: string; time: { delta: string; p: string }[] }[] }).steps.find((s) => s.stage === id)!;

/** One engine's median MB/s of `to` over `from` at `size`. */
function ratio(read: Read, engine: string, from: string, to: string, size: number): number {
  const throughput = read.models.find((m) => m.runtime.id === engine)!.model.throughput;
  return throughput.get(cellKey(to, size))!.center / throughput.get(cellKey(from, size))!.center;
}
const ratios = (read: Read, engine: string, from: string, to: string, sizes: number[]) => sizes.map((size) => ratio(read, engine, from, to, size));

/** Percent of a profile's samples in one function's own code. */
function share(read: Read, id: string, bytes: number, name: string): number {
  const profile = read.runs.profiles(id, bytes);
  return (100 * (profile.functions.find((f) => f.name === name)?.selfSamples ?? 0)) / profile.samples;
}
/** The functions of a profile, most samples first. */
const ranked = (read: Read, id: string, bytes: number) => [...read.runs.profiles(id, bytes).functions].sort((a, b) => b.selfSamples - a.selfSamples).map((f) => f.name);

const step = (read: Read, engine: string, stage: string, size: number) => stepEffect(read.models, engine, stage, size);
const article = (id: string) => ARTICLE_FACTS.find((f) => f.id === id)!.figure!;

interface Claim {
  file: string;
  /** The sentence, or the part of it that makes the claim, as the file writes it. */
  says: string;
  holds: (read: Read) => boolean;
}

export const CLAIMS: Claim[] = [
  {
    file: 'content/stages/00-reference.md',
    says: 'doubling the input quadruples the time',
    holds: (r) => {
      // A hash of twice the bytes at the speed measured there: how much longer it took.
      const speed = (size: number) => r.models.find((m) => m.runtime.id === 'chromium')!.model.throughput.get(cellKey('00-reference', size))!.center;
      const growth = (2 * speed(32 * KiB)) / speed(64 * KiB);
      return growth > 3 && growth < 5;
    },
  },
  {
    file: 'content/stages/00-reference.md',
    says: 'The stored profile at 64 KiB gives almost all the time to `chunkChainingValue`, not to `g`, where the arithmetic is; at 1 KiB the two are close.',
    holds: (r) => share(r, '00-reference', 64 * KiB, 'chunkChainingValue') > 80 && Math.abs(share(r, '00-reference', KiB, 'chunkChainingValue') - share(r, '00-reference', KiB, 'g')) < 15,
  },
  {
    file: 'content/stages/01-read-words-full.md',
    says: 'After this step `g` tops the profile, with a far larger share than in stage 0 at 64 KiB.',
    holds: (r) => ranked(r, '01-read-words-full', 64 * KiB)[0] === 'g' && share(r, '01-read-words-full', 64 * KiB, 'g') > 5 * share(r, '00-reference', 64 * KiB, 'g'),
  },
  {
    file: 'content/stages/02-precomputed-permutations.md',
    says: "yet the garbage collector's row has moved up the profile",
    holds: (r) => ranked(r, '02-precomputed-permutations', 64 * KiB).indexOf('(garbage collector)') < ranked(r, '01-read-words-full', 64 * KiB).indexOf('(garbage collector)'),
  },
  {
    file: 'content/stages/02-precomputed-permutations.md',
    says: "The collector's row moves up because `permute`'s own row is gone",
    holds: (r) => ranked(r, '01-read-words-full', 64 * KiB).includes('permute') && !ranked(r, '02-precomputed-permutations', 64 * KiB).includes('permute'),
  },
  {
    file: 'content/stages/03-inline-round.md',
    says: "`compress` grew by more than `round`'s share: it took `round`'s samples and some of `g`'s",
    holds: (r) =>
      share(r, '03-inline-round', 64 * KiB, 'compress') - share(r, '02-precomputed-permutations', 64 * KiB, 'compress') > share(r, '02-precomputed-permutations', 64 * KiB, 'round') &&
      share(r, '03-inline-round', 64 * KiB, 'g') < share(r, '02-precomputed-permutations', 64 * KiB, 'g'),
  },
  {
    file: 'content/stages/04-state-locals.md',
    says: '`g` has vanished from the profile, and `compress` holds most of the time.',
    holds: (r) => !ranked(r, '04-state-locals', 64 * KiB).includes('g') && share(r, '04-state-locals', 64 * KiB, 'compress') > 50,
  },
  {
    file: 'content/stages/05-no-copies.md',
    says: 'so whatever the allocations cost, it was not most of stage 4’s time',
    holds: (r) => Math.max(...ratios(r, 'chromium', '04-state-locals', '05-no-copies', [96, 512, KiB, 32 * KiB, ...LARGE])) < 2,
  },
  {
    file: 'content/stages/05-no-copies.md',
    says: "Stage 4's profile gave the garbage collector only a small share",
    holds: (r) => [KiB, 64 * KiB].every((size) => share(r, '04-state-locals', size, '(garbage collector)') < 10),
  },
  {
    file: 'content/stages/05-no-copies.md',
    says: "the heap per hash falls far more than the collector's row would suggest",
    holds: (r) => r.runs.heap('05-no-copies').mib < r.runs.heap('04-state-locals').mib / 10 && share(r, '04-state-locals', 64 * KiB, '(garbage collector)') < 10,
  },
  {
    file: 'content/stages/06-message-locals.md',
    says: 'Longer code, and faster: how?',
    holds: (r) => ratios(r, 'chromium', '05-no-copies', '06-message-locals', [96, 512, KiB, 32 * KiB, ...LARGE]).every((x) => x > 1),
  },
  {
    file: 'content/stages/07-reuse-buffers.md',
    says: 'Even at 96 B it is small',
    holds: (r) => !step(r, 'chromium', '07-reuse-buffers', 96).measurable,
  },
  {
    file: 'content/stages/07-reuse-buffers.md',
    says: "V8's report shows stage 7 allocating less per hash than stage 6",
    holds: (r) => r.runs.heap('07-reuse-buffers').kib < r.runs.heap('06-message-locals').kib,
  },
  {
    file: 'content/stages/08-little-endian.md',
    says: 'far apart from each other. Both fall short of the article’s {article-stage8-vs-wasm}×.',
    holds: (r) => {
      const range = (engine: string) => ratios(r, engine, 'blake3-wasm', '08-little-endian', [KiB, 32 * KiB, ...LARGE]);
      const [chromium, firefox] = [range('chromium'), range('firefox')];
      const apart = Math.max(...chromium) < Math.min(...firefox) || Math.max(...firefox) < Math.min(...chromium);
      return apart && [...chromium, ...firefox].every((x) => x < article('stage8-vs-wasm'));
    },
  },
  {
    file: 'content/stages/08-little-endian.md',
    says: 'In the profile `compress` now has nearly all the time and `hashInput` a sliver.',
    holds: (r) => share(r, '08-little-endian', 64 * KiB, 'compress') > 85 && share(r, '08-little-endian', 64 * KiB, 'hashInput') < 10,
  },
  {
    file: 'content/stages/09-simd-wasm.md',
    says: 'That is more than the article’s step.',
    holds: (r) => Math.min(...ratios(r, 'chromium', '08-little-endian', '09-simd-wasm', LARGE)) > STAGES[9].articleSpeedup!,
  },
  {
    file: 'content/stages/09-simd-wasm.md',
    says: 'but at {stage9-vs-wasm-1k} at 1 KiB, where too few chunks exist to fill four lanes',
    holds: (r) => ratio(r, 'chromium', 'blake3-wasm', '09-simd-wasm', KiB) < Math.min(...ratios(r, 'chromium', 'blake3-wasm', '09-simd-wasm', LARGE)),
  },
  {
    file: 'content/stages/09-simd-wasm.md',
    says: 'The step pays on large inputs only',
    holds: (r) => {
      const large = step(r, 'chromium', '09-simd-wasm', 64 * KiB);
      const small = [96, KiB].map((size) => step(r, 'chromium', '09-simd-wasm', size));
      return large.measurable && large.ratio > 1 && small.every((s) => !s.measurable || s.ratio < 1);
    },
  },
  {
    file: 'content/stages/09-simd-wasm.md',
    says: 'At 64 KiB the hot function is `compress4x`, in WebAssembly; at 1 KiB it is still JavaScript\'s `compress`.',
    holds: (r) => ranked(r, '09-simd-wasm', 64 * KiB)[0] === 'compress4x' && ranked(r, '09-simd-wasm', KiB)[0] === 'compress',
  },
  {
    file: 'content/stages/10-simd-one-block.md',
    says: 'in the two committed runs quoted below, one of them on an AMD EPYC, the loads chose differently',
    holds: (r) => loadTimedBlocks(r.native).kept !== loadTimedIn(readEnginesRun(r.runs.engines), 'data/engines').kept,
  },
  {
    file: 'content/stages/10-simd-one-block.md',
    says: 'Two loads, two choices, and by different margins.',
    holds: (r) => {
      const [native, engines] = [loadTimedBlocks(r.native), loadTimedIn(readEnginesRun(r.runs.engines), 'data/engines')];
      const margin = (t: { rows: number; words: number }) => Math.max(t.rows, t.words) / Math.min(t.rows, t.words);
      return native.kept !== engines.kept && margin(native) !== margin(engines);
    },
  },
  {
    file: 'content/stages/10-simd-one-block.md',
    says: "At 1 KiB the profile's hot function is now `compress1xRows`, in the module.",
    holds: (r) => ranked(r, '10-simd-one-block', KiB)[0] === 'compress1xRows',
  },
  {
    file: 'content/stages/11-every-core.md',
    says: "Stage 11's profile at 1 KiB looks just like stage 10's.",
    holds: (r) => ranked(r, '11-every-core', KiB).slice(0, 2).join() === ranked(r, '10-simd-one-block', KiB).slice(0, 2).join(),
  },
  {
    file: 'content/stages/11-every-core.md',
    says: 'Two cores are not 2× even for work that shares nothing',
    holds: (r) => {
      const [at4, at16] = [4 * MiB, 16 * MiB].map((size) => r.native.rows.find((row) => row.size === size)!);
      return [at4, at16].every((row) => row.threads! / row.best! < 2 && row.stage11! / row.stage10! < 2);
    },
  },
  {
    file: 'content/stages/11-every-core.md',
    says: 'Medians of rounds spread over minutes mix stretches with and without the second core',
    holds: (r) => {
      const samples = r.native.results.runs.filter((run) => run.contestant === '11-every-core' && run.size === 16 * MiB).flatMap((run) => run.nsPerOp);
      return samples.length > 0 && Math.max(...samples) > 1.5 * Math.min(...samples);
    },
  },
  {
    file: 'content/engines.md',
    says: 'Every engine rewards that',
    holds: (r) => ['chromium', 'firefox'].every((engine) => [KiB, 64 * KiB].every((size) => step(r, engine, '04-state-locals', size).measurable && step(r, engine, '04-state-locals', size).ratio > 1)),
  },
  {
    file: 'content/go/00-baseline.md',
    says: "The compiler's report for this stage says `g` costs more than the inliner's budget.",
    holds: () => {
      const g = (json('go/00-baseline/evidence.json') as { inlining: { function: string; inlinable: boolean; cost: number; budget: number }[] }).inlining.find((f) => f.function === 'g');
      return g !== undefined && !g.inlinable && g.cost > g.budget;
    },
  },
  {
    file: 'content/go/03-arrays.md',
    says: "the compiler's list of values moved to the heap is the same after this step",
    holds: (r) => r.runs.goHeap('02-bounds-checks').join('\n') === r.runs.goHeap('03-arrays').join('\n'),
  },
  {
    file: 'content/go/03-arrays.md',
    says: "Nothing new stays off the heap: the compiler's list of values moved to the heap is the same as at stage 2.",
    holds: (r) => r.runs.goHeap('02-bounds-checks').join('\n') === r.runs.goHeap('03-arrays').join('\n'),
  },
  {
    file: 'content/go/04-memclr.md',
    says: "A step that paid a few percent in the talk and nothing measurable in this track's runs",
    holds: (r) => {
      const talk = talkStep('04-memclr').time;
      const gained = talk.every((row) => row.delta.startsWith('-') && Number.parseFloat(row.delta) > -10 && /p=0\.0[0-4]/.test(row.p));
      const runs = goSteps(r, '03-arrays', '04-memclr');
      return gained && runs.length > 0 && runs.every((rows) => rows.length > 0 && rows.every((row) => !row.comparison.significant));
    },
  },
  {
    file: 'content/teach.md',
    says: "(a step that paid in the talk and not in this track's runs)",
    holds: (r) => goSteps(r, '03-arrays', '04-memclr').every((rows) => rows.every((row) => !row.comparison.significant)),
  },
  {
    file: 'content/go/05-reuse-buffers.md',
    says: '8 bytes gains most: the allocation costs the same at every size, so it weighs most where the hash is shortest, and at 1 KiB and 8 KiB it is too small a share to tell from noise.',
    holds: (r) =>
      goSteps(r, '04-memclr', '05-reuse-buffers').every((rows) =>
        rows.every((row) => (row.benchmark === 'Hash8Bytes' ? row.comparison.significant && row.new.center < row.old.center : !row.comparison.significant)),
      ),
  },
  {
    file: 'content/go/05-reuse-buffers.md',
    says: "The benchmark's allocs/op column (it reports allocations) drops to none",
    holds: (r) => goSteps(r, '04-memclr', '05-reuse-buffers').every((rows) => rows.length > 0 && rows.every((row) => row.allocs !== null && row.allocs.old > 0 && row.allocs.new === 0)),
  },
  {
    file: 'content/measure.md',
    says: "that build's speed from 1 KiB to 1 MiB: short of the article's at every size",
    holds: (r) => ratios(r, 'chromium', 'blake3-wasm', '08-little-endian', [KiB, 32 * KiB, ...LARGE]).every((x) => x < article('stage8-vs-wasm')),
  },
  {
    file: 'content/intro.md',
    says: 'stage 10 finds that a faster-looking instruction set is not always the faster one',
    holds: (r) => [loadTimedBlocks(r.native), loadTimedIn(readEnginesRun(r.runs.engines), 'data/engines')].some((load) => load.kept === 'the 32-bit code'),
  },
  {
    file: 'content/stages/01-read-words-full.md',
    says: 'which is why no single ratio describes this step: the gain grows with the input',
    holds: (r) => ['chromium', 'firefox'].every((engine) => {
      const gains = ratios(r, engine, '00-reference', '01-read-words-full', [KiB, 32 * KiB, 64 * KiB, 256 * KiB]);
      return gains.every((gain, i) => i === 0 || gain > gains[i - 1]);
    }),
  },
  {
    file: 'content/stages/07-reuse-buffers.md',
    says: '- A change that barely pays.',
    holds: (r) => ['chromium', 'firefox'].every((engine) => [96, KiB, 64 * KiB, MiB].every((size) => !step(r, engine, '07-reuse-buffers', size).measurable)),
  },
];

/** What to check the claims on: the runs read as the lesson reads them. */
function readRuns(runs: Runs): Read {
  return { models: engineStepModels(runs.engines), native: nativeRun(runs.native), runs };
}

/** Every listed sentence the runs make false, as "file: “sentence”". */
export function falseClaims(runs: Runs, claims: Claim[] = CLAIMS): string[] {
  const read = readRuns(runs);
  return claims.filter((claim) => !claim.holds(read)).map((claim) => `${claim.file}: “${claim.says}”`);
}

const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('sentences about the committed runs', () => {
  it('each listed sentence is still in its file', () => {
    const missing = CLAIMS.filter((claim) => !flat(readFileSync(new URL(`../${claim.file}`, import.meta.url), 'utf8')).includes(flat(claim.says)));
    expect(missing.map((c) => `${c.file}: ${c.says}`)).toEqual([]);
  });

  it('the committed runs make none of them false', () => {
    expect(falseClaims(committed)).toEqual([]);
  });

  it('a run that says otherwise fails, naming the sentence it turns false', () => {
    // Stage 9's samples at the large sizes in Chromium taken four times as long: its gain over stage 8 shrinks below the article's.
    const engines = structuredClone(committed.engines) as { runs: { contestant: string; engine: string; size: number; nsPerOp: number[] }[] };
    for (const run of engines.runs) if (run.contestant === '09-simd-wasm' && run.engine === 'chromium' && run.size >= 64 * KiB) run.nsPerOp = run.nsPerOp.map((ns) => ns * 4);
    expect(falseClaims({ ...committed, engines })).toContain('content/stages/09-simd-wasm.md: “That is more than the article’s step.”');

    // The native run's load keeping the rows, as the engines run's did: the stage 10 sentences say two
    // choices, and the front page that the 32-bit code won somewhere.
    const native = structuredClone(committed.native) as { contestants: { id: string; note?: string }[] };
    const stage10 = native.contestants.find((c) => c.id === '10-simd-one-block')!;
    stage10.note = 'hashes single blocks with its SIMD rows (compress1xRows), the faster when it loaded: 70 ns a block against 90 for its 32-bit words (compress1xWords)';
    expect(falseClaims({ ...committed, native })).toEqual([
      'content/stages/10-simd-one-block.md: “in the two committed runs quoted below, one of them on an AMD EPYC, the loads chose differently”',
      'content/stages/10-simd-one-block.md: “Two loads, two choices, and by different margins.”',
      'content/intro.md: “stage 10 finds that a faster-looking instruction set is not always the faster one”',
    ]);

    // A profile where the collector kept its place.
    const profiles: Runs['profiles'] = (id, bytes) => {
      const profile = committed.profiles(id, bytes);
      if (id !== '02-precomputed-permutations') return profile;
      return { ...profile, functions: profile.functions.map((f) => (f.name === '(garbage collector)' ? { ...f, selfSamples: 0 } : f)) };
    };
    expect(falseClaims({ ...committed, profiles })).toContain('content/stages/02-precomputed-permutations.md: “yet the garbage collector\'s row has moved up the profile”');
  });
});

describe('words the placeholders compute from the runs', () => {
  it('stage 5: the sides of stage 4 follow the run, so no size slower than stage 4 is called faster', () => {
    expect(engineFigures()['stage5-vs-stage4-chromium-word']).toBe('below it at 96 B, above it at the other sizes');
    const engines = structuredClone(committed.engines) as { runs: { contestant: string; engine: string; size: number; nsPerOp: number[] }[] };
    for (const run of engines.runs) if (run.contestant === '05-no-copies' && run.engine === 'chromium') run.nsPerOp = run.nsPerOp.map((ns) => ns * 3);
    expect(engineFigures(engines)['stage5-vs-stage4-chromium-word']).toBe('below it at every size');
  });

  it('stage 7: its 96 B step is read from the run, figures and words', () => {
    const figures = engineFigures();
    const effect = stepEffect(engineStepModels(), 'chromium', '07-reuse-buffers', 96);
    expect(figures['stage7-vs-stage6-96b']).toBe(`${effect.ratio.toFixed(2)}× stage 6 at 96 B (p = ${effect.p.toFixed(2)})`);
    expect(figures['stage7-vs-stage6-96b-word']).toBe(effect.measurable ? (effect.ratio > 1 ? 'measurably faster' : 'measurably slower') : 'not measurably faster or slower');
  });

  it('stage 10: both loads are quoted from their runs, with the code each kept', () => {
    const figures = engineFigures();
    const engines = loadTimedIn(readEnginesRun(), 'data/engines');
    expect([figures['engines-load-rows-ns'], figures['engines-load-words-ns'], figures['engines-load-kept']]).toEqual([engines.rows, engines.words, engines.kept]);
    expect(engines.kept).toBe(engines.rows < engines.words ? 'the rows' : 'the 32-bit code');
  });

  it('the experiments expect what the committed run measured, and quote it', () => {
    const models = engineStepModels();
    const allocate = experimentsFor(STAGES[7]).find((e) => e.id === 'allocate-again')!;
    const at96 = stepEffect(models, 'chromium', '07-reuse-buffers', 96);
    expect(allocate.expect).toContain(`stage 7 was ${at96.ratio.toFixed(2)}× stage 6 at 96 B`);
    expect(allocate.expect).not.toMatch(/1\.27/);
    if (!at96.measurable) expect(allocate.expect).toContain('could not tell the two apart at 96 B');
    for (const stage of STAGES) {
      const undo = experimentsFor(stage).find((e) => e.id === 'undo');
      if (!undo) continue;
      const effect = stepEffect(models, 'chromium', stage.id, stage.id === '10-simd-one-block' ? KiB : 64 * KiB);
      const expected = !effect.measurable ? 'could not tell the two apart' : effect.ratio > 1 ? 'come out slower' : 'may come out faster';
      expect(undo.expect, stage.id).toContain(expected);
    }
  });
});
