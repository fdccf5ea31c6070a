// Names for the stages' WebAssembly functions in a profile. The stages write their
// modules at runtime without a "name" custom section, so V8's profiler calls every
// function "wasm-function[0]" and tells modules apart only by a hash of their bytes. The
// profilers (Node's and Chromium's) construct modules through nameWasmModules(), which
// adds a name section from the module's own exports before V8 compiles it and remembers
// where in our code each module was built. The bytes the stage's code runs are otherwise
// the same: a custom section is never executed (WebAssembly core spec, 2.5.15).

const SECTION_CUSTOM = 0;
const SECTION_EXPORT = 7;
const EXPORT_FUNC = 0;
const NAME_MODULE = 0;
const NAME_FUNCTIONS = 1;

function readLeb128(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) throw new RangeError('wasm: truncated LEB128');
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return [value, at];
  }
}

function leb128(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

const utf8 = (text: string) => [...new TextEncoder().encode(text)];
const named = (text: string) => [...leb128(utf8(text).length), ...utf8(text)];
const sized = (content: number[]) => [...leb128(content.length), ...content];

interface Sections {
  /** Function index -> export name, in the order exported. */
  exports: Map<number, string>;
  hasNames: boolean;
}

function readSections(bytes: Uint8Array): Sections {
  const exports = new Map<number, string>();
  let hasNames = false;
  const decoder = new TextDecoder();
  const name = (at: number): [string, number] => {
    const [length, start] = readLeb128(bytes, at);
    return [decoder.decode(bytes.subarray(start, start + length)), start + length];
  };
  let at = 8; // "\0asm" and the version
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = readLeb128(bytes, at + 1);
    if (id === SECTION_CUSTOM && name(start)[0] === 'name') hasNames = true;
    if (id === SECTION_EXPORT) {
      let [count, p] = readLeb128(bytes, start);
      for (; count > 0; count--) {
        let exportName: string, index: number;
        [exportName, p] = name(p);
        const kind = bytes[p++];
        [index, p] = readLeb128(bytes, p);
        if (kind === EXPORT_FUNC) exports.set(index, exportName);
      }
    }
    at = start + size;
  }
  return { exports, hasNames };
}

/** The export names of a module's functions, by function index. */
export function exportedFunctions(bytes: Uint8Array): Map<number, string> {
  return readSections(bytes).exports;
}

/**
 * The module with a name section appended: the module called `moduleName`, each exported
 * function called by its export name. A module that has a name section is returned as it is.
 */
export function withNameSection(bytes: Uint8Array, moduleName: string): Uint8Array<ArrayBuffer> {
  const { exports, hasNames } = readSections(bytes);
  if (hasNames) return new Uint8Array(bytes);
  const functions = [...exports].sort((a, b) => a[0] - b[0]);
  const content = [
    ...named('name'),
    NAME_MODULE,
    ...sized(named(moduleName)),
    NAME_FUNCTIONS,
    ...sized([...leb128(functions.length), ...functions.flatMap(([index, name]) => [...leb128(index), ...named(name)])]),
  ];
  return new Uint8Array([...bytes, SECTION_CUSTOM, ...sized(content)]);
}

/** Where a module was built: the frame that called `new WebAssembly.Module`, as V8 reports it (0-based line and column, as in a profile). */
export interface WasmOrigin {
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/** The prefix of the names given to modules: V8 puts a module's name in its script's url, "wasm://wasm/<name>-<hash>". */
export const MODULE_PREFIX = 'stage-module-';

/** The module name in a V8 wasm url ("wasm://wasm/stage-module-2-8acf85e2" -> "stage-module-2"), if it is one of ours. */
export function moduleOfUrl(url: string): string | undefined {
  return new RegExp(`^wasm://wasm/(${MODULE_PREFIX}\\d+)`).exec(url)?.[1];
}

type CallSites = { getFileName(): string | null | undefined; getLineNumber(): number | null; getColumnNumber(): number | null }[];

/** The frame that called `constructor`, through V8's structured stack API (raw positions, before any source map). */
function callerOf(constructor: Function): WasmOrigin | undefined {
  const errorApi = Error as unknown as {
    prepareStackTrace?: (error: Error, sites: CallSites) => unknown;
    captureStackTrace?: (target: object, constructor: Function) => void;
  };
  if (typeof errorApi.captureStackTrace !== 'function') return undefined;
  const original = errorApi.prepareStackTrace;
  try {
    errorApi.prepareStackTrace = (_error, sites) => sites;
    const holder: { stack?: CallSites } = {};
    errorApi.captureStackTrace(holder, constructor);
    const site = holder.stack?.[0];
    const url = site?.getFileName();
    if (!site || !url) return undefined;
    return { url, lineNumber: (site.getLineNumber() ?? 0) - 1, columnNumber: (site.getColumnNumber() ?? 0) - 1 };
  } finally {
    errorApi.prepareStackTrace = original;
  }
}

/**
 * Makes every later `new WebAssembly.Module(bytes)` in this realm name its functions
 * (withNameSection) and records where it was built, by module name. The stages build
 * their modules that way, synchronously; the profilers call this before loading a stage.
 */
export function nameWasmModules(wasm: typeof WebAssembly): Map<string, WasmOrigin> {
  const origins = new Map<string, WasmOrigin>();
  const Original = wasm.Module;
  class NamedModule extends Original {
    constructor(bytes: BufferSource) {
      const view = bytes instanceof Uint8Array ? bytes : ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
      const name = `${MODULE_PREFIX}${origins.size}`;
      const origin = callerOf(NamedModule);
      if (origin) origins.set(name, origin);
      super(withNameSection(view, name));
    }
  }
  wasm.Module = NamedModule;
  return origins;
}
