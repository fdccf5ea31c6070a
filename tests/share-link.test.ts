// The share-link codec: round trips, and every way a link can arrive broken.
import { describe, expect, it, vi } from 'vitest';
import { MAX_RESULTS_BYTES, MAX_SHARE_PAYLOAD_CHARS } from '../src/core/results/io/limits.ts';
import { decodeSharePayload, encodeSharePayload, fromBase64Url, toBase64Url } from '../src/core/results/io/share.ts';
import type { ResultsCheck } from '../src/core/results/io/validate.ts';
import { validResults } from './fixtures/bad-inputs.ts';

function errorOf(check: ResultsCheck): string {
  if (check.ok) throw new Error('expected the link to be refused, but it was accepted');
  return check.error;
}

const DAMAGED = (why: string) => `This link is truncated or damaged (${why}). Ask for the link again, or for a results file.`;

async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function payloadOf(text: string): Promise<string> {
  return '1.' + toBase64Url(await deflateRaw(new TextEncoder().encode(text)));
}

describe('share payloads', () => {
  it('round-trip the results exactly, in the URL-safe alphabet without padding', async () => {
    const doc = validResults();
    doc.env.label = '<script>alert("hi")</script> & Zoë 🚀';
    const payload = await encodeSharePayload(doc);
    expect(payload).toMatch(/^1\.[A-Za-z0-9_-]+$/);
    // Compression pays: the link is shorter than the JSON it carries.
    expect(payload.length).toBeLessThan(JSON.stringify(doc).length);
    expect(await decodeSharePayload(payload)).toEqual({ ok: true, results: doc });
  });

  it('open links made before version 3 as the version 3 results they hold', async () => {
    const { runtimes, runs, ...rest } = validResults();
    const v2 = { ...rest, version: 2, engines: runtimes, runs: runs.map(({ contestant, runtime, ...run }) => ({ contestant, engine: runtime, ...run })) };
    const v1 = { ...rest, version: 1, runs: runs.map(({ runtime, ...run }) => run) };
    expect(JSON.stringify(v2)).toContain('"engines":[{"id":"chromium"');
    expect(await decodeSharePayload(await payloadOf(JSON.stringify(v2)))).toEqual({ ok: true, results: validResults() });
    expect(await decodeSharePayload(await payloadOf(JSON.stringify(v1)))).toEqual({ ok: true, results: validResults() });
  });

  it('base64url round-trips every byte value and every length remainder', () => {
    for (const length of [0, 1, 2, 3, 4, 255, 256, 257]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 167 + 13) & 255);
      const text = toBase64Url(bytes);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(fromBase64Url(text)).toEqual(bytes);
    }
  });

  it('refuses results too large for a link with a message that says what to do', async () => {
    const doc = validResults();
    // Random samples with 17 significant digits hardly compress: 150 runs of 1000 give
    // well over 1 MiB of base64.
    let seed = 1;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return 1000 + seed / 2147483647;
    };
    doc.runs = Array.from({ length: 150 }, () => ({ ...doc.runs[0], nsPerOp: Array.from({ length: 1000 }, next) }));
    const outcome = await encodeSharePayload(doc).then(
      (payload) => `encoded to ${payload.length} characters`,
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/^These results are too large for a link \(\d+ characters; the limit is 1048576\)\. Save them as a file instead\.$/);
  });
});

describe('decodeSharePayload refuses broken links with a clear message', () => {
  let good = '';
  const goodPayload = async () => (good ||= await encodeSharePayload(validResults()));

  it('an empty payload', async () => {
    expect(errorOf(await decodeSharePayload(''))).toBe('This link holds no results: the part after "#/share/" is empty.');
  });

  it('garbage without a format prefix', async () => {
    expect(errorOf(await decodeSharePayload('hello-world'))).toBe(DAMAGED('it does not start with a link format such as "1."'));
  });

  it('a prefix with nothing after it', async () => {
    expect(errorOf(await decodeSharePayload('1.'))).toBe(DAMAGED('the results part is missing'));
  });

  it('a link from a newer version', async () => {
    const newer = (await goodPayload()).replace(/^1\./, '2.');
    expect(errorOf(await decodeSharePayload(newer))).toBe(
      'This link was made by a newer version of BLAKE3 Lab (link format 2); this one reads link format 1. Open it in the newer BLAKE3 Lab.',
    );
  });

  it('a link format that never existed', async () => {
    expect(errorOf(await decodeSharePayload('0.AAAA'))).toBe(DAMAGED('link format 0 does not exist'));
  });

  it('characters outside base64url: standard base64, percent-escapes, spaces, HTML', async () => {
    const payload = await goodPayload();
    const at = 10;
    for (const char of ['+', '/', '=', '%', ' ', '<']) {
      const broken = payload.slice(0, at) + char + payload.slice(at + 1);
      expect(errorOf(await decodeSharePayload(broken))).toBe(
        DAMAGED(`it contains ${JSON.stringify(char)} at character ${at - 1}, which never appears in a share link`),
      );
    }
  });

  it('a length no base64 can have', async () => {
    expect(errorOf(await decodeSharePayload('1.AAAAA'))).toBe(DAMAGED('its length cannot be a whole number of bytes'));
  });

  it('every truncation of a real link', async () => {
    const payload = await goodPayload();
    // Cut at every length from the prefix to one short of the end, a few at a time.
    for (let keep = 3; keep < payload.length; keep += 7) {
      const error = errorOf(await decodeSharePayload(payload.slice(0, keep)));
      expect([DAMAGED('the compressed data is cut short or corrupt'), DAMAGED('its length cannot be a whole number of bytes')]).toContain(error);
    }
  });

  it('a flipped character in the middle', async () => {
    const payload = await goodPayload();
    const at = Math.floor(payload.length / 2);
    const broken = payload.slice(0, at) + (payload[at] === 'A' ? 'B' : 'A') + payload.slice(at + 1);
    const error = errorOf(await decodeSharePayload(broken));
    // A flipped bit lands in the DEFLATE stream (corrupt) or, rarely, in the text it yields.
    expect(error.startsWith('This link is truncated or damaged (') || error.startsWith("This link's results cannot be used: ")).toBe(true);
  });

  it('bytes that are not DEFLATE at all', async () => {
    expect(errorOf(await decodeSharePayload('1.' + toBase64Url(new Uint8Array(64).fill(0xff))))).toBe(
      DAMAGED('the compressed data is cut short or corrupt'),
    );
  });

  it('DEFLATE of something that is not UTF-8', async () => {
    const payload = '1.' + toBase64Url(await deflateRaw(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])));
    expect(errorOf(await decodeSharePayload(payload))).toBe(DAMAGED('its contents are not UTF-8 text'));
  });

  it('DEFLATE of JSON that is not results', async () => {
    expect(errorOf(await decodeSharePayload(await payloadOf('{"format":"blake3-lab-results","version":7}')))).toBe(
      "This link's results cannot be used: These results were made by a newer BLAKE3 Lab (version 7); this one reads versions 1 to 3",
    );
    const doc = validResults();
    const text = JSON.stringify(doc).replace('30750', '-1');
    expect(errorOf(await decodeSharePayload(await payloadOf(text)))).toBe(
      "This link's results cannot be used: runs[3].nsPerOp[2] is -1: samples must be positive numbers of nanoseconds",
    );
  });

  it('a payload over the length limit, before any decoding', async () => {
    const long = '1.' + 'A'.repeat(MAX_SHARE_PAYLOAD_CHARS);
    expect(errorOf(await decodeSharePayload(long))).toBe(
      `This link is too long to be a BLAKE3 Lab link (${long.length} characters; the limit is ${MAX_SHARE_PAYLOAD_CHARS}).`,
    );
  });

  it('a zip bomb: 64 MB packed into 65 kB is cut off just past the limit, never inflated in full', async () => {
    // An object's opening brace and then 64 MB of spaces: nothing but the ceiling stops it.
    const bomb = await deflateRaw(new Uint8Array(64 * 1024 * 1024).fill(0x20).fill(0x7b, 0, 1));
    const payload = '1.' + toBase64Url(bomb);
    expect(payload.length).toBeLessThan(MAX_SHARE_PAYLOAD_CHARS);
    // Count what the decompressor actually produces, by wrapping the global it uses.
    let produced = 0;
    const Original = globalThis.DecompressionStream;
    class Counting {
      readonly writable: WritableStream<BufferSource>;
      readonly readable: ReadableStream<Uint8Array>;
      constructor(format: CompressionFormat) {
        const inner = new Original(format);
        const count = new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            produced += chunk.byteLength;
            controller.enqueue(chunk);
          },
        });
        this.writable = inner.writable;
        this.readable = inner.readable.pipeThrough(count);
      }
    }
    vi.stubGlobal('DecompressionStream', Counting);
    try {
      expect(errorOf(await decodeSharePayload(payload))).toBe(
        `This link expands to more than ${MAX_RESULTS_BYTES / (1024 * 1024)} MB, far more than any real results; it was not opened.`,
      );
    } finally {
      vi.unstubAllGlobals();
    }
    expect(produced).toBeGreaterThan(MAX_RESULTS_BYTES);
    // One more input slice (1 kB expands to at most ~1 MB) and a few queued chunks, not 64 MB.
    expect(produced).toBeLessThan(MAX_RESULTS_BYTES + 4 * 1024 * 1024);
  });
});

/** `count` copies of `text`, as bytes, without building a JavaScript string of them. */
function repeated(text: string, count: number): Uint8Array {
  const unit = new TextEncoder().encode(text);
  const out = new Uint8Array(unit.length * count);
  for (let i = 0; i < count; i++) out.set(unit, i * unit.length);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) (out.set(part, at), (at += part.length));
  return out;
}

async function linkOf(bytes: Uint8Array): Promise<string> {
  return '1.' + toBase64Url(await deflateRaw(bytes));
}

describe('decodeSharePayload refuses what cannot be results before parsing it', () => {
  const NOT_RESULTS = (why: string) => `This link holds no BLAKE3 Lab results: ${why}.`;
  const TOO_DEEP = NOT_RESULTS('it nests lists or objects more than 4 deep, deeper than any results document');

  it('a 10 KB link of 8 MB of nested lists, at its first byte', async () => {
    const link = await linkOf(concat(repeated('[', 4 * 1024 * 1024), repeated(']', 4 * 1024 * 1024)));
    expect(link.length).toBeLessThan(12_000);
    expect(errorOf(await decodeSharePayload(link))).toBe(NOT_RESULTS('its contents do not start with "{", as every results document does'));
  });

  it('a wide list of zeros, at its first byte', async () => {
    const link = await linkOf(concat(repeated('[', 1), repeated('0,', 2 * 1024 * 1024), repeated('0]', 1)));
    expect(errorOf(await decodeSharePayload(link))).toBe(NOT_RESULTS('its contents do not start with "{", as every results document does'));
  });

  it('nested lists inside an object, and deeply nested objects, at the fifth level', async () => {
    const lists = await linkOf(concat(repeated('{"runs":', 1), repeated('[', 1_000_000), repeated(']', 1_000_000), repeated('}', 1)));
    expect(errorOf(await decodeSharePayload(lists))).toBe(TOO_DEEP);
    const objects = await linkOf(concat(repeated('{"a":', 1_000_000), repeated('1', 1), repeated('}', 1_000_000)));
    expect(errorOf(await decodeSharePayload(objects))).toBe(TOO_DEEP);
  });

  it('counts no brackets inside strings, so real results still open', async () => {
    const doc = validResults();
    doc.env.label = '[[[[[{{{{{ "quoted" \\ ]]]]';
    expect(await decodeSharePayload(await encodeSharePayload(doc))).toEqual({ ok: true, results: doc });
  });

  it('a wide list inside an object goes to the validator, which names the limit', async () => {
    const link = await linkOf(concat(repeated('{"format":"blake3-lab-results","version":1,"runs":[', 1), repeated('0,', 600), repeated('0]}', 1)));
    expect(errorOf(await decodeSharePayload(link))).toMatch(/^This link's results cannot be used: /);
  });

  it('junk after the end of the compressed data', async () => {
    const good = await deflateRaw(new TextEncoder().encode(JSON.stringify(validResults())));
    for (const junk of [[0], [1, 2, 3, 4], Array.from({ length: 500 }, () => 0x41)]) {
      const link = '1.' + toBase64Url(concat(good, new Uint8Array(junk)));
      expect(errorOf(await decodeSharePayload(link)), `${junk.length} bytes of junk`).toBe(
        DAMAGED('other data follows the end of the compressed results'),
      );
    }
  });

  it('a link format written with leading zeros', async () => {
    const good = await encodeSharePayload(validResults());
    for (const prefix of ['01.', '000001.']) {
      expect(errorOf(await decodeSharePayload(good.replace(/^1\./, prefix))), prefix).toBe(
        DAMAGED(`its format "${prefix}" has a leading zero, which no link is written with`),
      );
    }
  });
});
