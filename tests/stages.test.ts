// Every registered stage through the suite in tests/fixtures/stage-suite.ts: registering a
// stage is what puts it under test. Stage 11 on its pool, the other paths stages 8 to 10
// export, and the BLAKE3 libraries go through the same suite in
// tests/stage-variants.test.ts. Here too: the registry, and the SHA-256 baseline.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { BASELINES, baselineById, decodeDataUrl } from '../steps/baselines.ts';
import { toHex } from '../src/core/vectors.ts';
import { DATA, describeContestants, MiB, STAGE_CONTESTANTS } from './fixtures/stage-suite.ts';

describeContestants(STAGE_CONTESTANTS);

describe('registry', () => {
  it('lists the stages in order from 0, each loading a module with a hash function', async () => {
    expect(STAGES.length).toBeGreaterThanOrEqual(11);
    expect(STAGES.map((stage) => stage.index)).toEqual(STAGES.map((_, position) => position));
    for (const stage of STAGES) {
      const module = await stage.load();
      expect(typeof module.hash, stage.id).toBe('function');
    }
  });

  it('pins each baseline package at the version installed', () => {
    for (const baseline of BASELINES.filter((b) => b.version.includes('@', 1))) {
      const at = baseline.version.lastIndexOf('@');
      const name = baseline.version.slice(0, at);
      const manifest = new URL(`../node_modules/${name}/package.json`, import.meta.url);
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
      expect(`${name}@${version}`).toBe(baseline.version);
    }
  });
});

describe('SHA-256 baseline', () => {
  it('is marked as SHA-256 and matches WebCrypto and the FIPS 180-2 examples', async () => {
    const baseline = baselineById('sha256')!;
    expect(baseline.digest).toBe('sha256');
    const sha = await baseline.load();
    const abc = new TextEncoder().encode('abc');
    expect(toHex(await sha.hash(abc))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(toHex(await sha.hash(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (const length of [1, 55, 56, 64, 1 * MiB + 3]) {
      const input = DATA.subarray(1, 1 + length);
      const expected = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', input.slice())));
      expect(toHex(await sha.hash(input)), `${length} B`).toBe(expected);
    }
  });
});

describe('decodeDataUrl (blake3-wasm bytes in the browser build)', () => {
  it('decodes base64 data URLs and names anything else', () => {
    expect([...decodeDataUrl('data:application/wasm;base64,AGFzbQE=')]).toEqual([0, 97, 115, 109, 1]);
    expect(() => decodeDataUrl('/assets/blake3_js_bg.wasm')).toThrow(/inlined base64 data: URL/);
  });
});
