// Which code a stage's numbers belong to. A stage has no package version, so it is
// identified by a BLAKE3 hash of its source files: the same text gives the same version
// in Node and in the browser, and any edit to a stage gives it a new one, so results
// from before and after a change are never mistaken for the same code.

import { blake3 } from '@noble/hashes/blake3.js';

/** Hex digits kept: 48 bits, plenty to tell a handful of versions apart. */
const VERSION_HEX_DIGITS = 12;

/** "blake3:1a2b3c4d5e6f" over each file's path and UTF-8 text, in the order given. */
export async function contentVersion(files: readonly string[], read: (path: string) => Promise<string>): Promise<string> {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (const path of files) {
    // The path and a separator go in too, so moving text between files changes the hash.
    parts.push(encoder.encode(`${path}\0`), encoder.encode(await read(path)), new Uint8Array([0]));
  }
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  let hex = '';
  for (const byte of blake3(bytes).subarray(0, VERSION_HEX_DIGITS / 2)) hex += byte.toString(16).padStart(2, '0');
  return `blake3:${hex}`;
}
