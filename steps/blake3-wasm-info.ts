// The yardstick every "x times WASM" figure is relative to: the official Rust BLAKE3
// compiled to WebAssembly, as the blake3-wasm package ships it. Its id, title and pinned
// version, named once for the bench registry (baselines.ts), the playground, which loads
// it by itself, and the results pages; tests/stages.test.ts holds the version to the
// package installed.

export const BLAKE3_WASM = {
  id: 'blake3-wasm',
  title: 'Rust → WASM (blake3-wasm)',
  version: 'blake3-wasm@2.1.5',
} as const;
