// A variant in a link: "#/playground/<stage>/share/1.<payload>", where the payload is
// the edited files as JSON, compressed with raw DEFLATE and written in base64url, like
// a results link (src/core/results/io/share.ts) and under the same limits. Only the files that
// differ from the stage go in; the rest come from the stage itself.
//
// A variant link carries code, so decoding trusts nothing: the payload's size, alphabet
// and format are checked before any work, inflating stops at a ceiling (a "zip bomb"
// is cut off, not held in memory), and the JSON must name a registered stage and only
// that stage's file names, each holding text under a size limit. Opening a link never
// runs anything: the page shows the code and waits for the learner's click.

import { STAGES, type Stage } from '../../../steps/index.ts';
import { MAX_SHARE_PAYLOAD_CHARS } from '../../core/results/io/limits.ts';
import { fromBase64Url, inflateLimited, pipeThrough, toBase64Url } from '../../core/results/io/share.ts';

export const VARIANT_FORMAT = 'blake3-lab-variant';
/** The version of the JSON inside a link; a newer one is refused with a message, not guessed at. */
export const VARIANT_VERSION = 1;
/** The link format: how the JSON is packed (as for results links). */
const LINK_FORMAT = 1;

/** Characters in one file: the largest stage file is about 60 kB. */
export const MAX_VARIANT_FILE_CHARS = 256 * 1024;
/** Bytes a variant may inflate to: all of a stage's files, rewritten, fit many times over. */
export const MAX_VARIANT_BYTES = 1024 * 1024;

export interface Variant {
  stage: Stage;
  /** Changed files only, by file name ("compress.ts"). */
  files: Record<string, string>;
}

export type VariantCheck = { ok: true; variant: Variant } | { ok: false; error: string };

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

function damaged(why: string): VariantCheck {
  return { ok: false, error: `This variant link is truncated or damaged (${why}). Ask for the link again.` };
}

/** The payload for a variant; throws a RangeError when it is too large for a link. */
export async function encodeVariant(variant: Variant): Promise<string> {
  const json = JSON.stringify({ format: VARIANT_FORMAT, version: VARIANT_VERSION, stage: variant.stage.id, files: variant.files });
  const compressed = await pipeThrough(new TextEncoder().encode(json), new CompressionStream('deflate-raw'));
  const payload = `${LINK_FORMAT}.${toBase64Url(compressed)}`;
  if (payload.length > MAX_SHARE_PAYLOAD_CHARS) {
    throw new RangeError(`This draft is too large for a link (${payload.length} characters; the limit is ${MAX_SHARE_PAYLOAD_CHARS}).`);
  }
  return payload;
}

/** Reads a link payload back into a checked variant for stage `index`, or says what is wrong. */
export async function decodeVariant(payload: string, index: number): Promise<VariantCheck> {
  if (typeof payload !== 'string' || payload.trim() === '') return { ok: false, error: 'This variant link is empty: it carries no code.' };
  if (payload.length > MAX_SHARE_PAYLOAD_CHARS) {
    return { ok: false, error: `This link is too long to be a BLAKE3 Lab link (${payload.length} characters; the limit is ${MAX_SHARE_PAYLOAD_CHARS}).` };
  }
  const match = /^(\d{1,6})\.([A-Za-z0-9_-]*)$/.exec(payload);
  if (!match) return damaged('it is not a link format number, a dot and base64url text');
  if (Number(match[1]) > LINK_FORMAT) {
    return { ok: false, error: `This link was made by a newer version of BLAKE3 Lab (link format ${match[1]}); open it there.` };
  }
  if (Number(match[1]) !== LINK_FORMAT) return damaged(`link format ${match[1]} does not exist`);
  const body = match[2];
  if (body.length === 0 || body.length % 4 === 1) return damaged('its length cannot be a whole number of bytes');
  const inflated = await inflateLimited(fromBase64Url(body), MAX_VARIANT_BYTES);
  if (inflated === 'corrupt') return damaged('the compressed data is cut short or corrupt');
  if (inflated === 'too-large') return { ok: false, error: `This link expands to more than ${MAX_VARIANT_BYTES / 1024} KiB, far more than a stage's code; it was not opened.` };
  if (!(inflated instanceof Uint8Array)) return damaged('its contents could not be read');
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflated));
  } catch {
    return damaged('its contents are not JSON text');
  }
  return checkVariant(data, index);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The shape and limits of a decoded variant. */
export function checkVariant(data: unknown, index: number): VariantCheck {
  const bad = (why: string): VariantCheck => ({ ok: false, error: `This variant link cannot be used: ${why}.` });
  if (!isRecord(data) || data.format !== VARIANT_FORMAT) return bad('it does not hold a BLAKE3 Lab variant');
  if (typeof data.version !== 'number' || !Number.isInteger(data.version) || data.version < 1) return bad('its version is not a whole number');
  if (data.version > VARIANT_VERSION) return { ok: false, error: `This variant was made by a newer version of BLAKE3 Lab (version ${data.version}); open it there.` };
  const extra = Object.keys(data).filter((key) => !['format', 'version', 'stage', 'files'].includes(key));
  if (extra.length > 0) return bad(`it has fields no variant has (${extra.slice(0, 3).join(', ').slice(0, 80)})`);
  const stage = STAGES.find((s) => s.id === data.stage);
  if (!stage) {
    const named = typeof data.stage === 'string' ? JSON.stringify(data.stage.slice(0, 40)) : `a ${typeof data.stage}`;
    return bad(`it names a stage this lab does not have (${named})`);
  }
  if (stage.index !== index) return bad(`it holds stage ${stage.index}'s code, but its address says stage ${index}`);
  if (!isRecord(data.files)) return bad('it has no files');
  const names = new Set(stage.files.map(baseName));
  const files: Record<string, string> = Object.create(null);
  const entries = Object.entries(data.files);
  if (entries.length === 0) return bad('it changes no file');
  for (const [name, text] of entries) {
    if (!names.has(name)) return bad(`stage ${stage.index} has no file ${JSON.stringify(name.slice(0, 40))}`);
    if (typeof text !== 'string') return bad(`${name} is not text`);
    if (text.length > MAX_VARIANT_FILE_CHARS) return bad(`${name} is longer than ${MAX_VARIANT_FILE_CHARS / 1024} K characters`);
    files[name] = text;
  }
  return { ok: true, variant: { stage, files: { ...files } } };
}
