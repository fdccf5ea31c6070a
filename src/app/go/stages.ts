// The story of each Go stage in our own words, joined to the track's list (go/index.ts).
// The code is go/<id>/blake2s.go; the compiler's evidence is go/<id>/evidence.ts
// (generated). Text in `backticks` is shown as code; `lead` is the sentence presenter
// mode shows.

import { GO_TRACK, type GoStageInfo } from '../../../go/index.ts';
import type { Part } from '../ui/story-types.ts';

interface GoStory {
  id: string;
  change: Part;
  why: Part;
  cost: Part;
  /** Which benchmarks this step should move, and why: read beside the measured table. */
  expect: string;
}

export interface GoStage extends GoStageInfo, Omit<GoStory, 'id'> {}

const STORIES: GoStory[] = [
  {
    id: '00-baseline',
    change: {
      lead: 'A BLAKE2s-256 written the way RFC 7693 describes it, with nothing done for speed.',
      more: '`compress` reads the 64-byte block into 16 message words, sets up a 16-word working vector, and runs ten rounds of eight calls to `g`, which mixes four entries of that vector chosen by index. The `Digest` keeps its chain value and its pending block in slices that `Reset` makes anew each time.',
    },
    why: {
      lead: 'Start from code anyone can hold against the spec.',
      more: 'Every later stage changes one thing and must still give the same hashes: the same tests run on all six (the RFC’s example, `golang.org/x/crypto/blake2s` over every length from 0 to 1,100 bytes and a few large ones, a write split at every position).',
    },
    cost: {
      lead: 'Nothing to pay yet: this is the version to read first.',
      more: 'Its `g` reads like the RFC’s pseudocode line for line; the price shows up in the compiler’s report below, not in the text.',
    },
    expect: 'The starting point: later stages are measured against it.',
  },
  {
    id: '01-inline-g',
    change: {
      lead: '`g` now takes the four words and the two message words, and returns the four new words.',
      more: '`compress` writes them back: `v[0], v[4], v[8], v[12] = g(v[0], v[4], v[8], v[12], …)`. The body is the same eight lines of additions, XORs and rotations, on plain variables instead of slice entries.',
    },
    why: {
      lead: 'The compiler inlines a function only when its cost fits a budget of 80, and the old `g` did not.',
      more: 'Eighty calls per block, each passing a slice and six numbers and checking four indices, are pure overhead. Inlined, the call disappears and the four words can live in registers for the length of each mix.',
    },
    cost: {
      lead: 'None: the new `g` is as close to the RFC as the old one.',
      more: 'The call sites grow longer, because each names its four positions twice; the pattern is regular enough to check by eye.',
    },
    expect: 'Every size should gain, most at 1 KiB and 8 KiB where `compress` dominates; at 8 bytes a hash is one block, so setup and allocation weigh more.',
  },
  {
    id: '02-bounds-checks',
    change: {
      lead: '`compress` reslices `h` and `block` to their exact lengths once, and masks every sigma entry with `&15`.',
      more: 'After `h = h[:8]` and `block = block[:BlockSize]` the compiler knows both lengths, so the loops that read the block and update the chain value need no checks. Sigma entries are bytes, up to 255 as far as the type says; `s[i]&15` proves each message index is below 16.',
    },
    why: {
      lead: 'Go checks every index it cannot prove in range: a compare and a branch each time.',
      more: 'Stage 1 still checked two message reads in every call of `g`, 160 reads per block, plus the block and chain-value accesses. None of them can fail, but the compiler cannot know that without help.',
    },
    cost: {
      lead: 'A mask that does nothing at run time reads like a bug unless a comment says why.',
      more: 'The hints are cheap to write and easy to break: change a loop shape and a check comes back silently, which is why the evidence below is regenerated and tested.',
    },
    expect: 'The checks sit in `compress`, so 1 KiB and 8 KiB should gain most; 8 bytes runs `compress` once and may not move.',
  },
  {
    id: '03-arrays',
    change: {
      lead: 'Where a size never changes, the type now says so: the chain value, the block and the two 16-word vectors are arrays.',
      more: '`compress` takes pointers to an 8-word chain value and a 64-byte block; the message and working vector are `[16]uint32` locals. `Sum` copies the chain value into an array on its stack and writes the output into a `[32]byte`.',
    },
    why: {
      lead: 'An array’s length is part of its type, so constant indices need no check and no hint.',
      more: 'A slice is a pointer, a length and a capacity that the compiler must track; an array of known size is just memory it can lay out on the stack and address directly.',
    },
    cost: {
      lead: 'The conversions at the call sites, like `(*[BlockSize]byte)(d.buf)`, panic if a slice is too short.',
      more: 'That is one check per call instead of many inside, and the types now document the sizes the RFC fixes.',
    },
    expect: 'A smaller step than the last two: most checks are gone already, so this step mostly trims `compress`’s setup and `Sum`’s copies.',
  },
  {
    id: '04-memclr',
    change: {
      lead: 'The zero padding of the last block is cleared with the loop shape the compiler recognises.',
      more: 'Stage 3 zeroed byte by byte from `len(d.buf)` to 64. Here the padding is its own slice and the loop ranges over it, which the compiler replaces with a call to `runtime.memclrNoHeapPointers` (Go 1.21’s `clear(padding)` compiles to the same call).',
    },
    why: {
      lead: 'The runtime clears many bytes per instruction; the loop stored one byte per iteration.',
      more: 'Padding happens once per hash, for up to 63 bytes, so this matters most for short inputs.',
    },
    cost: {
      lead: 'None; if anything the idiom is clearer than the index loop.',
      more: 'It only works in exactly this shape: a range loop storing the zero value into the ranged-over slice or array.',
    },
    expect: 'Only `Sum` changed, and it runs once per hash: 8 bytes (56 bytes of padding) may gain, 1 KiB and 8 KiB (no padding at all, their last block is full) should not move.',
  },
  {
    id: '05-reuse-buffers',
    change: {
      lead: 'The `Digest`’s two slices are made once in `New`; `Reset` rewrites them in place.',
      more: '`Write` copies into the buffer’s own capacity instead of `append`, which the compiler must assume can grow and allocate, and `Sum256` has `Sum` append into an array of its own instead of to `nil`. The tests now assert zero allocations per hash, with a reused `Digest` and with `Sum256`.',
    },
    why: {
      lead: 'Every allocation costs time now and garbage-collector work later.',
      more: 'Stage 4 made two allocations per hash with a reused `Digest` and three with `Sum256`; for an 8-byte input that is a large share of the work.',
    },
    cost: {
      lead: 'A `Digest` now owns its memory for its whole life.',
      more: '`Reset` must restore every field by hand instead of starting fresh, which is the kind of code where a forgotten field becomes a wrong hash: the split-write and reset tests guard it.',
    },
    expect: 'Allocation costs a fixed amount per hash, so 8 bytes should gain most and 8 KiB least.',
  },
];

export const GO_STAGES: GoStage[] = GO_TRACK.map((info) => {
  const story = STORIES.find((candidate) => candidate.id === info.id);
  if (!story) throw new Error(`go/index.ts lists ${info.id}, which has no story in src/app/go/stages.ts`);
  return { ...story, ...info };
});

export const goStageById = (id: string): GoStage | undefined => GO_STAGES.find((stage) => stage.id === id);
