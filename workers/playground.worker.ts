// The playground's worker. It runs inside the sandbox page (src/app/playground/sandbox-page.html),
// in an opaque origin, started from a blob: URL holding this file's bundle, so it must be
// one self-contained module: no chunks, no imports left at run time. What it serves is
// src/core/playground/serve.ts; this entry brings the vector file, the independent hash
// and blake3-wasm with its module inlined.

import { expose } from 'comlink';
import { blake3 } from '@noble/hashes/blake3.js';
import * as blake3WasmGlue from 'blake3-wasm/dist/wasm/web/blake3_js.js';
import blake3WasmDataUrl from 'blake3-wasm/dist/wasm/web/blake3_js_bg.wasm?url&inline';
import type { ContestantHasher } from '../src/core/bench/contestants.ts';
import { servePrograms } from '../src/core/playground/serve.ts';
import type { Program } from '../src/core/playground/link.ts';
import { decodeDataUrl } from '../steps/baselines.ts';
import vectorFile from '../data/blake3-vectors.json';

async function loadBlake3Wasm(): Promise<ContestantHasher> {
  await blake3WasmGlue.default(decodeDataUrl(blake3WasmDataUrl));
  return {
    hash(input) {
      const out = new Uint8Array(32);
      blake3WasmGlue.hash(input, out);
      return out;
    },
  };
}

// The sandbox page sends one message: the programs to serve and the port to the app.
addEventListener(
  'message',
  (event: MessageEvent<{ type: 'init'; programs: Program[] }>) => {
    const port = event.ports[0];
    if (event.data?.type !== 'init' || !port) return;
    expose(servePrograms(event.data.programs, { vectors: vectorFile.cases, oracle: blake3, loadBlake3Wasm }), port);
  },
  { once: true },
);
