// The variant-link codec: a shared draft round-trips, and every way a link can arrive
// broken or hostile is refused with a message, before any code reaches the editor.
import { describe, expect, it } from 'vitest';
import { STAGES } from '../steps/index.ts';
import { MAX_SHARE_PAYLOAD_CHARS } from '../src/core/results/io/limits.ts';
import { toBase64Url } from '../src/core/results/io/share.ts';
import {
  MAX_VARIANT_BYTES,
  MAX_VARIANT_FILE_CHARS,
  VARIANT_FORMAT,
  decodeVariant,
  encodeVariant,
  type VariantCheck,
} from '../src/app/playground/variant-link.ts';

const stage6 = STAGES[6];

function errorOf(check: VariantCheck): string {
  if (check.ok) throw new Error('expected the link to be refused, but it was accepted');
  return check.error;
}

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function payloadOf(value: unknown): Promise<string> {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return '1.' + toBase64Url(await deflateRaw(new TextEncoder().encode(text)));
}

const variant = (files: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  format: VARIANT_FORMAT,
  version: 1,
  stage: stage6.id,
  files,
  ...extra,
});

describe('variant links', () => {
  it('round-trip the changed files exactly, markup and all, in the URL-safe alphabet', async () => {
    const files = { 'compress.ts': '// </script><img src=x onerror=alert(1)> & Zoë 🚀\nexport const x = 1;\n' };
    const payload = await encodeVariant({ stage: stage6, files });
    expect(payload).toMatch(/^1\.[A-Za-z0-9_-]+$/);
    const check = await decodeVariant(payload, 6);
    expect(check.ok && check.variant.stage.id).toBe(stage6.id);
    expect(check.ok && { ...check.variant.files }).toEqual(files);
  });

  it('refuse a link whose address names another stage than its code', async () => {
    const payload = await encodeVariant({ stage: stage6, files: { 'blake3.ts': 'x' } });
    expect(errorOf(await decodeVariant(payload, 5))).toBe("This variant link cannot be used: it holds stage 6's code, but its address says stage 5.");
  });

  it('refuse broken payloads before inflating anything', async () => {
    expect(errorOf(await decodeVariant('', 6))).toMatch(/empty/);
    expect(errorOf(await decodeVariant('1.abc$def', 6))).toMatch(/truncated or damaged/);
    expect(errorOf(await decodeVariant('nodot', 6))).toMatch(/truncated or damaged/);
    expect(errorOf(await decodeVariant('1.a', 6))).toMatch(/whole number of bytes/);
    expect(errorOf(await decodeVariant('9.AAAA', 6))).toMatch(/newer version/);
    expect(errorOf(await decodeVariant('0.AAAA', 6))).toMatch(/link format 0 does not exist/);
    expect(errorOf(await decodeVariant('1.' + 'A'.repeat(MAX_SHARE_PAYLOAD_CHARS), 6))).toMatch(/too long/);
    expect(errorOf(await decodeVariant('1.AAAAAAAA', 6))).toMatch(/cut short or corrupt/);
  });

  it('cut off a zip bomb at the ceiling instead of holding it in memory', async () => {
    const bomb = await payloadOf(' '.repeat(MAX_VARIANT_BYTES * 8));
    expect(bomb.length).toBeLessThan(20_000);
    expect(errorOf(await decodeVariant(bomb, 6))).toMatch(/expands to more than 1024 KiB/);
  });

  it('refuse contents that are not a variant of this lab', async () => {
    const refused = async (value: unknown) => errorOf(await decodeVariant(await payloadOf(value), 6));
    expect(await refused('\u00ff\u00fe not json')).toMatch(/not JSON/);
    expect(await refused([1, 2])).toMatch(/does not hold a BLAKE3 Lab variant/);
    expect(await refused({ ...variant({ 'blake3.ts': 'x' }), format: 'blake3-lab-results' })).toMatch(/does not hold a BLAKE3 Lab variant/);
    expect(await refused(variant({ 'blake3.ts': 'x' }, { version: 2 }))).toMatch(/newer version of BLAKE3 Lab \(version 2\)/);
    expect(await refused(variant({ 'blake3.ts': 'x' }, { version: 1.5 }))).toMatch(/version is not a whole number/);
    expect(await refused(variant({ 'blake3.ts': 'x' }, { run: true }))).toMatch(/fields no variant has \(run\)/);
    expect(await refused(variant({ 'blake3.ts': 'x' }, { stage: '99-nope' }))).toMatch(/a stage this lab does not have/);
    expect(await refused(variant({ 'blake3.ts': 'x' }, { stage: { toString: 1 } }))).toMatch(/a stage this lab does not have/);
    expect(await refused(variant({}))).toMatch(/changes no file/);
    expect(await refused(variant([] as unknown as Record<string, unknown>))).toMatch(/has no files/);
    expect(await refused(variant({ 'blake3.ts': 42 }))).toMatch(/blake3\.ts is not text/);
    expect(await refused(variant({ '../../src/main.ts': 'x' }))).toMatch(/stage 6 has no file "\.\.\/\.\.\/src\/main\.ts"/);
    expect(await refused(variant({ 'compress4x.ts': 'x' }))).toMatch(/stage 6 has no file "compress4x\.ts"/);
    expect(await refused(JSON.stringify(variant({})).replace('"files":{}', '"files":{"__proto__":"x"}'))).toMatch(/has no file "__proto__"/);
    expect(await refused(variant({ 'blake3.ts': 'x'.repeat(MAX_VARIANT_FILE_CHARS + 1) }))).toMatch(/longer than 256 K characters/);
  });

  it('refuse to encode a draft too large for a link', async () => {
    let seed = 7;
    const noise = Array.from({ length: 200_000 }, () => ((seed = (seed * 48271) % 2147483647) % 94) + 33);
    const text = String.fromCharCode(...noise.slice(0, 100_000)) + String.fromCharCode(...noise.slice(100_000));
    const files = Object.fromEntries(stage6.files.map((path) => [path.slice(path.lastIndexOf('/') + 1), text]));
    await expect(encodeVariant({ stage: stage6, files: { ...files, 'blake3.ts': text + text + text + text } })).rejects.toThrow(/too large for a link/);
  });
});
