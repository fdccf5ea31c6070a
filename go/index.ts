// The Go track's stages in lesson order: the one list the app and its tests read, as
// steps/index.ts is for the JavaScript stages. Each id is a folder here, holding the
// stage's blake2s.go and its compiler evidence (evidence.json, written by npm run gen).

export interface GoStageInfo {
  /** Position in the track, from 0: its place in GO_TRACK. */
  index: number;
  /** The folder in go/ and the stage's package path: "00-baseline". */
  id: string;
  /** Short title for lists and the stepper. */
  title: string;
  /** The one technique this stage adds over the previous one; `backticks` are code. */
  technique: string;
}

/** The track's order is the list's: a stage's index is its position, never typed. */
export const GO_TRACK: readonly GoStageInfo[] = ([
  { id: '00-baseline', title: 'Straight from the RFC', technique: 'A readable BLAKE2s-256: slices everywhere, a `g` that mixes the state by index' },
  { id: '01-inline-g', title: 'An inlinable g', technique: '`g` takes four words by value and returns them, small enough for the inliner' },
  { id: '02-bounds-checks', title: 'Bounds checks proven away', technique: 'Two reslices and a mask give the compiler the proofs it needs' },
  { id: '03-arrays', title: 'Fixed-size arrays', technique: '`compress` works on `*[8]uint32`, `*[64]byte` and `[16]uint32` locals' },
  { id: '04-memclr', title: 'Clearing with memclr', technique: '`for i := range padding { padding[i] = 0 }` becomes one call to the runtime' },
  { id: '05-reuse-buffers', title: 'Buffers reused', technique: '`New` allocates once; `Reset`, `Write` and `Sum256` reuse what the `Digest` has' },
] satisfies Omit<GoStageInfo, 'index'>[]).map((stage, index) => ({ ...stage, index }));
