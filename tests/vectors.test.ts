// data/blake3-vectors.json is the repo's own copy of the BLAKE3 answers (the official file
// lives outside the repo). It must be exactly what scripts/gen-vectors.ts computes today,
// and, wherever the official file is at hand, agree with it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderVectors, VECTORS_PATH } from '../scripts/gen-vectors.ts';
import { EXTRA_LENGTHS, OFFICIAL_LENGTHS, type VectorFile } from '../src/core/vectors.ts';
import { OFFICIAL_PATH, readOfficial } from './fixtures/official-vectors.ts';

const official = readOfficial();
const officialPresent = official !== null;
const text = readFileSync(VECTORS_PATH, 'utf8');
const ours = JSON.parse(text) as VectorFile;

describe('data/blake3-vectors.json', () => {
  it('is exactly what npm run gen:vectors writes (two implementations agreeing)', async () => {
    const fresh = await renderVectors();
    expect(text === fresh, 'data/blake3-vectors.json is stale: run npm run gen:vectors').toBe(true);
  });

  it('covers the 35 official lengths, then the extra larger ones, each with a 32-byte hash', () => {
    expect(ours.cases.map((c) => c.input_len)).toEqual([...OFFICIAL_LENGTHS, ...EXTRA_LENGTHS]);
    expect(ours.cases.filter((c) => c.official).map((c) => c.input_len)).toEqual(OFFICIAL_LENGTHS);
    for (const c of ours.cases) expect(c.hash, `${c.input_len} B`).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(ours.cases.map((c) => c.hash)).size).toBe(ours.cases.length);
  });

  it('names the generator and two different implementations', () => {
    expect(ours.generator).toContain('scripts/gen-vectors.ts');
    expect(ours.implementations).toEqual(['blake3-wasm@2.1.5', '@noble/hashes@2.4.0']);
  });

  const reason = officialPresent ? '' : ` (not run: ${OFFICIAL_PATH} is absent; the repo works without it)`;
  it.skipIf(!officialPresent)(`agrees with the official BLAKE3 vector file on all 35 lengths${reason}`, () => {
    expect(official!.cases.map((c) => c.input_len)).toEqual(OFFICIAL_LENGTHS);
    const ourOfficial = ours.cases.filter((c) => c.official);
    // The official outputs are 131 bytes of extended output; the default hash is the first 32.
    expect(ourOfficial.map((c) => [c.input_len, c.hash])).toEqual(
      official!.cases.map((c) => [c.input_len, c.hash.slice(0, 64)]),
    );
  });
});
