// The contestants that are not ours: the yardstick the article measured every stage
// against, the libraries a reader would otherwise pick, and the platform's native hash.
// Each one loads into the same `hash(input) -> digest` shape as a stage, so the bench,
// the tests and the self-test page treat stages and baselines alike.
//
// Every module here must load in Node (tsx, vitest) and in a browser Web Worker built by
// Vite. Node-only modules are imported through `importInNode`, which Vite cannot follow,
// so nothing from node: or a Node-only package ends up in the browser bundle.

// Imported statically: it is small, and the bench imports it statically as its
// independent oracle anyway, so a dynamic import here would split nothing off.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { BASELINE_INFO, BLAKE3_WASM, ORACLE_ID, type BaselineInfo } from './baseline-info.ts';

export interface BaselineHasher {
  /** Digest of `input` (see `digest` for which function). WebCrypto only offers a promise. */
  hash(input: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** A baseline's facts (baseline-info.ts) and the way to load it. */
export interface Baseline extends BaselineInfo {
  load(): Promise<BaselineHasher>;
}

const inNode = typeof globalThis.process?.versions?.node === 'string';

/** Import a module that exists only in Node; hidden from Vite's bundler on purpose. */
function importInNode<T>(specifier: string): Promise<T> {
  if (!inNode) throw new Error(`${specifier} is only available in Node`);
  return import(/* @vite-ignore */ specifier) as Promise<T>;
}

/** The functions of blake3-wasm's wasm-bindgen glue that we use (same in both targets). */
interface Blake3WasmGlue {
  hash(data: Uint8Array, out: Uint8Array): void;
}

async function loadBlake3Wasm(): Promise<BaselineHasher> {
  let glue: Blake3WasmGlue;
  if (inNode) {
    // The Node target of the same glue: it reads its .wasm from disk when first imported.
    glue = await importInNode<Blake3WasmGlue>('blake3-wasm/dist/wasm/nodejs/blake3_js.js');
  } else {
    // The package's browser entry imports the .wasm as an ES module, which browsers
    // and Vite do not do. The "web" target takes the module bytes instead; Vite inlines
    // them as a data URL, which we decode here rather than fetch, so the page's
    // connect-src policy need not allow data: and the build ships no .wasm file.
    const web = await import('blake3-wasm/dist/wasm/web/blake3_js.js');
    const { default: dataUrl } = await import('blake3-wasm/dist/wasm/web/blake3_js_bg.wasm?url&inline');
    await web.default(decodeDataUrl(dataUrl));
    glue = web;
  }
  return {
    hash(input) {
      const out = new Uint8Array(32);
      glue.hash(input, out);
      return out;
    },
  };
}

/** Bytes of a base64 `data:` URL; anything else is a build misconfiguration. */
export function decodeDataUrl(url: string): Uint8Array {
  const match = /^data:[^,]*;base64,/.exec(url);
  if (!match) {
    throw new Error(`expected an inlined base64 data: URL for the blake3-wasm module, got "${url.slice(0, 40)}"`);
  }
  const text = atob(url.slice(match[0].length));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

async function loadHashWasm(): Promise<BaselineHasher> {
  const { createBLAKE3 } = await import('hash-wasm');
  // One hasher, re-initialised per call: the one-shot `blake3()` helper returns hex
  // through a promise, which would measure string formatting and a microtask.
  const hasher = await createBLAKE3();
  return {
    hash(input) {
      return hasher.init().update(input).digest('binary');
    },
  };
}

async function loadBlake3Jit(): Promise<BaselineHasher> {
  const jit = await import('blake3-jit');
  // It builds its SIMD module on first use; build it now, outside any timed call. Where
  // the module cannot run it hashes in plain JavaScript, and says so here.
  if (!jit.warmupSimd()) console.warn('blake3-jit: no WebAssembly SIMD here, it hashes in plain JavaScript');
  return { hash: (input) => jit.hash(input) };
}

async function loadNoble(): Promise<BaselineHasher> {
  return { hash: (input) => nobleBlake3(input) };
}

async function loadSha256(): Promise<BaselineHasher> {
  if (inNode) {
    const { createHash } = await importInNode<typeof import('node:crypto')>('node:crypto');
    return {
      hash(input) {
        const digest = createHash('sha256').update(input).digest();
        return new Uint8Array(digest.buffer, digest.byteOffset, digest.length);
      },
    };
  }
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('WebCrypto (crypto.subtle) is not available: it needs a secure context (https or localhost)');
  return {
    async hash(input) {
      // digest() takes a BufferSource; a view over a SharedArrayBuffer is refused, so copy that case.
      const data = input.buffer instanceof ArrayBuffer ? (input as Uint8Array<ArrayBuffer>) : input.slice();
      return new Uint8Array(await subtle.digest('SHA-256', data));
    },
  };
}

const LOADERS: Record<string, () => Promise<BaselineHasher>> = {
  [BLAKE3_WASM.id]: loadBlake3Wasm,
  'hash-wasm': loadHashWasm,
  'blake3-jit': loadBlake3Jit,
  [ORACLE_ID]: loadNoble,
  sha256: loadSha256,
};

export const BASELINES: Baseline[] = BASELINE_INFO.map((info) => {
  const load = LOADERS[info.id];
  if (!load) throw new Error(`steps/baseline-info.ts lists ${info.id}, which steps/baselines.ts cannot load`);
  return { ...info, load };
});

/** Look a baseline up by id; undefined when there is none. */
export function baselineById(id: string): Baseline | undefined {
  return BASELINES.find((baseline) => baseline.id === id);
}
