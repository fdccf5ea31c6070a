// Writes compress4x.ts: the WebAssembly function that runs four BLAKE3 compressions at
// once, as lines of WAT that wasm.ts assembles into bytes at runtime.
//
// Run: npx tsx steps/09-simd-wasm/gen.ts   (or `npm run gen` for every generator)
//
// Each v128 value holds the same word of four independent inputs (lane k = input k), so
// the scalar algorithm carries over word for word: every `+` becomes i32x4.add, every
// `^` v128.xor, and a rotation, which has no SIMD instruction, becomes two shifts and
// an or, or, by 16 and 8, one byte swizzle. Where stage 6 moves its message locals
// between rounds, the permutation is resolved here, at generation time: round r reads the
// message locals in the order the permutation gives, so nothing is permuted at runtime.
// The inputs arrive as they are in memory; the function transposes them into lanes
// itself, with byte shuffles.

/**
 * The files this generator writes, relative to this one. Stage 10 keeps compress4x as it
 * is, in its own folder, so the diff view pairs compress4x.ts with compress4x.ts.
 */
export const OUTPUT_FILES = ['./compress4x.ts', '../10-simd-one-block/compress4x.ts'];

const MSG_PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
const ROUNDS = 7;
const VECTOR = 16; // bytes in a v128
const BLOCK_LEN = 64;
const CHUNK_LEN = 1024;
const SUBTREE_CHUNKS = 32;

// Memory layout: byte addresses in the module's one 64 KiB page, and what lies there.
// The constant vectors hold the same word in all four lanes; JS writes them once.
const LAYOUT: [name: string, address: number, doc: string][] = [
  ['IV', 0, '8 vectors: IV word i in every lane, the key words of plain hashing.'],
  ['COUNTER_LOW', 8 * VECTOR, 'Chunk counter of each lane, low 32 bits (0 for parents).'],
  ['COUNTER_HIGH', 9 * VECTOR, 'Chunk counter of each lane, high 32 bits.'],
  ['BLOCK_LEN', 10 * VECTOR, 'Block length: always 64, since only whole blocks come this way.'],
  ['CHUNK_FLAGS', 11 * VECTOR, '16 vectors: the flags of blocks 0-15 of a chunk (CHUNK_START, 0, ..., CHUNK_END).'],
  ['PARENT_FLAGS', 27 * VECTOR, 'The flags of a parent: PARENT.'],
  ['ROOT_FLAGS', 28 * VECTOR, 'The flags of the root parent: PARENT | ROOT.'],
  ['CVS', 32 * VECTOR, `${SUBTREE_CHUNKS} chaining values of 32 bytes, one after the other: a subtree's chunks, then its parents.`],
  ['INPUT', 32 * VECTOR + SUBTREE_CHUNKS * 32, `${SUBTREE_CHUNKS} chunks of input (${SUBTREE_CHUNKS} KiB), as they are.`],
];
const address = (name: string) => LAYOUT.find(([entry]) => entry === name)![1];
const PAGE_END = address('INPUT') + SUBTREE_CHUNKS * CHUNK_LEN;
if (PAGE_END > 65536) throw new Error(`gen: the layout needs ${PAGE_END} bytes, more than one 64 KiB page`);

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

/** The byte indices of an i8x16.shuffle that picks 32-bit lanes (0-3 of a, 4-7 of b). */
const pickLanes = (lanes: number[]) => lanes.flatMap((lane) => range(4).map((byte) => 4 * lane + byte)).join(' ');

/**
 * The byte order of each lane rotated right by r bits, r a multiple of 8: in little-endian
 * order, byte i of the result is byte i + r / 8 of the word.
 */
const rotateBytes = (r: number) => range(16).map((i) => (i & ~3) + ((i + r / 8) & 3)).join(' ');

/**
 * `$s[dst] = rotr($s[x] ^ $s[y], r)`. Rotations by 16 and 8 move whole bytes, so one byte
 * swizzle does them, by the byte order in $rot16 or $rot8; by 12 and 7 they are
 * (v >>> r) | (v << 32 - r).
 */
function xorRotate(dst: number, x: number, y: number, r: number): string {
  const xor = `local.get $s${x}  local.get $s${y}  v128.xor  `;
  if (r % 8 === 0) return xor + `local.get $rot${r}  i8x16.swizzle  local.set $s${dst}`;
  return xor + `local.tee $t  i32.const ${r}  i32x4.shr_u  local.get $t  i32.const ${32 - r}  i32x4.shl  v128.or  local.set $s${dst}`;
}

/**
 * The quarter-round g as eight lines, one per statement of the spec. The message word is
 * added first: it is ready long before $s[b], so that addition is off the critical path.
 */
function g(a: number, b: number, c: number, d: number, mx: number, my: number): string[] {
  return [
    `local.get $s${a}  local.get $m${mx}  i32x4.add  local.get $s${b}  i32x4.add  local.set $s${a}`,
    xorRotate(d, d, a, 16),
    `local.get $s${c}  local.get $s${d}  i32x4.add  local.set $s${c}`,
    xorRotate(b, b, c, 12),
    `local.get $s${a}  local.get $m${my}  i32x4.add  local.get $s${b}  i32x4.add  local.set $s${a}`,
    xorRotate(d, d, a, 8),
    `local.get $s${c}  local.get $s${d}  i32x4.add  local.set $s${c}`,
    xorRotate(b, b, c, 7),
  ];
}

/**
 * Transposes the 4 x 4 words in vectors `from` into vectors `to`: word i of from[k] goes
 * to lane k of to[i]. Two steps of pairing, the usual SIMD transpose: interleave the words
 * of from[0] with from[1] and of from[2] with from[3] (into $y0..$y3), then join halves.
 */
function transpose(from: string[], to: string[]): string[] {
  const steps = [
    ['$y0', from[0], from[1], [0, 4, 1, 5]],
    ['$y1', from[0], from[1], [2, 6, 3, 7]],
    ['$y2', from[2], from[3], [0, 4, 1, 5]],
    ['$y3', from[2], from[3], [2, 6, 3, 7]],
    [to[0], '$y0', '$y2', [0, 1, 4, 5]],
    [to[1], '$y0', '$y2', [2, 3, 6, 7]],
    [to[2], '$y1', '$y3', [0, 1, 4, 5]],
    [to[3], '$y1', '$y3', [2, 3, 6, 7]],
  ] as const;
  return steps.map(([dst, a, b, lanes]) => `local.get ${a}  local.get ${b}  i8x16.shuffle ${pickLanes([...lanes])}  local.set ${dst}`);
}

const LANE_ADDRESSES = ['$input', '$input1', '$input2', '$input3'];

/** Loads the block's 16 words from each lane's address, transposed into $m0..$m15. */
function loadMessage(): string[] {
  const lines: string[] = [];
  for (const quarter of range(4)) {
    const offset = quarter === 0 ? '' : ` offset=${quarter * VECTOR}`;
    const rows = range(4).map((k) => `$x${k}`);
    lines.push(`;; message words ${4 * quarter}-${4 * quarter + 3}: four from each lane, transposed`);
    LANE_ADDRESSES.forEach((at, k) => lines.push(`local.get ${at}  v128.load${offset}  local.set ${rows[k]}`));
    lines.push(...transpose(rows, range(4).map((i) => `$m${4 * quarter + i}`)));
  }
  return lines;
}

/** The 7 rounds, with the message permutation resolved: round r reads m in its order. */
function rounds(): string[] {
  const lines: string[] = [];
  let order = range(16);
  for (const round of range(ROUNDS)) {
    lines.push(`;; round ${round}: message order ${order.join(' ')}`);
    // The four g's of a half-round touch different words, so their statements can take
    // turns: four lines, one per g, for each statement in order.
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

function body(): string[] {
  const state = [
    ...range(4).map((i) => address('IV') + i * VECTOR),
    ...['COUNTER_LOW', 'COUNTER_HIGH', 'BLOCK_LEN'].map(address),
  ];
  return [
    ';; lane k reads its blocks from $input + k * $stride',
    'local.get $input  local.get $stride  i32.add  local.tee $input1',
    'local.get $stride  i32.add  local.tee $input2',
    'local.get $stride  i32.add  local.set $input3',
    ';; byte orders for the rotations by 16 and 8',
    `v128.const i8x16 ${rotateBytes(16)}  local.set $rot16`,
    `v128.const i8x16 ${rotateBytes(8)}  local.set $rot8`,
    ';; the chaining values start as the key words',
    ...range(8).map((i) => `i32.const ${address('IV') + i * VECTOR}  v128.load  local.set $s${i}`),
    'loop $block',
    ...loadMessage(),
    ';; state = chaining value (s0-s7 already), IV 0-3, counter low, counter high, block length, flags',
    ...state.map((at, i) => `i32.const ${at}  v128.load  local.set $s${i + 8}`),
    'local.get $flags  v128.load  local.set $s15',
    ...rounds(),
    ';; new chaining value: s[i] ^= s[i + 8]',
    ...range(8).map((i) => `local.get $s${i}  local.get $s${i + 8}  v128.xor  local.set $s${i}`),
    ';; on to the next block of each lane and its flags, until $blocks are done',
    ...LANE_ADDRESSES.map((at) => `local.get ${at}  i32.const ${BLOCK_LEN}  i32.add  local.set ${at}`),
    `local.get $flags  i32.const ${VECTOR}  i32.add  local.set $flags`,
    'local.get $blocks  i32.const 1  i32.sub  local.tee $blocks  br_if $block',
    'end',
    ';; lane k\'s chaining value, transposed back, to $output + 32 * k',
    ...range(2).flatMap((half) => [
      ...transpose(range(4).map((i) => `$s${4 * half + i}`), range(4).map((k) => `$x${k}`)),
      ...range(4).map((k) => `local.get $output  local.get $x${k}  v128.store offset=${32 * k + VECTOR * half}`),
    ]),
  ];
}

/** The text of compress4x.ts. Pure, so a test can compare it with the checked-in file. */
export function generate(): string {
  const quoted = (names: string[]) => names.map((name) => `'${name}'`).join(', ');
  const numbered = (prefix: string, n: number) => quoted(range(n).map((i) => `${prefix}${i}`));
  return [
    '// Code generated by steps/09-simd-wasm/gen.ts; DO NOT EDIT.',
    '',
    '// compress4x(input, stride, blocks, flags, output): four BLAKE3 inputs side by side, lane',
    '// k of every vector belonging to input k, written as WebAssembly text that wasm.ts',
    '// assembles. Input k is `blocks` (1 or more) whole blocks at $input + k * $stride; each',
    '// is compressed with the previous output as chaining value (the IV for the first) and',
    '// the flags vector at $flags + 16 * b; the four chaining values that come out are written',
    '// one after the other at $output. Each line of the rounds is one statement of the',
    '// spec\'s g, on all four lanes; the four g\'s of a half-round take turns, a statement each.',
    '',
    "import type { FunctionModule } from './wasm.ts';",
    '',
    '/** The most chunks the memory holds at once: the largest subtree hashed in one go. */',
    `export const SUBTREE_CHUNKS = ${SUBTREE_CHUNKS};`,
    '',
    '// Memory layout, byte addresses.',
    ...LAYOUT.flatMap(([name, at, doc]) => [`/** ${doc} */`, `export const ${name} = ${at};`]),
    '',
    'export const COMPRESS4X: FunctionModule = {',
    "  name: 'compress4x',",
    "  params: ['input', 'stride', 'blocks', 'flags', 'output'],",
    "  // The addresses lanes 1-3 read from.",
    `  i32Locals: [${quoted(['input1', 'input2', 'input3'])}],`,
    '  // The state s0..s15, the message m0..m15, t and the byte orders for the rotations, x and y',
    '  // for transposing.',
    `  v128Locals: [\n    ${numbered('s', 16)},\n    ${numbered('m', 16)},\n    't', 'rot16', 'rot8', ${numbered('x', 4)}, ${numbered('y', 4)},\n  ],`,
    '  memoryPages: 1,',
    '  body: [',
    ...body().map((line) => `    '${line.replace(/'/g, "\\'")}',`),
    '  ],',
    '};',
    '',
  ].join('\n');
}

// Run directly (`npx tsx steps/09-simd-wasm/gen.ts`) to rewrite compress4x.ts;
// `npm run gen` reruns every generator.
if (typeof process !== 'undefined' && process.argv[1]) {
  const { pathToFileURL } = await import('node:url');
  if (import.meta.url === pathToFileURL(process.argv[1]).href) {
    const { writeFileSync } = await import('node:fs');
    for (const file of OUTPUT_FILES) writeFileSync(new URL(file, import.meta.url), generate());
  }
}
