// What this browser (or Node) can run. Stage 9 needs WebAssembly SIMD and the SHA-256
// baseline needs WebCrypto; a contestant whose need is missing is shown as unavailable
// with the reason and never started.
//
// Tests (and curious users) simulate another machine by setting
// `globalThis.__BLAKE3_LAB_CAPABILITIES__ = { wasmSimd: false }` before the app loads;
// the page passes the effective capabilities on to the bench worker, so the worker
// refuses what the page says is missing even when the browser could run it.

export interface Capabilities {
  wasmSimd: boolean;
  webCrypto: boolean;
  littleEndian: boolean;
  crossOriginIsolated: boolean;
}

export type Requirement = 'wasm-simd' | 'webcrypto';

declare global {
  // eslint-disable-next-line no-var
  var __BLAKE3_LAB_CAPABILITIES__: Partial<Capabilities> | undefined;
}

/**
 * The smallest module that uses a SIMD instruction: one function `() -> v128` whose body
 * is `i32.const 0; i32x4.splat`. Engines without SIMD reject the v128 type outright.
 */
export const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: one type, () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x11, 0x0b, // code: i32.const 0, i32x4.splat, end
]);

function probeWasmSimd(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/** What the engine itself reports, ignoring any override. */
export function probeCapabilities(): Capabilities {
  return {
    wasmSimd: probeWasmSimd(),
    webCrypto: typeof globalThis.crypto?.subtle?.digest === 'function',
    littleEndian: new Uint8Array(new Uint16Array([1]).buffer)[0] === 1,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
  };
}

/** The capabilities to act on: the probe, with any boolean the page set to override it. */
export function detectCapabilities(): Capabilities {
  const detected = probeCapabilities();
  const override = globalThis.__BLAKE3_LAB_CAPABILITIES__;
  if (override && typeof override === 'object') {
    for (const key of Object.keys(detected) as (keyof Capabilities)[]) {
      if (typeof override[key] === 'boolean') detected[key] = override[key];
    }
  }
  return detected;
}

/** Why a contestant needing `requirement` cannot run here, or undefined when it can. */
export function missingCapability(requirement: Requirement | undefined, capabilities: Capabilities): string | undefined {
  if (requirement === 'wasm-simd' && !capabilities.wasmSimd) {
    return 'needs WebAssembly SIMD (128-bit vectors), which this browser does not offer';
  }
  if (requirement === 'webcrypto' && !capabilities.webCrypto) {
    return 'needs WebCrypto (crypto.subtle), which is only offered on secure (https or localhost) pages';
  }
  return undefined;
}
