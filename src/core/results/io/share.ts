// Results in a link: "#/share/1.<payload>", where the payload is the results JSON,
// compressed with raw DEFLATE (CompressionStream, in every browser and in Node 18+) and
// written in base64url without padding, so it survives chat apps and needs no escaping.
// The "1." prefix is the link format, separate from the results version: it says how
// the payload is packed, so packing can change while old links keep opening.
//
// A link is untrusted input. Decoding checks the prefix, the alphabet and the length
// before any work, then inflates with a ceiling on the output: a few kilobytes of
// DEFLATE can expand to gigabytes (a "zip bomb"), so the stream is fed in small slices
// and cancelled as soon as the output passes the ceiling, before the tab runs out of
// memory. The output's outline is checked as it arrives (json-shape.ts): it must open
// an object and never nest deeper than results do. The JSON then goes through the same
// validation as an imported file. The app runs all of this in a worker with a time
// limit (decode-client.ts), so no link can stall the page.
import type { Results } from '../../bench/results.ts';
import { JsonShapeGuard } from './json-shape.ts';
import { SHARE_PREFIX } from './links.ts';
import { MAX_RESULTS_BYTES, MAX_SHARE_PAYLOAD_CHARS } from './limits.ts';
import { parseResultsJson, type ResultsCheck } from './validate.ts';

/** The link format this code writes and reads. */
export const SHARE_FORMAT = 1;

/** Compressed bytes handed to the decompressor at a time: DEFLATE expands at most ~1032x, so ~1 MB. */
const INFLATE_SLICE_BYTES = 1024;

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function damaged(why: string): ResultsCheck {
  return { ok: false, error: `This link is truncated or damaged (${why}). Ask for the link again, or for a results file.` };
}

/** The payload of a link for `results`; throws a RangeError when they are too big for a link. */
export async function encodeSharePayload(results: Results): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(results));
  const compressed = await pipeThrough(json, new CompressionStream('deflate-raw'));
  const payload = `${SHARE_FORMAT}.${toBase64Url(compressed)}`;
  if (payload.length > MAX_SHARE_PAYLOAD_CHARS) {
    throw new RangeError(
      `These results are too large for a link (${payload.length} characters; the limit is ${MAX_SHARE_PAYLOAD_CHARS}). Save them as a file instead.`,
    );
  }
  return payload;
}

/** Reads a link payload back into checked results, or a message saying what is wrong with it. */
export async function decodeSharePayload(payload: string): Promise<ResultsCheck> {
  if (typeof payload !== 'string' || payload.trim() === '') {
    return { ok: false, error: `This link holds no results: the part after "${SHARE_PREFIX}" is empty.` };
  }
  if (payload.length > MAX_SHARE_PAYLOAD_CHARS) {
    return {
      ok: false,
      error: `This link is too long to be a BLAKE3 Lab link (${payload.length} characters; the limit is ${MAX_SHARE_PAYLOAD_CHARS}).`,
    };
  }
  const match = /^(\d{1,6})\.(.*)$/s.exec(payload);
  if (!match) return damaged(`it does not start with a link format such as "${SHARE_FORMAT}."`);
  const format = Number(match[1]);
  if (format > SHARE_FORMAT) {
    return {
      ok: false,
      error: `This link was made by a newer version of BLAKE3 Lab (link format ${format}); this one reads link format ${SHARE_FORMAT}. Open it in the newer BLAKE3 Lab.`,
    };
  }
  if (match[1] !== String(format)) return damaged(`its format "${match[1]}." has a leading zero, which no link is written with`);
  if (format !== SHARE_FORMAT) return damaged(`link format ${match[1]} does not exist`);
  const body = match[2];
  const bad = body.search(/[^A-Za-z0-9_-]/);
  if (bad !== -1) {
    return damaged(`it contains ${JSON.stringify(body[bad])} at character ${bad + 1}, which never appears in a share link`);
  }
  if (body.length === 0) return damaged('the results part is missing');
  if (body.length % 4 === 1) return damaged('its length cannot be a whole number of bytes');

  const compressed = fromBase64Url(body);
  const inflated = await inflateLimited(compressed, MAX_RESULTS_BYTES, new JsonShapeGuard());
  if (inflated === 'corrupt') return damaged('the compressed data is cut short or corrupt');
  if (typeof inflated === 'object' && 'notResults' in inflated) {
    return { ok: false, error: `This link holds no BLAKE3 Lab results: ${inflated.notResults}.` };
  }
  if (inflated === 'too-large') {
    return {
      ok: false,
      error: `This link expands to more than ${MAX_RESULTS_BYTES / (1024 * 1024)} MB, far more than any real results; it was not opened.`,
    };
  }
  // Some engines (Node's) stop at the end of the DEFLATE data and ignore what follows it.
  // Without its last byte a stream that ends exactly at the end must fail as cut short;
  // if it still inflates, bytes follow the end of the data.
  if ((await inflateLimited(compressed.subarray(0, -1), MAX_RESULTS_BYTES)) !== 'corrupt') {
    return damaged('other data follows the end of the compressed results');
  }
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    return damaged('its contents are not UTF-8 text');
  }
  const check = parseResultsJson(json);
  if (check.ok) return check;
  return { ok: false, error: `This link's results cannot be used: ${check.error}` };
}

/**
 * Inflates raw DEFLATE, reading at most `limit` bytes of output. Input goes in small
 * slices, each written only when the reader has taken the previous output (the
 * stream's backpressure), so a bomb is cancelled after at most one slice's expansion.
 * Slicing matters: Chromium inflates each written chunk in full before the reader can
 * stop it (measured: one 255 kB write of a bomb became 256 MB in memory in 0.7 s).
 */
export async function inflateLimited(
  compressed: Uint8Array<ArrayBuffer>,
  limit: number,
  guard?: JsonShapeGuard,
): Promise<Uint8Array | 'corrupt' | 'too-large' | { notResults: string }> {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  let stopped = false;
  const feeding = (async () => {
    for (let at = 0; at < compressed.length && !stopped; at += INFLATE_SLICE_BYTES) {
      await writer.write(compressed.subarray(at, at + INFLATE_SLICE_BYTES));
    }
    if (!stopped) await writer.close();
  })();
  // A failed write or close is reported again by reader.read(); this keeps it handled.
  feeding.catch(() => {});

  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        stopped = true;
        await reader.cancel().catch(() => {});
        return 'too-large';
      }
      const notResults = guard?.feed(value);
      if (notResults) {
        stopped = true;
        await reader.cancel().catch(() => {});
        return { notResults };
      }
      chunks.push(value);
    }
  } catch {
    stopped = true;
    return 'corrupt';
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export async function pipeThrough(bytes: Uint8Array, transform: CompressionStream): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  // Chunks keep String.fromCharCode's argument list well under engine limits.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Bytes of an unpadded base64url string (alphabet and length already checked). */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!BASE64URL.test(text)) throw new RangeError('not base64url');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
