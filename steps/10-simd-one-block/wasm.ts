// A tiny WebAssembly assembler: just enough to turn one function, written as lines of
// WebAssembly text (WAT), into the bytes of a module, and to print the same lines back
// as a readable module for the UI. Because the bytes and the text both come from the
// one list of lines, the text shown is always exactly what runs.
//
// Opcodes are named by their WAT mnemonic, as in the spec's instruction index
// (webassembly.github.io/spec, "Instructions"). SIMD opcodes live behind the 0xfd
// prefix, followed by their number as an unsigned LEB128.

// Plain opcodes (one byte each).
const LOOP = 0x03;
const BR_IF = 0x0d;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const SELECT = 0x1b;
const I32_CONST = 0x41;
const I32_GT_U = 0x4b;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_OR = 0x72;
const I32_XOR = 0x73;
const I32_ROTR = 0x78;
const I32_LOAD = 0x28;
const I32_STORE = 0x36;
const END = 0x0b;

// SIMD opcodes (after the 0xfd prefix).
const SIMD_PREFIX = 0xfd;
const V128_LOAD = 0x00;
const V128_STORE = 0x0b;
const V128_CONST = 0x0c;
const I8X16_SHUFFLE = 0x0d;
const I8X16_SWIZZLE = 0x0e;
const V128_OR = 0x50;
const V128_XOR = 0x51;
const I32X4_SPLAT = 0x11;
const I32X4_REPLACE_LANE = 0x1c;
const I32X4_SHL = 0xab;
const I32X4_SHR_U = 0xad;
const I32X4_ADD = 0xae;

// Value and section codes.
const TYPE_I32 = 0x7f;
const TYPE_V128 = 0x7b;
const BLOCK_TYPE_EMPTY = 0x40;
const FUNC_TYPE = 0x60;
const SECTION_TYPE = 1;
const SECTION_IMPORT = 2;
const SECTION_FUNCTION = 3;
const SECTION_EXPORT = 7;
const SECTION_CODE = 10;
const IMPORT_MEMORY = 0x02;
const EXPORT_FUNC = 0x00;
const LIMITS_MIN_MAX = 0x01;

/** log2 of the natural alignment of a v128 (16 bytes) and of an i32 (4): the `align` of loads and stores. */
const V128_ALIGN = 4;
const I32_ALIGN = 2;

type Immediate = 'none' | 'local' | 'i32' | 'memarg' | 'label' | 'branch' | 'lanes' | 'bytes' | 'lane';

/** Every instruction the assembler knows: its encoding and what immediate follows it. */
const INSTRUCTIONS: Record<string, { opcode: number; simd: boolean; immediate: Immediate }> = {
  loop: { opcode: LOOP, simd: false, immediate: 'label' },
  br_if: { opcode: BR_IF, simd: false, immediate: 'branch' },
  end: { opcode: END, simd: false, immediate: 'none' },
  'local.get': { opcode: LOCAL_GET, simd: false, immediate: 'local' },
  'local.set': { opcode: LOCAL_SET, simd: false, immediate: 'local' },
  'local.tee': { opcode: LOCAL_TEE, simd: false, immediate: 'local' },
  'i32.const': { opcode: I32_CONST, simd: false, immediate: 'i32' },
  'i32.add': { opcode: I32_ADD, simd: false, immediate: 'none' },
  'i32.sub': { opcode: I32_SUB, simd: false, immediate: 'none' },
  'i32.or': { opcode: I32_OR, simd: false, immediate: 'none' },
  'i32.xor': { opcode: I32_XOR, simd: false, immediate: 'none' },
  'i32.rotr': { opcode: I32_ROTR, simd: false, immediate: 'none' },
  'i32.load': { opcode: I32_LOAD, simd: false, immediate: 'memarg' },
  'i32.store': { opcode: I32_STORE, simd: false, immediate: 'memarg' },
  'i32.gt_u': { opcode: I32_GT_U, simd: false, immediate: 'none' },
  select: { opcode: SELECT, simd: false, immediate: 'none' },
  'v128.load': { opcode: V128_LOAD, simd: true, immediate: 'memarg' },
  'v128.store': { opcode: V128_STORE, simd: true, immediate: 'memarg' },
  'v128.const': { opcode: V128_CONST, simd: true, immediate: 'bytes' },
  'i8x16.shuffle': { opcode: I8X16_SHUFFLE, simd: true, immediate: 'lanes' },
  'i8x16.swizzle': { opcode: I8X16_SWIZZLE, simd: true, immediate: 'none' },
  'v128.or': { opcode: V128_OR, simd: true, immediate: 'none' },
  'v128.xor': { opcode: V128_XOR, simd: true, immediate: 'none' },
  'i32x4.splat': { opcode: I32X4_SPLAT, simd: true, immediate: 'none' },
  'i32x4.replace_lane': { opcode: I32X4_REPLACE_LANE, simd: true, immediate: 'lane' },
  'i32x4.shl': { opcode: I32X4_SHL, simd: true, immediate: 'none' },
  'i32x4.shr_u': { opcode: I32X4_SHR_U, simd: true, immediate: 'none' },
  'i32x4.add': { opcode: I32X4_ADD, simd: true, immediate: 'none' },
};

/** One exported function over an imported memory: all the module we ever need. */
export interface FunctionModule {
  /** Export name, also used as the function's WAT name. */
  name: string;
  /** Names of the i32 parameters, in order. */
  params: string[];
  /** Names of the i32 locals (addresses). */
  i32Locals: string[];
  /** Names of the v128 locals. */
  v128Locals: string[];
  /** Instructions, as WAT lines: several instructions per line, `;;` starts a comment. */
  body: readonly string[];
  /** The imported memory ("env" "memory") in 64 KiB pages; min = max, so it never grows. */
  memoryPages: number;
}

/** Unsigned LEB128: seven bits a byte, low bits first, high bit set while more follow. */
export function unsignedLeb128(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/** Signed LEB128 of an i32: like unsigned, but stops once the sign bit of the last byte agrees. */
export function signedLeb128(value: number): number[] {
  const bytes: number[] = [];
  value |= 0;
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

function utf8Name(name: string): number[] {
  const bytes = [...new TextEncoder().encode(name)];
  return [...unsignedLeb128(bytes.length), ...bytes];
}

/** A vector in the binary format: its length, then its items. */
function vec(items: number[][]): number[] {
  return [...unsignedLeb128(items.length), ...items.flat()];
}

/** A section: its id, then its contents prefixed by their byte length. */
function section(id: number, contents: number[]): number[] {
  return [id, ...unsignedLeb128(contents.length), ...contents];
}

/** Remove a `;;` comment and split a WAT line into its tokens. */
function tokens(line: string): string[] {
  const comment = line.indexOf(';;');
  const code = comment === -1 ? line : line.slice(0, comment);
  return code.split(/\s+/).filter((token) => token !== '');
}

/** Encode the body lines into instruction bytes (without the function's final `end`). */
function encodeBody(fn: FunctionModule): number[] {
  const localIndex = new Map<string, number>();
  [...fn.params, ...fn.i32Locals, ...fn.v128Locals].forEach((name, index) => localIndex.set(`$${name}`, index));
  const labels: string[] = []; // the enclosing loops, innermost last
  const bytes: number[] = [];
  for (const line of fn.body) {
    const words = tokens(line);
    for (let i = 0; i < words.length; i++) {
      const mnemonic = words[i];
      const instruction = INSTRUCTIONS[mnemonic];
      if (instruction === undefined) throw new Error(`wasm: unknown instruction "${mnemonic}" in "${line}"`);
      if (instruction.simd) bytes.push(SIMD_PREFIX, ...unsignedLeb128(instruction.opcode));
      else bytes.push(instruction.opcode);
      if (mnemonic === 'end' && labels.pop() === undefined) throw new Error(`wasm: "end" closes nothing in "${line}"`);
      if (instruction.immediate === 'memarg') {
        // Alignment (always natural), then the offset: `offset=N` when given, else 0.
        const offset = /^offset=(\d+)$/.exec(words[i + 1] ?? '');
        if (offset !== null) i++;
        const align = mnemonic.startsWith('i32.') ? I32_ALIGN : V128_ALIGN;
        bytes.push(...unsignedLeb128(align), ...unsignedLeb128(offset === null ? 0 : Number(offset[1])));
      } else if (instruction.immediate === 'local') {
        const operand = words[++i];
        const index = localIndex.get(operand);
        if (index === undefined) throw new Error(`wasm: unknown local "${operand}" in "${line}"`);
        bytes.push(...unsignedLeb128(index));
      } else if (instruction.immediate === 'i32') {
        const operand = words[++i];
        if (!/^-?\d+$/.test(operand ?? '')) throw new Error(`wasm: i32.const needs an integer in "${line}"`);
        bytes.push(...signedLeb128(Number(operand)));
      } else if (instruction.immediate === 'label') {
        // `loop $name`: a block with no result, which `br_if $name` jumps back to the top of.
        labels.push(words[++i] ?? '');
        bytes.push(BLOCK_TYPE_EMPTY);
      } else if (instruction.immediate === 'branch') {
        // Branches name their target; the binary counts enclosing blocks outward from 0.
        const depth = labels.length - 1 - labels.lastIndexOf(words[++i] ?? '');
        if (depth === labels.length) throw new Error(`wasm: no enclosing loop "${words[i]}" in "${line}"`);
        bytes.push(...unsignedLeb128(depth));
      } else if (instruction.immediate === 'lane') {
        // i32x4.replace_lane: which of the four 32-bit lanes, one byte.
        const lane = words[++i];
        if (!/^[0-3]$/.test(lane ?? '')) throw new Error(`wasm: ${mnemonic} needs a lane from 0 to 3 in "${line}"`);
        bytes.push(Number(lane));
      } else if (instruction.immediate === 'lanes' || instruction.immediate === 'bytes') {
        // i8x16.shuffle: 16 byte indices, 0-15 from the first operand, 16-31 from the second.
        // v128.const: `i8x16` and the vector's 16 bytes.
        const isConst = instruction.immediate === 'bytes';
        if (isConst && words[++i] !== 'i8x16') throw new Error(`wasm: v128.const takes i8x16 bytes in "${line}"`);
        const values = words.slice(i + 1, i + 17).map(Number);
        const limit = isConst ? 256 : 32;
        if (values.length !== 16 || !values.every((value) => Number.isInteger(value) && value >= 0 && value < limit)) {
          throw new Error(`wasm: ${mnemonic} needs 16 values from 0 to ${limit - 1} in "${line}"`);
        }
        i += 16;
        bytes.push(...values);
      }
    }
  }
  if (labels.length > 0) throw new Error(`wasm: loop ${labels.join(', ')} has no "end"`);
  return bytes;
}

/** The binary module: header, then the type, import, function, export and code sections. */
export function assemble(fn: FunctionModule): Uint8Array<ArrayBuffer> {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]; // "\0asm", version 1
  const funcType = [FUNC_TYPE, ...vec(fn.params.map(() => [TYPE_I32])), ...vec([])];
  const memoryImport = [
    ...utf8Name('env'),
    ...utf8Name('memory'),
    IMPORT_MEMORY,
    LIMITS_MIN_MAX,
    ...unsignedLeb128(fn.memoryPages),
    ...unsignedLeb128(fn.memoryPages),
  ];
  const functionExport = [...utf8Name(fn.name), EXPORT_FUNC, ...unsignedLeb128(0)];
  // Locals are declared as (count, type) runs: the i32s, then the v128s.
  const localRuns = [
    [...unsignedLeb128(fn.i32Locals.length), TYPE_I32],
    [...unsignedLeb128(fn.v128Locals.length), TYPE_V128],
  ].filter((run) => run[0] !== 0);
  const code = [...vec(localRuns), ...encodeBody(fn), END];
  return new Uint8Array([
    ...header,
    ...section(SECTION_TYPE, vec([funcType])),
    ...section(SECTION_IMPORT, vec([memoryImport])),
    ...section(SECTION_FUNCTION, vec([unsignedLeb128(0)])),
    ...section(SECTION_EXPORT, vec([functionExport])),
    ...section(SECTION_CODE, vec([[...unsignedLeb128(code.length), ...code]])),
  ]);
}

/** The body lines, indented one more step inside each loop, as WAT is usually printed. */
function indentLoops(body: readonly string[]): string[] {
  let depth = 2;
  return body.map((line) => {
    const words = tokens(line);
    if (words[0] === 'end') depth--;
    const indented = '  '.repeat(depth) + line;
    if (words[0] === 'loop') depth++;
    return indented;
  });
}

/** The same module as WAT text, section by section, the body lines as they are. */
export function printWat(fn: FunctionModule): string {
  const params = fn.params.map((name) => ` (param $${name} i32)`).join('');
  const paramTypes = fn.params.map(() => ' i32').join('');
  const locals = (names: string[], type: string) => {
    const lines: string[] = [];
    for (let i = 0; i < names.length; i += 8) {
      lines.push('    ' + names.slice(i, i + 8).map((name) => `(local $${name} ${type})`).join(' '));
    }
    return lines;
  };
  return [
    '(module',
    `  (type $t0 (func (param${paramTypes})))`,
    `  (import "env" "memory" (memory ${fn.memoryPages} ${fn.memoryPages}))`,
    `  (func $${fn.name} (type $t0)${params}`,
    ...locals(fn.i32Locals, 'i32'),
    ...locals(fn.v128Locals, 'v128'),
    ...indentLoops(fn.body),
    '  )',
    `  (export "${fn.name}" (func $${fn.name}))`,
    ')',
    '',
  ].join('\n');
}
