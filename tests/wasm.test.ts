// Stage 9's tiny assembler (steps/09-simd-wasm/wasm.ts): the LEB128 encodings against the
// WebAssembly spec's examples, a small function assembled and run, the refusals a typo in
// the generator would meet, the WAT printed from the same lines as the bytes, what
// stage 9 does where the browser has no WebAssembly SIMD, and stage 10's two modules.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { assemble, printWat, signedLeb128, unsignedLeb128, type FunctionModule } from '../steps/09-simd-wasm/wasm.ts';
import { COMPRESS4X } from '../steps/09-simd-wasm/compress4x.ts';
import { wat } from '../steps/09-simd-wasm/blake3.ts';

describe('LEB128', () => {
  it('encodes unsigned numbers seven bits a byte, low bits first', () => {
    expect(unsignedLeb128(0)).toEqual([0x00]);
    expect(unsignedLeb128(127)).toEqual([0x7f]);
    expect(unsignedLeb128(128)).toEqual([0x80, 0x01]);
    expect(unsignedLeb128(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(unsignedLeb128(0xffffffff)).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f]);
  });

  it('encodes signed i32s, stopping once the sign bit agrees', () => {
    expect(signedLeb128(0)).toEqual([0x00]);
    expect(signedLeb128(63)).toEqual([0x3f]);
    expect(signedLeb128(64)).toEqual([0xc0, 0x00]);
    expect(signedLeb128(-1)).toEqual([0x7f]);
    expect(signedLeb128(-64)).toEqual([0x40]);
    expect(signedLeb128(-65)).toEqual([0xbf, 0x7f]);
    expect(signedLeb128(-123456)).toEqual([0xc0, 0xbb, 0x78]);
  });
});

/** dst += src, lane by lane, `count` times: a loop, a negative constant, tee, offsets. */
const ADD_LOOP: FunctionModule = {
  name: 'addLoop',
  params: ['src', 'dst', 'count'],
  i32Locals: [],
  v128Locals: ['sum'],
  memoryPages: 1,
  body: [
    'local.get $dst  v128.load offset=16  local.set $sum  ;; the running sum lives at dst + 16',
    'loop $again',
    'local.get $sum  local.get $src  v128.load  i32x4.add  local.set $sum',
    'local.get $count  i32.const -1  i32.add  local.tee $count  br_if $again',
    'end',
    'local.get $dst  local.get $sum  v128.store offset=16',
  ],
};

function instantiate(fn: FunctionModule, memory: WebAssembly.Memory): WebAssembly.Instance {
  return new WebAssembly.Instance(new WebAssembly.Module(assemble(fn)), { env: { memory } });
}

describe('assemble', () => {
  it('writes a module that runs: four lanes added in a counted loop, wrapping at 2^32', () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1 });
    const words = new Uint32Array(memory.buffer);
    words.set([1, 2, 3, 0xffffffff], 0); // src at byte 0
    words.set([10, 20, 30, 40], 8); // the sum at dst + 16, dst = byte 16
    const addLoop = instantiate(ADD_LOOP, memory).exports.addLoop as (src: number, dst: number, count: number) => void;
    addLoop(0, 16, 5);
    expect([...words.subarray(8, 12)]).toEqual([15, 30, 45, 35]);
  });

  it('imports exactly one page that can never grow, and exports the one function', () => {
    const module = new WebAssembly.Module(assemble(COMPRESS4X));
    expect(WebAssembly.Module.imports(module)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
    expect(WebAssembly.Module.exports(module)).toEqual([{ name: 'compress4x', kind: 'function' }]);
    const twoPages = new WebAssembly.Memory({ initial: 2, maximum: 2 });
    expect(() => new WebAssembly.Instance(module, { env: { memory: twoPages } })).toThrow(WebAssembly.LinkError);
  });

  it('refuses a mistyped line, naming it', () => {
    const withBody = (...body: string[]): FunctionModule => ({ ...ADD_LOOP, body });
    expect(() => assemble(withBody('local.get $src  i32.ad'))).toThrow('unknown instruction "i32.ad" in "local.get $src  i32.ad"');
    expect(() => assemble(withBody('local.get $nowhere'))).toThrow('unknown local "$nowhere"');
    expect(() => assemble(withBody('i32.const 1.5'))).toThrow('i32.const needs an integer in "i32.const 1.5"');
    expect(() => assemble(withBody('loop $a', 'i32.const 1  br_if $b', 'end'))).toThrow('no enclosing loop "$b"');
    expect(() => assemble(withBody('loop $a'))).toThrow('loop $a has no "end"');
    expect(() => assemble(withBody('end'))).toThrow('"end" closes nothing');
    const shuffle = `i8x16.shuffle ${Array.from({ length: 16 }, (_, i) => (i === 15 ? 32 : i)).join(' ')}`;
    expect(() => assemble(withBody(`local.get $sum  local.get $sum  ${shuffle}`))).toThrow('needs 16 values from 0 to 31');
  });
});

describe('printWat', () => {
  it('prints the module around the very lines the bytes come from, loop bodies indented', () => {
    const text = printWat(ADD_LOOP);
    expect(text).toContain('(import "env" "memory" (memory 1 1))');
    expect(text).toContain('(func $addLoop (type $t0) (param $src i32) (param $dst i32) (param $count i32)');
    expect(text).toContain('(export "addLoop" (func $addLoop))');
    const lines = text.split('\n');
    const indent = (line: string) => lines.find((l) => l.trim() === line)!.search(/\S/);
    expect(indent('loop $again')).toBe(4);
    expect(indent(ADD_LOOP.body[2])).toBe(6);
    expect(indent('end')).toBe(4);
  });

  it('shows every line of stage 9 compress4x', () => {
    const text = wat();
    const printed = new Set(text.split('\n').map((line) => line.trim()));
    expect(COMPRESS4X.body.filter((line) => !printed.has(line.trim()))).toEqual([]);
  });
});

describe('stage 9 where WebAssembly SIMD is missing', () => {
  it('says so before hashing, and hash() throws a message that names what is missing', async () => {
    vi.resetModules();
    const validate = vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    try {
      const stage9 = await import('../steps/09-simd-wasm/blake3.ts');
      expect(stage9.simdSupported()).toBe(false);
      expect(() => stage9.hash(new Uint8Array(8))).toThrow(/WebAssembly SIMD is not available in this browser/);
      // The copying path needs no WebAssembly at all: BLAKE3 of the empty input.
      expect(Buffer.from(stage9.hashPortable(new Uint8Array(0))).toString('hex')).toBe(
        'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262',
      );
    } finally {
      validate.mockRestore();
    }
  });
});

describe('stage 10: three modules over one page', () => {
  it('prints all three, every line of each, and all validate', async () => {
    const stage10 = await import('../steps/10-simd-one-block/blake3.ts');
    const { COMPRESS1X_ROWS, COMPRESS1X_WORDS } = await import('../steps/10-simd-one-block/compress1x.ts');
    const stage10Assembler = await import('../steps/10-simd-one-block/wasm.ts');
    const text = stage10.wat();
    expect(text.match(/^\(module$/gm)).toHaveLength(3);
    const printed = new Set(text.split('\n').map((line) => line.trim()));
    const bodies = [...COMPRESS4X.body, ...COMPRESS1X_ROWS.body, ...COMPRESS1X_WORDS.body];
    expect(bodies.filter((line) => !printed.has(line.trim()))).toEqual([]);
    expect(WebAssembly.validate(stage10Assembler.assemble(COMPRESS1X_ROWS))).toBe(true);
    expect(WebAssembly.validate(stage10Assembler.assemble(COMPRESS1X_WORDS))).toBe(true);
    expect(stage10.simdSupported()).toBe(true);
  });

  it('times its two one-block codes and keeps the faster; either can be chosen by hand', async () => {
    const stage10 = await import('../steps/10-simd-one-block/blake3.ts');
    const choice = await stage10.chooseOneBlockCode();
    const { rows, words } = choice.nsPerBlock!;
    expect(rows).toBeGreaterThan(0);
    expect(words).toBeGreaterThan(0);
    expect(choice.code).toBe(rows <= words ? 'rows' : 'words');
    expect(stage10.oneBlockChoice()).toBe(choice);
    stage10.useOneBlockCode('words');
    expect(stage10.oneBlockChoice()).toEqual({ code: 'words' });
    stage10.useOneBlockCode(choice.code);
  });

  it('encodes i32x4.splat and i32x4.replace_lane, and refuses a lane past 3', async () => {
    const { assemble: assemble10 } = await import('../steps/10-simd-one-block/wasm.ts');
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1 });
    const words = new Uint32Array(memory.buffer);
    const build: FunctionModule = {
      name: 'build',
      params: ['at'],
      i32Locals: [],
      v128Locals: [],
      memoryPages: 1,
      body: ['local.get $at  i32.const 7  i32x4.splat  i32.const 9  i32x4.replace_lane 2  v128.store'],
    };
    const run = new WebAssembly.Instance(new WebAssembly.Module(assemble10(build)), { env: { memory } }).exports.build as (at: number) => void;
    run(16);
    expect([...words.subarray(4, 8)]).toEqual([7, 7, 9, 7]);
    expect(() => assemble10({ ...build, body: ['i32.const 1  i32x4.splat  i32.const 2  i32x4.replace_lane 4'] })).toThrow('needs a lane from 0 to 3');
  });

  it("is stage 9's assembler with stage 10's instructions added, and its generator stops when stage 9's text no longer has a line it edits", async () => {
    const { generateFrom } = await import('../steps/10-simd-one-block/gen-wasm.ts');
    const stage9 = readFileSync(new URL('../steps/09-simd-wasm/wasm.ts', import.meta.url), 'utf8');
    const stage10 = generateFrom(stage9);
    // Every line of stage 9's assembler is in stage 10's but the two it rewrites.
    const kept = new Set(stage10.split('\n'));
    expect(stage9.split('\n').filter((line) => !kept.has(line))).toHaveLength(3);
    expect(() => generateFrom(stage9.replace('const V128_ALIGN = 4;', 'const V128_ALIGN = 4; // changed'))).toThrow(/must occur exactly once/);
  });

  it("stage 11's module imports a shared memory that may grow: it links with one, and not with an unshared one", async () => {
    const { assemble: assemble11, printWat: printWat11 } = await import('../steps/11-every-core/wasm.ts');
    const { COMPRESS4X } = await import('../steps/11-every-core/compress4x.ts');
    const bytes = assemble11(COMPRESS4X);
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(printWat11(COMPRESS4X)).toContain('(import "env" "memory" (memory 1 65536 shared))');
    const module = new WebAssembly.Module(bytes);
    expect(() => new WebAssembly.Instance(module, { env: { memory: new WebAssembly.Memory({ initial: 1, maximum: 2 }) } })).toThrow(WebAssembly.LinkError);
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 2, shared: true });
    expect(new WebAssembly.Instance(module, { env: { memory } }).exports.compress4x).toBeTypeOf('function');
  });

  it('encodes i32 loads and stores with their own natural alignment (4 bytes, log2 2)', async () => {
    const { assemble: assemble10 } = await import('../steps/10-simd-one-block/wasm.ts');
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 1 });
    const words = new Uint32Array(memory.buffer);
    const swap: FunctionModule = {
      name: 'rotate',
      params: ['at'],
      i32Locals: [],
      v128Locals: [],
      memoryPages: 1,
      body: ['local.get $at  local.get $at  i32.load offset=4  i32.const 8  i32.rotr  i32.store'],
    };
    const bytes = assemble10(swap);
    expect(WebAssembly.validate(bytes)).toBe(true);
    words[2] = 0x11223344;
    const rotate = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports.rotate as (at: number) => void;
    rotate(4);
    expect(words[1]).toBe(0x44112233);
  });
});
