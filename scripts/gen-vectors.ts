// Writes data/blake3-vectors.json: the default BLAKE3 hash of the official vector inputs
// (and a few larger ones), so the repo can check every stage without the official file.
// Two independent implementations compute every hash (the Rust code compiled to WASM and
// the pure-JS @noble/hashes); the script refuses to write anything they disagree on.
//
//   npm run gen:vectors            rewrite the file
//   npm run gen:vectors -- --check exit 1 if the checked-in file differs from a fresh run

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { baselineById } from '../steps/baselines.ts';
import {
  EXTRA_LENGTHS,
  INPUT_MODULUS,
  OFFICIAL_LENGTHS,
  patternInput,
  toHex,
  type VectorCase,
  type VectorFile,
} from '../src/core/vectors.ts';
import { BLAKE3_WASM, ORACLE_ID } from '../steps/baseline-info.ts';

export const VECTORS_PATH = fileURLToPath(new URL('../data/blake3-vectors.json', import.meta.url));
const IMPLEMENTATIONS = [BLAKE3_WASM.id, ORACLE_ID];

/** The exact text of data/blake3-vectors.json, computed afresh. */
export async function renderVectors(): Promise<string> {
  const baselines = IMPLEMENTATIONS.map((id) => {
    const baseline = baselineById(id);
    if (!baseline) throw new Error(`no baseline "${id}" in steps/baselines.ts`);
    return baseline;
  });
  const hashers = await Promise.all(baselines.map((baseline) => baseline.load()));

  const cases: VectorCase[] = [];
  for (const length of [...OFFICIAL_LENGTHS, ...EXTRA_LENGTHS]) {
    const input = patternInput(length);
    const hashes = await Promise.all(hashers.map(async (hasher) => toHex(await hasher.hash(input))));
    if (hashes.some((hex) => hex !== hashes[0])) {
      const detail = baselines.map((baseline, i) => `${baseline.version}: ${hashes[i]}`).join(', ');
      throw new Error(`implementations disagree at length ${length}: ${detail}`);
    }
    if (hashes[0].length !== 64) throw new Error(`expected a 32-byte hash at length ${length}, got ${hashes[0]}`);
    cases.push({ input_len: length, hash: hashes[0], official: OFFICIAL_LENGTHS.includes(length) });
  }

  const file: VectorFile = {
    generator: 'scripts/gen-vectors.ts (npm run gen:vectors)',
    input: `byte i of an input of length input_len is i % ${INPUT_MODULUS}, as in the official BLAKE3 test vectors`,
    implementations: baselines.map((baseline) => baseline.version),
    cases,
  };
  // One case per line keeps diffs of this file readable.
  const lines = cases.map((c) => '    ' + JSON.stringify(c));
  const head = JSON.stringify({ ...file, cases: undefined }, null, 2).replace(/\n}$/, '');
  return `${head},\n  "cases": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

async function main(): Promise<void> {
  const fresh = await renderVectors();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(VECTORS_PATH, 'utf8');
    } catch {
      // A missing file is simply out of date.
    }
    if (current !== fresh) {
      console.error(`${VECTORS_PATH} is out of date: run npm run gen:vectors`);
      process.exit(1);
    }
    console.log(`${VECTORS_PATH} is up to date`);
    return;
  }
  writeFileSync(VECTORS_PATH, fresh);
  console.log(`wrote ${VECTORS_PATH}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
