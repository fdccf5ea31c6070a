// Stage 11's story: past the article's last stage, on every core. Its own file because it
// is as long as two of the others and none of its figures is the article's.

import type { StageStory } from './narrative.ts';

export const EVERY_CORE_STORY: StageStory = {
  change: {
    lead: 'Hash a large input on every core: pool workers take whole subtrees from shared memory, and the calling thread merges their chaining values.',
    more:
      'A pool of Web Workers (worker threads in Node) starts once, when the stage loads, and times itself against one thread to find from which size on it pays (below). From that size on, `hash()` cuts the input into pieces of equal size, each a complete subtree: a power-of-two number of chunks starting at a multiple of that number. The workers take pieces from the front and the calling thread takes them from the back, all with stage 10’s SIMD code, and each piece’s chaining value goes into shared memory. The calling thread also hashes the tail after the last whole piece, then merges the chaining values in tree order: a few dozen parent compressions against tens of thousands for the chunks. `hash()` stays synchronous: the calling thread waits for the workers with `Atomics.wait`. The input is cut once, not in halves again and again as Rust’s `rayon::join` does, because an idle worker cannot steal half of another’s work: it can only take the next piece.',
  },
  why: {
    lead: 'A subtree’s chaining value depends only on its own chunks and where they sit, so threads need not meet until the top of the tree.',
    more:
      'Each chunk carries its position (the chunk counter), so a worker can hash chunks 4096 to 8191 without having seen the ones before. SHA-256 cannot be split like this: every block’s compression starts from the output of the block before, one chain from the first byte to the last, and a second core has nothing to start on until the first one is done.',
  },
  cost: {
    lead: 'Starting threads, copying the input and waiting are serial work, and Amdahl’s law charges all of it.',
    more:
      'If a fraction p of the work runs on n cores, the best speedup is 1 / ((1 − p) + p / n): two cores give at most 2×, and only if nothing stays serial. Here starting one worker took 90 to 250 ms in Chromium (more the busier the machine), so the pool starts when the stage loads and is reused, never inside a hash. Workers can only read shared memory, so an ordinary input is copied into a `SharedArrayBuffer`: 0.4 to 0.9 ms for 16 MiB in Chromium here, while hashing it on one core takes about 10 ms. The calling thread copies only the pieces the workers take, in order, so they start on the first while it copies the rest; an input that is already in a `SharedArrayBuffer` is not copied at all. Each hash also pays for a message to every worker and a wake-up.\n\nMeasured in Chromium on a 2-core AMD EPYC, shared with other busy programs, with one pool worker and the fastest of 25 runs each: at 256 KiB the pool took 1.9× as long as one thread, at 768 KiB as long, at 1 MiB 0.75× as long. With the input already shared, at 16 MiB, p is nearly 1 and the pool can approach 2×; copying 16 MiB first is serial work worth up to a tenth of the one-core time. Machines differ, and so does the crossover: on a 2-core Intel Xeon virtual machine, copying 16 MiB took 4 to 5 ms against about 15 ms to hash it on one core, and a pool worker often started its next piece 1 to 4 ms late, so the pool lost at 1 MiB and sometimes still at 16 MiB. A constant cannot be right on both, so the stage measures the crossover when it starts: after a warm-up it times one thread and the pool at 256 KiB, 512 KiB, 1 MiB and so on up to 16 MiB, the fastest of five hashes each, taken in turns, and the pool takes every input from the first size at which it was at least a tenth faster (from 16 MiB when it never was). The bench and the self-test print what it found. That is a measurement too, on a machine that may be busy: on the Xeon, five starts in a Chromium worker chose 2, 4, 8, 8 and 8 MiB, and four in Node 512 KiB, 512 KiB, 2 MiB and 8 MiB.\n\nTwo cores are not 2× even for work that shares nothing, because they share caches, memory bandwidth and power: `npm run bench:cores` measures that ceiling on your machine (two independent hashes at once against one alone) beside stage 11’s speedup. On that Xeon, in Node, the ceiling was 1.95× and stage 11 reached 1.67× at 4 MiB and 1.45× at 16 MiB. The code costs too: threads, shared counters claimed with compare-and-swap, time-outs, and a worker file that must load in Vite’s dev server, its production build and Node.',
  },
  caution: {
    lead: 'A figure measured on several cores is not one core’s figure, and the stage says which it is.',
    more:
      'The bench records how many threads stage 11 hashed on, and the results say so beside its figures. Where the pool cannot run (no `SharedArrayBuffer`, a page without cross-origin isolation, a browser’s main thread, where `Atomics.wait` is not allowed, a machine with one core), every hash is stage 10’s on one thread, and the results give the reason instead. A worker that dies or hangs makes `hash()` throw with the reason after a time-out: a digest merged from a missing piece would be wrong, and a wrong digest is worse than none.',
  },
  pastArticle: {
    headline: '2.1 GB/s',
    relativeTo: 'native Rust BLAKE3, one thread, SSE4.1 (the four lanes WebAssembly SIMD has), at 1 MiB, on the 2-core AMD EPYC our figures come from',
    rust: 'The article stops at stage 9, on one thread. The Rust crate’s `Hasher::update_rayon` splits the input where the tree splits and hashes the halves with `rayon::join` on a work-stealing pool, recursively; its documentation leaves the size from which that pays to the caller.',
  },
  go: [
    {
      title: 'Go: goroutines and the same split',
      text:
        'In Go this stage is a few lines: one goroutine per subtree, each writing its chaining value into its own slot of a slice, a `sync.WaitGroup` to wait for them, then the same merge. Goroutines share memory by default and cost a few kilobytes each, so there is no copy and no pool to keep warm; a Web Worker is a whole JavaScript engine instance that sees only what it is sent or shares. The tree split is the same in both, because it comes from BLAKE3, not from the language.',
    },
  ],
};
