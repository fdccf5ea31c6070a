// The story of each stage, told for a reader who has the diff open beside it. Text in
// `backticks` is shown as code. Each part has a `lead` (one sentence, all that presenter
// mode shows on the projector) and `more` (the rest, for a student reading alone).

import { EVERY_CORE_STORY } from './every-core-story.ts';
import type { SideNote, StageStory } from '../ui/story-types.ts';

const GO_BOUNDS: SideNote = {
  title: 'Go: bounds-check elimination',
  goStage: 2,
  text:
    "Go checks every slice index, and its compiler drops a check when it can prove the index is in range (a hint like `_ = b[63]` before a loop is the classic trick; `-gcflags=-d=ssa/check_bce/debug=1` lists the checks that remain). V8 checks typed-array indices the same way, and code with fixed, simple index patterns is what lets it hoist or drop them.",
};

const GO_INLINING: SideNote = {
  title: 'Go: the inlining budget',
  goStage: 1,
  text:
    'The Go compiler inlines a function only when its body fits a small budget (80 nodes of its syntax tree); `go build -gcflags=-m` reports what it inlined and what it refused. Hot code is sometimes reshaped to fit, or inlined by hand. V8 makes the same kind of size-based decision, with less visibility, so doing it by hand removes the guesswork.',
};

const GO_ALLOCATIONS: SideNote = {
  title: 'Go: allocations and reuse',
  goStage: 5,
  text:
    "In Go, `go test -benchmem` prints allocations per operation, escape analysis decides what goes on the heap, and reusing a buffer (or a `sync.Pool`) is the standard fix. The fastest allocation is the one you never make: stages 2, 3, 4, 5 and 7 each allocate less per hash than the stage before (V8's figures on each stage page say how much).",
};

const GO_STATISTICS: SideNote = {
  title: 'Go: measure with statistics',
  text:
    "Go's benchmark workflow runs each benchmark many times (`-count=10`) and compares old and new with benchstat, which applies a rank test and prints \"~\" instead of a percentage when the difference could be noise. This app does the same kind of comparison on your machine: see \"How we measure\". Older talks and posts show benchstat's earlier output, a mean with its spread as ± a percentage; today's benchstat, like this app, reports the median with a 95% confidence interval.",
};

const GO_SKIP_WORK: SideNote = {
  title: 'Go: skip the work instead of speeding it up',
  goStage: 4,
  text:
    "This stage makes no loop faster; it removes one. Go's compiler does that for a few idioms by itself: a loop that sets every element of a slice to zero becomes one call to the runtime's memory-clearing routine, and `binary.LittleEndian.Uint32(b)` becomes a single 32-bit load on little-endian machines instead of four byte loads and shifts. Nothing in JavaScript promises such a rewrite, so the view does it by hand.",
};

export const STORIES: StageStory[] = [
  {
    change: {
      lead: 'Start from a faithful transcription of the BLAKE3 reference, with every function doing one thing the plain way.',
      more:
        '`g()` mixes four state words with two message words; `round()` calls it eight times (four columns, then four diagonals); `permute()` builds a rearranged copy of the message; `compress()` allocates a fresh state and a copy of the block and returns a new array. Chunks are hashed block by block, and a plain array of 8-word arrays holds the chaining values of the tree. This is the version you can check line by line against the specification.',
    },
    why: {
      lead: 'It is the baseline: correct, readable, and not tuned at all.',
      more:
        'Every later stage makes the change the article made at that step (stages 6 and 9 go a little further, and say so) and must keep producing exactly the same hashes. The benchmark then tells us whether the change paid.',
    },
    cost: {
      lead: 'None yet: this is the most readable version in the story.',
      more: 'Each later stage trades some of this clarity for speed. The code view shows exactly how much, one diff at a time.',
    },
    caution: {
      lead: 'This stage is quadratic: doubling the input quadruples the time.',
      more:
        'Its general word reader, `readLittleEndianWords`, loops to the end of the whole input instead of the end of the current 64-byte block. Writes past the end of a typed array are silently dropped, so the hash is still right, but every block walks over every byte that follows it. In Chromium on a 2-core server it took 25 µs for 1 KiB, 23 ms for 64 KiB, 0.3 s for 256 KiB and would take about 5 s for 1 MiB, where stage 1 needs 20 ms. The benchmark therefore gives every size a time box: when one hash would not fit in it, the size is skipped, and when the box runs out the samples taken so far are kept; either way the results mark it "time-boxed" instead of freezing your browser. The flaw came with the original port; finding it is the lesson of stage 1.',
    },
    article: {
      headline: '~2000× slower',
      relativeTo: 'than the official Rust BLAKE3 compiled to WebAssembly',
    },
  },
  {
    change: {
      lead: 'Add a second word reader, `readLittleEndianWordsFull`, for the common case of a full 64-byte block.',
      more:
        'Every block except the very last one is exactly 64 bytes, so this reader needs no length checks: a straight loop builds each of the 16 words from four bytes. The general reader stays, for the last block only.',
    },
    why: {
      lead: 'A profiler showed that reading words was where the time went.',
      more:
        'Dropping the per-byte conditionals makes the loop cheaper, but the big win is a side effect: the new reader stops at the end of its block, so stage 0’s quadratic scan is gone. The profile pointed at the right function for a reason nobody had noticed. The lesson is to ask why a hot function is hot before tuning it.',
    },
    cost: {
      lead: 'Small: two readers instead of one, and a branch that picks between them.',
      more: 'The duplication is easy to follow, because the fast reader is the general one with its checks taken out.',
    },
    article: {
      headline: 'No figure',
      relativeTo:
        'The article calls this step “definitely a great win” and gives no number. Against a quadratic baseline no single ratio would hold: it grows with the input size.',
    },
    go: [GO_BOUNDS],
  },
  {
    change: {
      lead: 'Stop moving message words around: compute once which word each round reads.',
      more:
        'The permutation applied between rounds never changes, so neither does the order in which each round visits the 16 message words. A table built once at load time holds the 7 access orders (round 0 reads the words in order; each next order is the previous one permuted), and `round` reads `m[order[i]]`. `permute()`, with its new array and copy for every round of every block, disappears.',
    },
    why: {
      lead: 'Six allocations and copies per 64-byte block add up; a lookup in a small table does not.',
      more: 'Less garbage also means less work for the garbage collector, which otherwise interrupts the hashing at unpredictable moments.',
    },
    cost: {
      lead: 'One indirection: to know which word `g` gets, you now look it up in a table.',
      more: 'The table is computed by code that states the rule, not typed in by hand, so it can still be checked against the specification.',
    },
    article: { headline: '1.6×', relativeTo: 'faster than stage 1' },
    go: [GO_ALLOCATIONS],
  },
  {
    change: {
      lead: 'Fold `round()` into `compress()` as a loop of seven iterations.',
      more:
        'The seven access orders become one flat table of 112 entries (7 rounds × 16 words), and `g` receives the state, the message and a running position in that table. One level of function calls is gone.',
    },
    why: {
      lead: 'A call costs something, and V8 inlines only the functions it judges small and hot enough.',
      more: 'Inlining by hand removes the guesswork: the optimizer sees the whole round loop as one piece of code.',
    },
    cost: {
      lead: '`compress` gets longer, and the round structure is now a comment instead of a function name.',
      more: 'Columns-then-diagonals is still visible in the eight `g` calls, but a reader has to know to look for it.',
    },
    article: { headline: '1.24×', relativeTo: 'faster than stage 2 (1.98× for stages 2 and 3 together)' },
    go: [GO_INLINING],
  },
  {
    change: {
      lead: 'Keep the 16 state words in local variables `s0` to `s15` instead of a `Uint32Array`.',
      more:
        'Local variables cannot be indexed, so every `g` call has to name its four variables: all 7 × 8 calls are written out in full. Nobody should type that by hand, so a small generator (`gen.ts`) writes `compress.ts`; the output is checked in, marked generated, and a test fails if it ever drifts from a fresh run of the generator.',
    },
    why: {
      lead: 'Per 64-byte block the state was read and written about 1,450 times through a typed array.',
      more:
        '7 rounds × 8 `g` calls × (8 writes + 18 reads). Locals holding small integers can live in CPU registers, so most of those loads and stores simply vanish.',
    },
    cost: {
      lead: 'High: `compress.ts` is now hundreds of lines that no one reads to understand BLAKE3.',
      more: 'The readable version moves into the generator. That is the usual price of meta-programming: two programs to trust instead of one.',
    },
    article: { headline: '2.2×', relativeTo: 'faster than stage 3', vsWasm: 'now within the same order of magnitude as Rust WASM' },
    go: [GO_INLINING],
  },
  {
    change: {
      lead: '`compress` stops allocating: it reads and writes at offsets inside arrays the caller owns.',
      more:
        'Its new signature takes the chaining value and the block words, each with an offset, an output array with its offset, and `truncateOutput` to skip the upper eight words when only a chaining value is needed. The chaining-value stack becomes one `Uint32Array` with a position counter: the two children of a parent sit side by side, so a merge compresses in place (pop two, write the parent into the same slot, push one).',
    },
    why: {
      lead: 'With the arithmetic cheap, allocation was what remained: stage 4 still made a new 16-word output for every block, and a copy of its first eight words with `.slice(0, 8)`.',
      more: 'Every parent merge also built a new 16-word block to hold its two children. Without those allocations the garbage collector has nothing to do and the working data stays in the same few cache lines.',
    },
    cost: {
      lead: 'A ten-parameter function and offset arithmetic everywhere.',
      more: 'Bugs now hide in an off-by-eight rather than a misspelled name; the test vectors at every tree shape are what keep it honest.',
    },
    article: { headline: '3×', relativeTo: 'faster than stage 4', vsWasm: 'about 0.75× the speed of Rust WASM' },
    go: [GO_ALLOCATIONS],
  },
  {
    change: {
      lead: 'Load the 16 block words into locals `m0` to `m15`, once per compress.',
      more:
        'Locals cannot be looked up through an index table, so the access-order table goes away, and with it the loop over rounds: the generator writes the seven rounds one after another. Between rounds the variables themselves are reassigned along the cycles of the permutation, with two temporaries; after the last round the permutation is simply not written. Like stage 4, the body is generated.',
    },
    why: {
      lead: 'Each use of a message word cost two loads, one from the order table and one from the block; now each word is loaded once per block.',
      more: 'What is left is moving values between variables, and an optimizing compiler turns most of that into register renaming: no work at all.',
    },
    cost: {
      lead: 'More generated code, and the permutation is now a sequence of assignments.',
      more: 'You can check it only by following the generator’s logic, or by trusting the test that compares every stage with the official vectors.',
    },
    beyond: {
      lead: 'The article kept the loop over the rounds; this stage also writes the seven rounds out.',
      more:
        'The article’s version loops over the rounds and skips the permutation after the last one with `if (i != 6)`. Here the generator writes the rounds one after another, because with the message in locals the loop has nothing left to index. That second change is worth about 1.2× on its own: in Node 20 on a 2-core AMD EPYC, at 64 KiB, a version of this stage that kept the loop ran at 447–460 MB/s, the written-out rounds at 552–571 MB/s. So the speedup you measure for this stage is the two changes together.',
    },
    article: { headline: '1.5×', relativeTo: 'faster than stage 5', vsWasm: 'the first stage faster than Rust WASM' },
  },
  {
    change: {
      lead: 'Keep the block buffer and the chaining-value stack at module level and reuse them across calls.',
      more: 'The stack grows only when an input needs a deeper tree than any input before it.',
    },
    why: {
      lead: 'Every call to `hash` allocated these buffers anew, and for small inputs that is a visible share of the work.',
      more: 'For large inputs it barely matters: one allocation per call is nothing next to thousands of compressions.',
    },
    cost: {
      lead: 'Shared mutable state at module level.',
      more: 'The function is no longer self-contained. That is safe in single-threaded JavaScript, but it is the kind of thing that bites later, and it deserves its comment.',
    },
    caution: {
      lead: 'Not every change pays, and a 2% change needs statistics to be believed.',
      more:
        'The article measured 425 → 435 MB/s. On a noisy laptop, two runs of the same code can differ by more than that. Only many interleaved samples, a confidence interval and a significance test can say whether such a change is real or luck. Run the benchmark and see what your machine says.',
    },
    article: { headline: '1.023×', relativeTo: 'faster than stage 6 (425 → 435 MB/s)' },
    go: [GO_ALLOCATIONS, GO_STATISTICS],
  },
  {
    change: {
      lead: 'On little-endian machines, read block words straight from a `Uint32Array` view of the input.',
      more:
        'BLAKE3 stores words little-endian, and so does practically every machine that runs a browser. The stage detects the byte order once; on little-endian machines `compress` reads words directly from a view over the input and skips the byte-to-word copy. Big-endian machines keep the copying path. A `Uint32Array` view needs a byte offset that is a multiple of 4, so an unaligned input (a subarray starting at an odd offset) takes the copying path instead of throwing.',
    },
    why: {
      lead: 'The copy built every word from four bytes with shifts and ORs; a view makes it one load.',
      more: 'That is 16 words per block that the processor now reads in its own native order, with no JavaScript arithmetic at all.',
    },
    cost: {
      lead: 'Two code paths chosen by a platform property, and you will normally test only one of them.',
      more: 'The tests must hash deliberately unaligned inputs, or the fallback path could break without anyone noticing.',
    },
    article: { headline: '1.48×', relativeTo: 'faster than stage 7', vsWasm: '1.6× faster than Rust WASM' },
    go: [GO_SKIP_WORK],
    elsewhere:
      'On a 2-core AMD EPYC (Zen 3) in Chromium, the original code of this stage ran at 0.59–0.76× the speed of Rust WASM: slower, not faster. The machine matters, which is why this app measures on yours.',
  },
  {
    change: {
      lead: 'Write a tiny WebAssembly module at runtime whose one function, `compress4x`, runs four compressions at once.',
      more:
        'No .wasm file ships: when the first hash needs it, JavaScript writes the module’s bytes (header, a type, one imported memory page, one function, its export and its code) from a generated listing of its instructions. Each 128-bit `i32x4` vector holds the same state word of four different chunks, one per lane. Up to 32 whole chunks at a time are copied into the module’s single 64 KiB page and hashed there as the complete subtree they form: four chunks side by side, transposed into lanes as each block is loaded, then their parents level by level, four at a time, with the same function. What remains (the parents above the subtrees, the last few whole chunks, a short final chunk) goes through the stage 8 JavaScript.',
    },
    why: {
      lead: 'BLAKE3’s tree makes chunks independent, so four can be compressed in lockstep.',
      more: 'One vector add does four additions, and V8 compiles WebAssembly SIMD straight to the processor’s vector instructions.',
    },
    cost: {
      lead: 'The highest yet: an assembler, opcode numbers and byte offsets.',
      more: 'The code view shows the generated module as WAT, WebAssembly’s text form, so you can read what the bytes say. It also needs WebAssembly SIMD, which very old browsers lack.',
    },
    cautionAfter: true,
    caution: {
      lead: 'The original version of this stage shipped a bug the official test vectors could not catch.',
      more:
        'Its chaining-value stack was sized from the chunk count, without room for the extra entries the four-at-a-time path pushes, so some inputs above 512 KiB hashed wrong. The official vectors stop at 100 KiB. Ours is checked against an independent implementation at many odd sizes up to several MiB, with fresh and reused state: a fast wrong hash is worth nothing.',
    },
    beyond: {
      lead: 'The article transposed the chunks in JavaScript, called the module once per block and kept the parents in JavaScript; this stage moves whole subtrees into the module and tunes the kernel further.',
      more:
        'Each step below was measured against the one before, in Chromium 156 in a worker on a 2-core AMD EPYC, and is given as a multiple of Rust WASM’s speed, at 64 KiB and at 1 MiB. Each is a lesson of its own; together they are why this stage gains more over stage 8 here than in the article.',
      steps: [
        'The same design in our code: 1.32× and 1.42×.',
        'Whole subtrees in the module, with the transposition, the loop over blocks and the parents: 1.76× and 1.65–1.74×. A parent compressed in JavaScript costs about as much as three SIMD lanes.',
        'Rotations by 16 and 8 as byte swizzles: 1.94× and 1.93×.',
        'Subtrees of 32 chunks instead of 16: 2–3% more.',
        'The message word added to `s[a]` before `s[b]`, off the critical path: from 1.96× to 2.15×.',
        'The four `g` calls of a half-round interleaved, statement by statement: from 2.15× to 2.28×.',
      ],
    },
    article: { headline: '1.39×', relativeTo: 'faster than stage 8', vsWasm: '2.21× faster than Rust WASM' },
    elsewhere:
      'On a 2-core AMD EPYC (Zen 3) in Chromium, the original code of this stage ran at 1.6–1.8× Rust WASM for 64 KiB to 1 MiB inputs, but only about 0.7× at 1 KiB, where too few chunks exist to fill four lanes.',
  },
  {
    change: {
      lead: 'Hash what stage 9 left to JavaScript in the module too: inputs of one chunk or less, the last few chunks and the parents, one block at a time.',
      more:
        'A second kind of function, `compress1x`, joins `compress4x` in the WebAssembly written at runtime. It takes one chunk (or one parent block) that JavaScript has copied into the module’s page and compresses its blocks one after the other, the chaining value staying in the function from block to block. A 1 KiB input is now one copy in, one call and one 32-byte copy out. Larger inputs send their last one to three chunks and every parent above the subtrees through it, and the stack of chaining values moves into the page, so a parent’s two children already lie side by side as its block. It comes in two versions that give the same result: `compress1xRows`, in SIMD, with the state as four rows of four words (below), and `compress1xWords`, stage 6’s compression in 32-bit WebAssembly, the state in 16 locals and each rotation one `i32.rotr`. In both the generator resolves the message order. When the stage loads, it times the two on your machine and keeps the faster.',
    },
    why: {
      lead: 'One block cannot use four chunk lanes: there is only one chunk, and every block waits for the one before.',
      more:
        'Stage 9’s lanes hold four independent chunks. Below 4 KiB there are not four, and below 1 KiB there is one chunk, whose blocks each need the previous block’s output. What is left to share is inside one compression: the four column `g`s are independent, and so are the four diagonal ones. SIMD can take that too, and the Rust crate’s SSE4.1 code does: the state as four rows of four words, one vector each, so one instruction does a step of all four column `g`s; turning three rows by one, two and three lanes with shuffles lines the diagonals up as columns, so the same instructions do those, and turning back restores the columns. Whichever way the block is compressed, keeping the whole chunk in the module removes a call from JavaScript per block, the typed-array reads, and the rotations built from two shifts.\n\nWhich way wins is not obvious. One compression is a chain of dependent steps, about 14 per half-round, and four lanes save instructions, not links of that chain: on the EPYC a vector instruction’s result arrived after about 0.5 ns where a 32-bit one’s arrived after 0.25 ns (we timed long chains of each), and a rotation by 12 or 7 takes three vector instructions but one `i32.rotr`. The 32-bit code, though, keeps 16 state words, the block’s address and the loop’s counters live at once, more than an x86 processor’s 16 registers, so some wait in memory. A likely reason the two processors disagree is that recent AMD processors hand such values back almost for free and this Intel one does not; we have not confirmed it. So the stage’s `load()` warms both up, lets the engine finish optimizing them, times each over a 1 KiB chunk seven times and keeps the faster; `hash()` called without `load()` uses the rows.',
    },
    cautionAfter: true,
    caution: {
      lead: 'Which of its two one-block codes is faster depends on the processor, by up to 2× either way, so the stage times both when it loads and keeps the faster.',
      more:
        'In Chromium on a 2-core AMD EPYC the 32-bit code took about 55 ns a block and an earlier SIMD version about 97; on a 2-core Intel Xeon (Ice Lake) the 32-bit code took 200 to 250 ns and the SIMD rows 95 to 140. A faster-looking instruction set is a hypothesis until it is measured, on the machine that runs it.',
    },
    cost: {
      lead: 'Two compression functions in the module, and the tree’s stack in two places.',
      more:
        'On the fast path the chaining values live in the module’s memory and are moved with `copyWithin`; on the portable path (big-endian machines) they stay in a typed array and stage 8’s JavaScript does the work. Both paths share one tree-walking loop, and the tests hash both, and both one-block versions. Keeping two versions of the same function, and a few milliseconds of timing when the stage loads, is the price of not guessing. The assembler learns nine more instructions.',
    },
    pastArticle: {
      headline: 'Against stage 9 at 1 KiB and less',
      relativeTo: 'where the whole input is now one call into the module; larger inputs move only their last chunks and parents.',
      native: { figure: '1.18 GB/s', where: 'BLAKE3 on one thread, SSE4.1, at 1 KiB, on a 2-core Intel Xeon, measured by npm run bench -- --native in the same run as stage 10, which did 1.02 GB/s there' },
      rust:
        'The article stops at stage 9. For one block the Rust crate uses its SSE4.1 `compress_in_place` (rows of four, diagonals by shuffles), or AVX-512’s one-instruction rotations where the processor has them. In that run (`npm run bench -- --browser --stages 10 --sizes 96B,1KiB,64KiB,1MiB --native`, 20 rounds in five slices that take turns with native code, Chromium 156, a machine shared with other work) native Rust did 2.3 GB/s at 1 MiB with SSE4.1 and 8.4 GB/s with AVX-512, and stage 10 reached 0.53× native SSE4.1 at 96 B, 0.87× at 1 KiB, 0.91× at 64 KiB and 0.93× at 1 MiB. A block costs the two about the same, 55 to 60 ns; what stage 10 adds is JavaScript’s share of each call: copying the input into the module’s page (about 20 ns for 96 B) and a fresh 32-byte digest copied out (about 35 ns). Two blocks at 96 B cannot hide that; sixteen at 1 KiB mostly can.',
    },
  },
  EVERY_CORE_STORY,
];
