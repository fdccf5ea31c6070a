// Stage 11's story: past the article's last stage, on every core. Its own file because it
// is as long as two of the others and none of its figures is the article's.

import type { StageStory } from '../ui/story-types.ts';

export const EVERY_CORE_STORY: StageStory = {
  change: {
    lead: 'Hash a large input on every core: pool workers take whole subtrees from shared memory, and the calling thread merges their chaining values.',
    more:
      'A pool of Web Workers (worker threads in Node) starts once, when the stage loads, and times itself against one thread to find from which size on it pays (below). From that size on, `hash()` cuts the input into pieces of equal size, each a complete subtree: a power-of-two number of chunks starting at a multiple of that number. The workers take pieces from the front and the calling thread takes them from the back, all with stage 10’s SIMD code, and each piece’s chaining value goes into shared memory. The calling thread also hashes the tail after the last whole piece, then merges the chaining values in tree order: a few dozen parent compressions against tens of thousands for the chunks.\n\n`hash()` stays synchronous: the calling thread waits for the workers with `Atomics.wait`. The input is cut once, not in halves again and again as Rust’s `rayon::join` does, because an idle worker cannot steal half of another’s work: it can only take the next piece. When the calling thread has run out of pieces and a worker is slow to finish one, it waits about as long as one of its own pieces took, then hashes that piece itself: the chaining value is the same whoever computes it, and the first one written counts.',
  },
  why: {
    lead: 'A subtree’s chaining value depends only on its own chunks and where they sit, so threads need not meet until the top of the tree.',
    more:
      'Each chunk carries its position (the chunk counter), so a worker can hash chunks 4096 to 8191 without having seen the ones before. SHA-256 cannot be split like this: every block’s compression starts from the output of the block before, one chain from the first byte to the last, and a second core has nothing to start on until the first one is done.',
  },
  cost: {
    lead: 'Starting threads, copying the input and waiting are serial work, and Amdahl’s law charges all of it.',
    more:
      'If a fraction p of the work runs on n cores, the best speedup is 1 / ((1 − p) + p / n): two cores give at most 2×, and only if nothing stays serial. Starting a worker took 90 to 250 ms in Chromium here, so the pool starts when the stage loads and is reused, never inside a hash. Workers can read only shared memory, so the calling thread copies an ordinary input into a `SharedArrayBuffer`, and that copy is serial: on a 2-core Intel Xeon virtual machine in Chromium it took 0.22 to 0.30 ms a MiB, against 0.8 to 1.4 ms a MiB to hash. The calling thread copies only the workers’ pieces, in order (they start on the first while it copies the rest), and hashes its own where they are; even so, the best split gives 2 − copy ÷ hash, about 1.75× there. An input that is already in a `SharedArrayBuffer`, where a program that shares its data with workers keeps it from the start, is not copied at all: `npm run bench -- --input shared` (or the box on the bench page) measures that case.\n\nWhere the pool starts to pay depends on the machine, the browser and the copy, so the stage measures it when it starts: after a warm-up it times one thread against the pool at 256 KiB, 512 KiB, 1 MiB and so on up to 16 MiB, the fastest of five hashes each, first with a shared input and then with one it must copy, and takes each kind from the first size at which the pool was at least a tenth faster (from 16 MiB when it never was). On a 2-core AMD EPYC the pool won from 1 MiB. On the Xeon, five starts in a Chromium worker chose 2 to 8 MiB for copied inputs, and four in Node 512 KiB to 8 MiB; one start that also timed shared inputs chose 4 MiB for them and 8 MiB for copied ones. The bench and the self-test print what it found: it is a measurement too, on a machine that may be busy.\n\nTwo cores are not 2× even for work that shares nothing: they share caches, memory bandwidth and power, and on a virtual machine a host. `npm run bench:cores` measures that ceiling on your machine beside stage 11’s speedup, in Node or, with `--browser`, in Chromium’s Web Workers. On the Xeon, in Chromium, the ceiling itself moved between 1.35× and 1.94× from one run to the next, and in 11 runs at 4 and 16 MiB stage 11 got 71 to 91% of it (77% in the middle run), 1.09× to 1.56× stage 10; in Node the ceiling was 1.95× and stage 11 reached 1.67× at 4 MiB and 1.45× at 16 MiB. Timelines of single hashes there show what else it loses: now and then one thread stops for 3 to 5 ms in the middle of a piece (the same 4 MiB hash on one thread took anywhere from 4.4 to 19 ms), and a hash is as slow as its slowest piece. When the stopped thread is a worker, the calling thread redoes its piece; when it is the calling thread, nothing can help. The code costs too: threads, shared counters claimed with compare-and-swap, time-outs, and a worker file that must load in Vite’s dev server, its production build and Node.',
  },
  cautionAfter: true,
  caution: {
    lead: 'A figure measured on several cores is not one core’s figure, and the stage says which it is.',
    more:
      'The bench records how many threads stage 11 hashed on, and the results say so beside its figures. Where the pool cannot run (a browser without memory shared between threads, `SharedArrayBuffer`, or a page not allowed it because it is not cross-origin isolated; a browser’s main thread, which may not stop to wait with `Atomics.wait`; a machine with one core), every hash is stage 10’s on one thread, and the results give the reason instead. A worker that dies or hangs never costs a wrong digest, which is worse than none: the calling thread hashes the pieces it took and never finished, and from then on (as soon as its exit is seen, or once it is past the time-out) `hash()` throws with the reason instead of leaning on a broken pool.',
  },
  pastArticle: {
    headline: 'At most 2× stage 10 on two cores',
    relativeTo: 'and only on large inputs: the ceiling Amdahl’s law sets.',
    native: { figure: '1.9 GB/s', where: 'BLAKE3 on one thread, SSE4.1 (the four lanes WebAssembly SIMD has), at 16 MiB, on a 2-core Intel Xeon; its two threads did 1.87× that in the same npm run bench -- --native run, where stage 11 gave 1.29× stage 10' },
    rust: 'The article stops at stage 9, on one thread. The Rust crate’s `Hasher::update_rayon` splits the input where the tree splits and hashes the halves with `rayon::join` on a work-stealing pool, recursively; its documentation leaves the size from which that pays to the caller. In that run (`npm run bench -- --browser --stages 10,11 --sizes 4MiB,16MiB --native`, 20 rounds in five slices that take turns with native code, Chromium 156, a machine shared with other work) the crate’s two threads gave 1.84× its one thread at 4 MiB and 1.87× at 16 MiB, and stage 11 gave 1.22× and 1.29× stage 10. In the first three slices stage 11 hashed 16 MiB at 2.1 to 2.4 GB/s against stage 10’s 1.6 to 1.8; in the last two, when other work took the second core, 1.0 to 1.2 GB/s, and native code’s threads fell to one thread’s speed in the last.',
  },
  go: [
    {
      title: 'Go: goroutines and the same split',
      text:
        'In Go this stage is a few lines: one goroutine per subtree, each writing its chaining value into its own slot of a slice, a `sync.WaitGroup` to wait for them, then the same merge. Goroutines share memory by default and cost a few kilobytes each, so there is no copy and no pool to keep warm; a Web Worker is a whole JavaScript engine instance that sees only what it is sent or shares. The tree split is the same in both, because it comes from BLAKE3, not from the language.',
    },
  ],
};
