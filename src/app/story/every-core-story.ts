// Stage 11's story: past the article's last stage, on every core. Its own file because it
// is as long as two of the others and none of its figures is the article's. Native Rust's
// figures, and the stages' beside them, come from the committed --native run
// (src/app/story/native-figures.ts); the copy's cost from the timeline named in the text.

import { atSize, gbPerSec, msPerMiB, NATIVE_RUN, sampleRange, times } from './native-figures.ts';
import type { StageStory } from './story-types.ts';

const MiB = 1024 * 1024;
const { machine, browser, command, rounds, bestSimd, date } = NATIVE_RUN;
const at4 = atSize(4 * MiB);
const at16 = atSize(16 * MiB);
// What the timelines showed: prose, naming its command and machine (none of it is native code's).
const COPY_FIGURES =
  'In Chromium on a 2-core AMD EPYC virtual machine shared with other builds (`npm run bench:cores -- --browser --timeline`, several runs), the calling thread copied 0.07 to 0.15 ms a MiB and hashed its own pieces at 0.46 to 0.57; a worker took 0.49 to 0.71 a MiB, the copy into its own staging included. It hashed its pieces where the calling thread had written them at first, and took 0.78 to 0.87: memory another core has just written is slow to read in the module’s four streams, and one copy in one stream costs less. In stretches when both cores were the stage’s, the median of 20 hashes of 16 MiB took 4.7 to 6.2 ms against 8.3 to 10.6 for stage 10 in the same rounds, 1.51× to 1.78×; when other work took one core, the two threads took turns on the other, and stage 11 was no faster than stage 10. At 4 MiB a hash is over in a millisecond and a half, and a worker that wakes late, or a core lost for a moment, costs it a large share.';

export const EVERY_CORE_STORY: StageStory = {
  change: {
    lead: 'Hash a large input on every core, all in one shared WebAssembly memory: the input is copied in once, each thread hashes whole subtrees where they lie, and the calling thread merges their chaining values.',
    more:
      'A pool of Web Workers (worker threads in Node) starts once, when the stage loads, and with it one `WebAssembly.Memory({ shared: true })`. Every thread instantiates the same module on that memory: stage 10’s `compress4x`, four chunks at once, with one change, generated from stage 10’s text: the memory is the same for all, so each thread passes where its own chunk counters lie. The stage then times itself against one thread to find from which size on the pool pays (below). From that size on, `hash()` cuts the input into pieces of equal size, each a complete subtree: a power-of-two number of chunks starting at a multiple of that number. The calling thread copies the workers’ pieces into the shared memory first, in order, and each worker starts on a piece as soon as it is there; then it takes pieces from the back, copying each into a corner of the memory of its own and hashing it there, as stage 10 does with its page. Every piece is hashed in the module. So is the tail after the last whole piece, but for its last three chunks at most, which stage 10’s JavaScript `compress()` hashes, as it does the few parents above the pieces: a few dozen compressions against tens of thousands in the module. The pieces’ chaining values meet in a small shared block, and the calling thread merges them in tree order.\n\n`hash()` stays synchronous: the calling thread waits for the workers with `Atomics.wait`. The input is cut once, not in halves again and again as Rust’s `rayon::join` does, because an idle worker cannot steal half of another’s work: it can only take the next piece. When the calling thread has run out of pieces and a worker is slow to finish one, it waits about as long as a piece takes, then hashes that piece itself: the chaining value is the same whoever computes it, and the first one written counts.',
  },
  why: {
    lead: 'A subtree’s chaining value depends only on its own chunks and where they sit, so threads need not meet until the top of the tree.',
    more:
      'Each chunk carries its position (the chunk counter), so a worker can hash chunks 4096 to 8191 without having seen the ones before. SHA-256 cannot be split like this: every block’s compression starts from the output of the block before, one chain from the first byte to the last, and a second core has nothing to start on until the first one is done.\n\nOne memory for every thread is what makes the copy cheap. WebAssembly reads only its own memory, so every WebAssembly hash copies its input in once: stage 10 copies 32 KiB at a time into its page. A worker can read only shared memory, and an ordinary input only the calling thread can read, so here the calling thread makes that one copy for every thread, straight to where the module reads it. Nothing is copied twice, and no worker waits for more than its next piece.',
  },
  cost: {
    lead: 'Starting threads, copying the input and waiting are serial work, and Amdahl’s law charges all of it.',
    more: [
      'If a fraction p of the work runs on n cores, the best speedup is 1 / ((1 − p) + p / n): two cores give at most 2×, and only if nothing stays serial. In Chromium on the 2-core AMD EPYC of the figures below, the pool’s worker was ready 64 to 341 ms after `start()`, so the pool starts when the stage loads and is reused, never inside a hash.',
      `The copy is the serial part here. Say the calling thread copies at c ms a MiB and hashes at h, and k workers hash at w each; if the workers take W of the N bytes, everyone finishes together when c N + h (N − W) = w W / k. With one worker as fast as the calling thread that is W = N (c + h) / 2h, and the hash takes N (c + h) / 2: half of what stage 10 takes for the same copy and hash, in theory 2×. So the stage measures c, h and w on every hash (each worker notes when each of its pieces was there and done) and copies the workers’ share first. What it cannot plan for is that copying into memory another core then reads is slower than copying into a page that stays in this core’s cache, and that a worker wakes up some time after it is sent a job. ${COPY_FIGURES}`,
      `Where the pool starts to pay depends on the machine, the browser and the copy, so the stage measures it when it starts: after a warm-up it times one thread against the pool at 256 KiB, 512 KiB, 1 MiB and so on up to 16 MiB, the fastest of five hashes each, first with an input already in a \`SharedArrayBuffer\` (each worker then copies its own pieces) and then with one the calling thread must copy, and takes each kind from the first size at which the pool was at least a tenth faster (from 16 MiB when it never was). The bench and the self-test print what it found: it is a measurement too, on a machine that may be busy.`,
      `In the committed run (\`${command}\`, ${rounds} rounds in five slices that take turns with native code, ${browser}, a ${machine}, ${date}) stage 11 did ${gbPerSec(at4.stage11)} at 4 MiB and ${gbPerSec(at16.stage11)} at 16 MiB: ${times(at4.stage11, at4.stage10)} and ${times(at16.stage11, at16.stage10)} stage 10. Native Rust’s own build (${bestSimd}) gave ${times(at4.threads, at4.best)} and ${times(at16.threads, at16.best)} its one thread on the same two cores, through rayon. Medians of rounds spread over minutes mix stretches with and without the second core: stage 11’s 16 MiB samples took ${sampleRange('11-every-core', 16 * MiB)}, stage 10’s ${sampleRange('10-simd-one-block', 16 * MiB)}, and native code’s threads ${sampleRange('native-threads', 16 * MiB)}. Two cores are not 2× even for work that shares nothing: they share caches, memory bandwidth and power, and on a virtual machine a host. \`npm run bench:cores\` measures that ceiling on your machine beside stage 11’s speedup, in Node or, with \`--browser\`, in Chromium’s Web Workers, and \`--timeline\` draws what each thread did during single hashes. The code costs too: threads, shared counters claimed with compare-and-swap, time-outs, a memory laid out by hand, and a worker file that must load in Vite’s dev server, its production build and Node.`,
    ].join('\n\n'),
  },
  cautionAfter: true,
  caution: {
    lead: 'A figure measured on several cores is not one core’s figure, and the stage says which it is.',
    more:
      'The bench records how many threads stage 11 hashed on, and the results say so beside its figures. Where the pool cannot run (a browser without memory shared between threads, `SharedArrayBuffer`, or a page not allowed it because it is not cross-origin isolated; a browser’s main thread, which may not stop to wait with `Atomics.wait`; a machine with one core), every hash is stage 10’s on one thread, and the results give the reason instead. A worker that dies or hangs never costs a wrong digest, which is worse than none: the calling thread hashes the pieces it took and never finished, and from then on (as soon as its death is reported, or once it is past the time-out) `hash()` throws with the reason instead of leaning on a broken pool.',
  },
  pastArticle: {
    headline: 'At most 2× stage 10 on two cores',
    relativeTo: 'and only on large inputs: the ceiling Amdahl’s law sets.',
    native: {
      figure: gbPerSec(at16.sse41),
      where: `BLAKE3 on one thread, SSE4.1 (the four lanes WebAssembly SIMD has), at 16 MiB, on a ${machine}, in ${command} (${date}), where stage 11 did ${gbPerSec(at16.stage11)} on two threads (${times(at16.stage11, at16.sse41)} that); the crate’s ${bestSimd} build did ${gbPerSec(at16.best)} on one thread and ${gbPerSec(at16.threads)} on two`,
    },
    rust: `The article stops at stage 9, on one thread. The Rust crate’s \`Hasher::update_rayon\` splits the input where the tree splits and hashes the halves with \`rayon::join\` on a work-stealing pool, recursively, each thread reading the input where it lies: native threads share all memory, so there is nothing to copy. Its documentation leaves the size from which that pays to the caller. In the committed run its two threads gave ${times(at4.threads, at4.best)} its one thread at 4 MiB and ${times(at16.threads, at16.best)} at 16 MiB, and stage 11 ${times(at4.stage11, at4.stage10)} and ${times(at16.stage11, at16.stage10)} stage 10; stage 10 hashes 16 MiB in ${msPerMiB(at16.stage10)} ms a MiB there, native SSE4.1 in ${msPerMiB(at16.sse41)}.`,
  },
  go: [
    {
      title: 'Go: goroutines and the same split',
      text:
        'In Go this stage is a few lines: one goroutine per subtree, each writing its chaining value into its own slot of a slice, a `sync.WaitGroup` to wait for them, then the same merge. Goroutines share memory by default and cost a few kilobytes each, so there is no copy and no pool to keep warm; a Web Worker is a whole JavaScript engine instance that sees only what it is sent or shares. The tree split is the same in both, because it comes from BLAKE3, not from the language.',
    },
  ],
  profile: {
    changes: ['hash', 'workersShare', 'rootDigest'],
    watch: ['subtreeChainingValue'],
    note: 'Below the size from which its pool pays (it measures that when it loads, from 256 KiB up), stage 11 hashes on the calling thread exactly as stage 10 does, so at these sizes the two profiles should agree. A profile of one thread never sees the pool’s workers: each is a thread of its own.',
  },
};
