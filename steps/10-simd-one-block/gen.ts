// Writes compress1x.ts: the WebAssembly function that hashes ONE chunk, or one parent
// block, a block at a time, as lines of WAT that wasm.ts assembles into bytes at runtime.
//
// Run: npx tsx steps/10-simd-one-block/gen.ts   (or `npm run gen` for every generator)
//
// It is stage 6's compress() written in WebAssembly: the 16 state words in i32 locals
// s0..s15, every g written out, the message permutation resolved here, at generation
// time, so round r reads the block's words in the order the permutation gives. Two things
// JavaScript cannot say directly: a rotation is one instruction (i32.rotr), and a message
// word is read from memory where it is added (i32.load with the word's offset), which the
// compiler folds into the addition. The four g's of a half-round touch different words,
// so their statements take turns, as in stage 9, and the processor runs the four chains
// side by side.
//
// Why not SIMD: one block is one chain of dependent steps, so four lanes can only hold
// the four g's of a half-round, the state as four rows of four words, with the rows
// turned by lane shuffles between the column and the diagonal steps (how BLAKE3's SSE4.1
// code compresses one block). We wrote that and measured it: see blake3.ts for why it
// lost here.

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

function body(): string[] {
  return [
    ';; the chaining value starts as the key words: the IV for plain hashing',
    ...range(8).map((i) => `i32.const ${IV[i] | 0}  local.set $s${i}`),
    'local.get $startFlags  local.set $flags',
    'loop $block',
    ';; $more: another block follows this one',
    `local.get $length  i32.const ${BLOCK_LEN}  i32.gt_u  local.set $more`,
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
    ';; on to the next block, which has no start flag',
    `local.get $input  i32.const ${BLOCK_LEN}  i32.add  local.set $input`,
    `local.get $length  i32.const ${BLOCK_LEN}  i32.sub  local.set $length`,
    'i32.const 0  local.set $flags',
    'local.get $more  br_if $block',
    'end',
    ';; the chaining value, little-endian, to $output',
    ...range(8).map((i) => `local.get $output  local.get $s${i}  i32.store offset=${4 * i}`),
  ];
}

/** The text of compress1x.ts. Pure, so a test can compare it with the checked-in file. */
export function generate(): string {
  const quoted = (names: string[]) => names.map((name) => `'${name}'`).join(', ');
  return [
    '// Code generated by steps/10-simd-one-block/gen.ts; DO NOT EDIT.',
    '',
    '// compress1x(input, length, counterLow, counterHigh, startFlags, endFlags, output): one',
    '// BLAKE3 chunk (0 to 1024 bytes at $input, zero-padded to whole blocks by the caller) or',
    '// one parent block, written as WebAssembly text that wasm.ts assembles. Its blocks are',
    '// compressed one after the other, each with the previous output as chaining value (the',
    '// IV for the first), the first with $startFlags, the last with $endFlags as well; the',
    '// chaining value that comes out is written to $output. Each line of the rounds is one',
    "// statement of the spec's g; the four g's of a half-round take turns, a statement each.",
    '',
    "import type { FunctionModule } from './wasm.ts';",
    '',
    'export const COMPRESS1X: FunctionModule = {',
    "  name: 'compress1x',",
    `  params: [${quoted(['input', 'length', 'counterLow', 'counterHigh', 'startFlags', 'endFlags', 'output'])}],`,
    '  // The flags of the block being compressed, whether another block follows, the state s0..s15.',
    `  i32Locals: [\n    ${quoted(['flags', 'more'])},\n    ${quoted(range(16).map((i) => `s${i}`))},\n  ],`,
    '  v128Locals: [],',
    '  memoryPages: 1,',
    '  body: [',
    ...body().map((line) => `    '${line.replace(/'/g, "\\'")}',`),
    '  ],',
    '};',
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
