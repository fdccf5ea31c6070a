// Writes compress1x.ts: the two WebAssembly functions that hash ONE chunk, or one parent
// block, a block at a time, as lines of WAT that wasm.ts assembles into bytes at runtime.
// Both take the same arguments and give the same chaining value; blake3.ts times them on
// the machine it runs on and keeps the faster.
//
// Run: npx tsx steps/10-simd-one-block/gen.ts   (or `npm run gen` for every generator)
//
// compress1xRows is how BLAKE3's SSE4.1 code compresses one block. One block is one chain
// of dependent steps, so the four lanes cannot hold four blocks as in compress4x; they
// hold the four g's of a half-round instead. The 16 state words are four rows of four
// (row 0 is words 0-3, row 1 words 4-7, ...), so one vector instruction does one
// statement of g for all four columns at once. For the diagonals, rows 0, 2 and 3 are
// turned by lane shuffles so that each diagonal lines up in one lane, the same code runs
// again, and they are turned back. The message permutation is resolved here: each
// vector of message words is built from the four words the round needs, read from the
// block where they are added.
//
// compress1xWords is stage 6's compress() written in WebAssembly: the 16 state words in
// i32 locals s0..s15, every g written out, i32.rotr for rotations, message words loaded
// where they are added, and the four g's of a half-round taking turns, a statement each,
// so the processor runs the four chains side by side. It needs more registers than x86
// has; whether that costs much depends on the processor (see blake3.ts).

/** The file this generator writes, relative to this one. */
export const OUTPUT_FILE = './compress1x.ts';

const MSG_PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const ROUNDS = 7;
const BLOCK_LEN = 64;

/** Quarter-round positions of one round: four columns, then four diagonals. */
const G_POSITIONS = [
  [0, 4, 8, 12],
  [1, 5, 9, 13],
  [2, 6, 10, 14],
  [3, 7, 11, 15],
  [0, 5, 10, 15],
  [1, 6, 11, 12],
  [2, 7, 8, 13],
  [3, 4, 9, 14],
];

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Message word w of the block, read where it is used. */
const word = (w: number) => `local.get $input  i32.load offset=${4 * w}`;

/**
 * The quarter-round g as eight lines, one per statement of the spec. The message word is
 * added first: it is ready long before $s[b], so that addition is off the critical path.
 */
function g(a: number, b: number, c: number, d: number, mx: number, my: number): string[] {
  const xorRotate = (dst: number, src: number, r: number) =>
    `local.get $s${dst}  local.get $s${src}  i32.xor  i32.const ${r}  i32.rotr  local.set $s${dst}`;
  return [
    `local.get $s${a}  ${word(mx)}  i32.add  local.get $s${b}  i32.add  local.set $s${a}`,
    xorRotate(d, a, 16),
    `local.get $s${c}  local.get $s${d}  i32.add  local.set $s${c}`,
    xorRotate(b, c, 12),
    `local.get $s${a}  ${word(my)}  i32.add  local.get $s${b}  i32.add  local.set $s${a}`,
    xorRotate(d, a, 8),
    `local.get $s${c}  local.get $s${d}  i32.add  local.set $s${c}`,
    xorRotate(b, c, 7),
  ];
}

/** The 7 rounds, with the message permutation resolved: round r reads m in its order. */
function rounds(): string[] {
  const lines: string[] = [];
  let order = range(16);
  for (const round of range(ROUNDS)) {
    lines.push(`;; round ${round}: message order ${order.join(' ')}`);
    for (const [first, name] of [[0, 'columns'], [4, 'diagonals']] as const) {
      const calls = G_POSITIONS.slice(first, first + 4).map(([a, b, c, d], i) => {
        const [mx, my] = [order[2 * (first + i)], order[2 * (first + i) + 1]];
        return { text: `g(${a}, ${b}, ${c}, ${d}, m${mx}, m${my})`, statements: g(a, b, c, d, mx, my) };
      });
      lines.push(`;; ${name}: ${calls.map((call) => call.text).join('  ')}`);
      for (const statement of range(8)) lines.push(...calls.map((call) => call.statements[statement]));
    }
    order = MSG_PERMUTATION.map((p) => order[p]);
  }
  return lines;
}

/** The block's words `w` as the four lanes of a vector, each read where it is in the block. */
function messageVector(w: number[]): string {
  return [`${word(w[0])}  i32x4.splat`, ...[1, 2, 3].map((lane) => `${word(w[lane])}  i32x4.replace_lane ${lane}`)].join('  ');
}

/** One half-round on the rows: g on four columns (or diagonals) at once, a line per statement. */
function rowsHalfRound(mx: number[], my: number[]): string[] {
  const rotate = (row: string, from: string, r: number) =>
    r === 16 || r === 8
      ? `local.get $${row}  local.get $${from}  v128.xor  local.tee $t  local.get $t  i8x16.shuffle ${r === 16 ? ROTATE_16 : ROTATE_8}  local.set $${row}`
      : `local.get $${row}  local.get $${from}  v128.xor  local.tee $t  i32.const ${r}  i32x4.shr_u  local.get $t  i32.const ${32 - r}  i32x4.shl  v128.or  local.set $${row}`;
  return [
    `local.get $row0  ${messageVector(mx)}  i32x4.add  local.get $row1  i32x4.add  local.set $row0`,
    rotate('row3', 'row0', 16),
    'local.get $row2  local.get $row3  i32x4.add  local.set $row2',
    rotate('row1', 'row2', 12),
    `local.get $row0  ${messageVector(my)}  i32x4.add  local.get $row1  i32x4.add  local.set $row0`,
    rotate('row3', 'row0', 8),
    'local.get $row2  local.get $row3  i32x4.add  local.set $row2',
    rotate('row1', 'row2', 7),
  ];
}

// Rotations by 16 and 8 move whole bytes: one byte shuffle each (little-endian lanes).
const ROTATE_16 = '2 3 0 1 6 7 4 5 10 11 8 9 14 15 12 13';
const ROTATE_8 = '1 2 3 0 5 6 7 4 9 10 11 8 13 14 15 12';

/** Lane k of the result takes lane lanes[k] of the row: a shuffle of the row with itself. */
function turn(row: string, lanes: number[]): string {
  const bytes = lanes.flatMap((lane) => [0, 1, 2, 3].map((b) => 4 * lane + b)).join(' ');
  return `local.get $${row}  local.get $${row}  i8x16.shuffle ${bytes}  local.set $${row}`;
}

/** Four i32 words as the 16 bytes of a v128.const, little-endian. */
function vectorConst(words: number[]): string {
  return `v128.const i8x16 ${words.flatMap((w) => [0, 8, 16, 24].map((shift) => (w >>> shift) & 0xff)).join(' ')}`;
}

/**
 * The rounds on rows. After the columns, row 0 is turned one lane right, row 2 one lane
 * left and row 3 two, so lane k holds the diagonal g whose b is word 4 + k (row 1 stays
 * put): lane 0 g(3, 4, 9, 14), lane 1 g(0, 5, 10, 15), lane 2 g(1, 6, 11, 12), lane 3
 * g(2, 7, 8, 13), the spec's diagonals 3, 0, 1, 2, whose message words follow that order.
 */
function rowsRounds(): string[] {
  const lines: string[] = [];
  let order = range(16);
  const pick = (first: number, lanes: number[]) => lanes.map((g) => order[2 * g + first]);
  for (const round of range(ROUNDS)) {
    lines.push(`;; round ${round}: message order ${order.join(' ')}`);
    lines.push(';; columns: g(0, 4, 8, 12)  g(1, 5, 9, 13)  g(2, 6, 10, 14)  g(3, 7, 11, 15), one per lane');
    lines.push(...rowsHalfRound(pick(0, [0, 1, 2, 3]), pick(1, [0, 1, 2, 3])));
    lines.push(';; turn rows 0, 2 and 3 so that each diagonal lies in one lane');
    lines.push(turn('row0', [3, 0, 1, 2]), turn('row2', [1, 2, 3, 0]), turn('row3', [2, 3, 0, 1]));
    lines.push(';; diagonals: g(3, 4, 9, 14)  g(0, 5, 10, 15)  g(1, 6, 11, 12)  g(2, 7, 8, 13), one per lane');
    lines.push(...rowsHalfRound(pick(0, [7, 4, 5, 6]), pick(1, [7, 4, 5, 6])));
    lines.push(';; and back');
    lines.push(turn('row0', [1, 2, 3, 0]), turn('row2', [3, 0, 1, 2]), turn('row3', [2, 3, 0, 1]));
    order = MSG_PERMUTATION.map((p) => order[p]);
  }
  return lines;
}

// The block loop both versions share: its head sets $more, its tail steps to the next block.
const BLOCK_START = [
  'loop $block',
  ';; $more: another block follows this one',
  `local.get $length  i32.const ${BLOCK_LEN}  i32.gt_u  local.set $more`,
];
const NEXT_BLOCK = [
  ';; on to the next block, which has no start flag',
  `local.get $input  i32.const ${BLOCK_LEN}  i32.add  local.set $input`,
  `local.get $length  i32.const ${BLOCK_LEN}  i32.sub  local.set $length`,
  'i32.const 0  local.set $flags',
  'local.get $more  br_if $block',
  'end',
];

function rowsBody(): string[] {
  return [
    ';; the chaining value (rows 0 and 1) starts as the key words: the IV for plain hashing',
    `${vectorConst(IV.slice(0, 4))}  local.set $row0`,
    `${vectorConst(IV.slice(4, 8))}  local.set $row1`,
    'local.get $startFlags  local.set $flags',
    ...BLOCK_START,
    ';; row 2: IV 0-3; row 3: counter low, counter high, block length, flags',
    `${vectorConst(IV.slice(0, 4))}  local.set $row2`,
    ';; a whole block but the last, which has what is left; the last also gets $endFlags',
    'local.get $counterLow  i32x4.splat  local.get $counterHigh  i32x4.replace_lane 1',
    `i32.const ${BLOCK_LEN}  local.get $length  local.get $more  select  i32x4.replace_lane 2`,
    'local.get $flags  local.get $flags  local.get $endFlags  i32.or  local.get $more  select  i32x4.replace_lane 3  local.set $row3',
    ...rowsRounds(),
    ';; the new chaining value: rows 0 and 1 ^= rows 2 and 3',
    'local.get $row0  local.get $row2  v128.xor  local.set $row0',
    'local.get $row1  local.get $row3  v128.xor  local.set $row1',
    ...NEXT_BLOCK,
    ';; the chaining value, little-endian, to $output',
    'local.get $output  local.get $row0  v128.store offset=0',
    'local.get $output  local.get $row1  v128.store offset=16',
  ];
}

function wordsBody(): string[] {
  return [
    ';; the chaining value starts as the key words: the IV for plain hashing',
    ...range(8).map((i) => `i32.const ${IV[i] | 0}  local.set $s${i}`),
    'local.get $startFlags  local.set $flags',
    ...BLOCK_START,
    ';; state = chaining value (s0-s7 already), IV 0-3, counter low, counter high, block length, flags',
    ...range(4).map((i) => `i32.const ${IV[i] | 0}  local.set $s${i + 8}`),
    'local.get $counterLow  local.set $s12',
    'local.get $counterHigh  local.set $s13',
    ';; a whole block but the last, which has what is left; the last also gets $endFlags',
    `i32.const ${BLOCK_LEN}  local.get $length  local.get $more  select  local.set $s14`,
    'local.get $flags  local.get $flags  local.get $endFlags  i32.or  local.get $more  select  local.set $s15',
    ...rounds(),
    ';; the new chaining value: s[i] ^= s[i + 8]',
    ...range(8).map((i) => `local.get $s${i}  local.get $s${i + 8}  i32.xor  local.set $s${i}`),
    ...NEXT_BLOCK,
    ';; the chaining value, little-endian, to $output',
    ...range(8).map((i) => `local.get $output  local.get $s${i}  i32.store offset=${4 * i}`),
  ];
}

const PARAMS = ['input', 'length', 'counterLow', 'counterHigh', 'startFlags', 'endFlags', 'output'];

/** The text of compress1x.ts. Pure, so a test can compare it with the checked-in file. */
export function generate(): string {
  const quoted = (names: string[]) => names.map((name) => `'${name}'`).join(', ');
  const listing = (constant: string, name: string, i32Locals: string, v128Locals: string, body: string[]) => [
    `export const ${constant}: FunctionModule = {`,
    `  name: '${name}',`,
    `  params: [${quoted(PARAMS)}],`,
    i32Locals,
    v128Locals,
    '  memoryPages: 1,',
    '  body: [',
    ...body.map((line) => `    '${line.replace(/'/g, "\\'")}',`),
    '  ],',
    '};',
  ];
  return [
    '// Code generated by steps/10-simd-one-block/gen.ts; DO NOT EDIT.',
    '',
    '// compress1xRows and compress1xWords (input, length, counterLow, counterHigh, startFlags,',
    '// endFlags, output): one BLAKE3 chunk (0 to 1024 bytes at $input, zero-padded to whole',
    '// blocks by the caller) or one parent block, written as WebAssembly text that wasm.ts',
    '// assembles. Its blocks are compressed one after the other, each with the previous',
    '// output as chaining value (the IV for the first), the first with $startFlags, the last',
    '// with $endFlags as well; the chaining value that comes out is written to $output. Rows:',
    '// the state as four vectors of four words, a line per statement of g for four g\'s at',
    '// once. Words: the state as 16 i32 locals, the four g\'s of a half-round taking turns.',
    '',
    "import type { FunctionModule } from './wasm.ts';",
    '',
    ...listing(
      'COMPRESS1X_ROWS',
      'compress1xRows',
      `  // The flags of the block being compressed, whether another block follows.\n  i32Locals: [${quoted(['flags', 'more'])}],`,
      `  // The state as four rows, and a scratch vector for rotations.\n  v128Locals: [${quoted(['row0', 'row1', 'row2', 'row3', 't'])}],`,
      rowsBody(),
    ),
    '',
    ...listing(
      'COMPRESS1X_WORDS',
      'compress1xWords',
      `  // The flags of the block being compressed, whether another block follows, the state s0..s15.\n  i32Locals: [\n    ${quoted(['flags', 'more'])},\n    ${quoted(range(16).map((i) => `s${i}`))},\n  ],`,
      '  v128Locals: [],',
      wordsBody(),
    ),
    '',
  ].join('\n');
}

// Run directly (`npx tsx steps/10-simd-one-block/gen.ts`) to rewrite compress1x.ts;
// `npm run gen` reruns every generator.
if (typeof process !== 'undefined' && process.argv[1]) {
  const { pathToFileURL } = await import('node:url');
  if (import.meta.url === pathToFileURL(process.argv[1]).href) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(new URL(OUTPUT_FILE, import.meta.url), generate());
  }
}
