// Results as files: reading one a user picked (untrusted: size checked before reading,
// bytes checked before decoding, then the same validation as a share link) and writing
// one to download. A file is our JSON or the Go benchmark text we export, told apart by
// content, so either export can be imported again.
import type { Results } from '../../bench/results.ts';
import { benchfmtToResults, looksLikeBenchfmt, parseBenchfmt } from './benchfmt-read.ts';
import { JsonShapeGuard } from './json-shape.ts';
import { MAX_RESULTS_BYTES } from './limits.ts';
import { parseResultsJson, type ResultsCheck } from './validate.ts';

function megabytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MB`;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

/** What a file that is not UTF-8 JSON most likely is, from its first bytes. */
function recognise(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    return 'This file is saved as UTF-16 text; save it as UTF-8 (the usual JSON encoding) and import it again';
  }
  if (startsWith(bytes, [0x1f, 0x8b])) return 'This file is gzip-compressed; unpack it first, then import the .json file inside';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'This file is a zip archive; unpack it first, then import the .json file inside';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return 'This file is a PDF, not a results file (.json)';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return 'This file is a PNG image, not a results file (.json)';
  return undefined;
}

/** Reads and checks a results file the user picked or dropped. */
export async function readResultsFile(file: Blob): Promise<ResultsCheck> {
  if (file.size > MAX_RESULTS_BYTES) {
    return {
      ok: false,
      error: `This file is ${file.size} bytes, more than the limit of ${megabytes(MAX_RESULTS_BYTES)} for results files (a real run is well under 1 MB)`,
    };
  }
  if (file.size === 0) return { ok: false, error: 'This file is empty' };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (error) {
    return { ok: false, error: `This file could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
  const known = recognise(bytes);
  if (known) return { ok: false, error: known };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: 'This file is not UTF-8 text: it is binary or in another encoding, so it cannot be a results file' };
  }
  const tooDeep = new JsonShapeGuard(false).feed(bytes);
  if (tooDeep) return { ok: false, error: `This is not a BLAKE3 Lab results file: ${tooDeep}` };
  return looksLikeBenchfmt(text) ? benchfmtToResults(parseBenchfmt(text)) : parseResultsJson(text);
}

/** The results as an indented JSON file, readable in a text editor and diffable. */
export function resultsToBlob(results: Results): Blob {
  return new Blob([JSON.stringify(results, null, 2) + '\n'], { type: 'application/json' });
}

/**
 * A file name for saving: "blake3-lab-anas-laptop-2026-03-14-1509.json". The label is
 * reduced to a-z, 0-9 and dashes, since it is user text and file systems differ.
 */
export function suggestedFileName(results: Results): string {
  const slug = (results.env.label ?? '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const stamp = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/.exec(results.env.date);
  const when = stamp ? `${stamp[1]}-${stamp[2]}${stamp[3]}` : '';
  return ['blake3-lab', slug, when].filter(Boolean).join('-') + '.json';
}
