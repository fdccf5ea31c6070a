// Writes wasm.ts: stage 9's assembler (steps/09-simd-wasm/wasm.ts), taught the
// instructions stage 10's one-block code needs besides stage 9's. Stage 10's folder must
// hold every file it imports (the playground runs one folder), so the assembler is a file
// here too; written from stage 9's text by the edits below, it can never drift from it,
// and the diff view of wasm.ts shows exactly what stage 10 adds.
//
// Run: npx tsx steps/10-simd-one-block/gen-wasm.ts   (or `npm run gen` for every generator)
//
// What it adds: 32-bit words in i32 locals (i32.or, i32.xor, i32.rotr, i32.gt_u, select,
// i32.load and i32.store at an i32's own alignment), and two instructions that build a
// vector from words (i32x4.splat, i32x4.replace_lane with its lane immediate).

/** The file this generator writes, relative to this one. */
export const OUTPUT_FILE = './wasm.ts';
/** The file it starts from, relative to this one. */
export const SOURCE_FILE = '../09-simd-wasm/wasm.ts';

/**
 * One edit: the lines to insert after an anchor line, or to put in place of the anchor
 * and the `count - 1` lines after it (count 1 when not given); the anchor must occur
 * exactly once. Stage 11's generators edit stage 10's files the same way.
 */
export interface Edit {
  anchor: string;
  insert?: string[];
  replace?: string[];
  count?: number;
}

const EDITS: Edit[] = [
  { anchor: 'const LOCAL_TEE = 0x22;', insert: ['const SELECT = 0x1b;'] },
  { anchor: 'const I32_CONST = 0x41;', insert: ['const I32_GT_U = 0x4b;'] },
  {
    anchor: 'const I32_SUB = 0x6b;',
    insert: ['const I32_OR = 0x72;', 'const I32_XOR = 0x73;', 'const I32_ROTR = 0x78;', 'const I32_LOAD = 0x28;', 'const I32_STORE = 0x36;'],
  },
  { anchor: 'const V128_XOR = 0x51;', insert: ['const I32X4_SPLAT = 0x11;', 'const I32X4_REPLACE_LANE = 0x1c;'] },
  {
    anchor: "/** log2 of a v128's natural alignment (16 bytes), the default `align` of v128.load/store. */",
    replace: ['/** log2 of the natural alignment of a v128 (16 bytes) and of an i32 (4): the `align` of loads and stores. */'],
  },
  { anchor: 'const V128_ALIGN = 4;', insert: ['const I32_ALIGN = 2;'] },
  {
    anchor: "type Immediate = 'none' | 'local' | 'i32' | 'memarg' | 'label' | 'branch' | 'lanes' | 'bytes';",
    replace: ["type Immediate = 'none' | 'local' | 'i32' | 'memarg' | 'label' | 'branch' | 'lanes' | 'bytes' | 'lane';"],
  },
  {
    anchor: "  'i32.sub': { opcode: I32_SUB, simd: false, immediate: 'none' },",
    insert: [
      "  'i32.or': { opcode: I32_OR, simd: false, immediate: 'none' },",
      "  'i32.xor': { opcode: I32_XOR, simd: false, immediate: 'none' },",
      "  'i32.rotr': { opcode: I32_ROTR, simd: false, immediate: 'none' },",
      "  'i32.load': { opcode: I32_LOAD, simd: false, immediate: 'memarg' },",
      "  'i32.store': { opcode: I32_STORE, simd: false, immediate: 'memarg' },",
      "  'i32.gt_u': { opcode: I32_GT_U, simd: false, immediate: 'none' },",
      "  select: { opcode: SELECT, simd: false, immediate: 'none' },",
    ],
  },
  {
    anchor: "  'v128.xor': { opcode: V128_XOR, simd: true, immediate: 'none' },",
    insert: [
      "  'i32x4.splat': { opcode: I32X4_SPLAT, simd: true, immediate: 'none' },",
      "  'i32x4.replace_lane': { opcode: I32X4_REPLACE_LANE, simd: true, immediate: 'lane' },",
    ],
  },
  {
    anchor: '        bytes.push(...unsignedLeb128(V128_ALIGN), ...unsignedLeb128(offset === null ? 0 : Number(offset[1])));',
    replace: [
      "        const align = mnemonic.startsWith('i32.') ? I32_ALIGN : V128_ALIGN;",
      '        bytes.push(...unsignedLeb128(align), ...unsignedLeb128(offset === null ? 0 : Number(offset[1])));',
    ],
  },
  {
    anchor: '        bytes.push(...values);',
    insert: [
      "      } else if (instruction.immediate === 'lane') {",
      '        // i32x4.replace_lane: which of the four 32-bit lanes, one byte.',
      '        const lane = words[++i];',
      "        if (!/^[0-3]$/.test(lane ?? '')) throw new Error(`wasm: ${mnemonic} needs a lane from 0 to 3 in \"${line}\"`);",
      '        bytes.push(Number(lane));',
    ],
  },
];

/** `text` with `edits` made in order, as lines. Pure; throws when an anchor is missing or not unique in `source`. */
export function applyEdits(text: string, edits: readonly Edit[], source: string): string[] {
  const lines = text.split('\n');
  for (const edit of edits) {
    const at = lines.indexOf(edit.anchor);
    if (at < 0 || lines.indexOf(edit.anchor, at + 1) >= 0) {
      throw new Error(`gen: the line ${JSON.stringify(edit.anchor)} must occur exactly once in ${source}`);
    }
    if (edit.replace) lines.splice(at, edit.count ?? 1, ...edit.replace);
    else lines.splice(at + 1, 0, ...(edit.insert ?? []));
  }
  return lines;
}

/** Stage 10's wasm.ts from stage 9's text. Pure; throws when an anchor is missing or not unique. */
export function generateFrom(stage9: string): string {
  const lines = applyEdits(stage9, EDITS, SOURCE_FILE);
  return ['// Code generated by steps/10-simd-one-block/gen-wasm.ts; DO NOT EDIT.', '', ...lines].join('\n');
}

// Node only: the generator reads stage 9's file; a browser never runs it.
let source: string | undefined;
if (typeof process !== 'undefined' && process.argv) {
  const { readFileSync } = await import('node:fs');
  source = readFileSync(new URL(SOURCE_FILE, import.meta.url), 'utf8');
}

/** The text of wasm.ts. */
export function generate(): string {
  if (source === undefined) throw new Error('gen-wasm: runs in Node, where it can read stage 9\'s wasm.ts');
  return generateFrom(source);
}

// Run directly (`npx tsx steps/10-simd-one-block/gen-wasm.ts`) to rewrite wasm.ts;
// `npm run gen` reruns every generator.
if (typeof process !== 'undefined' && process.argv[1]) {
  const { pathToFileURL } = await import('node:url');
  if (import.meta.url === pathToFileURL(process.argv[1]).href) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(new URL(OUTPUT_FILE, import.meta.url), generate());
  }
}
