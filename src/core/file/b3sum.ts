// Lines as b3sum prints them and reads them back with --check: `<64 hex digits>  <name>`.
// A name holding a backslash, a newline or a carriage return is escaped (\\, \n, \r) and
// the whole line then starts with a backslash, as b3sum 1.8 does (after md5sum); the
// Check box reads that form, and also b3sum's `--tag` form, `BLAKE3 (<name>) = <hex>`.

/** A name as it stands in a line, and whether it needed escaping. */
export function escapeName(name: string): { text: string; escaped: boolean } {
  if (!/[\\\n\r]/.test(name)) return { text: name, escaped: false };
  return { text: name.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r'), escaped: true };
}

/** The line b3sum prints for a file of this name and digest (no newline at the end). */
export function b3sumLine(hex: string, name: string): string {
  const { text, escaped } = escapeName(name);
  return `${escaped ? '\\' : ''}${hex}  ${text}`;
}

/** A line of a checksum list, read. */
export interface CheckLine {
  /** 1-based, as an editor counts. */
  line: number;
  hex: string;
  /** The name with any escapes undone. */
  name: string;
}

/** A line that is not a b3sum line, and why. */
export interface CheckProblem {
  line: number;
  text: string;
  reason: string;
}

const HEX = /^[0-9a-fA-F]{64}$/;

function unescapeName(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '\\') {
      out += text[i];
      continue;
    }
    const next = text[++i];
    if (next === 'n') out += '\n';
    else if (next === 'r') out += '\r';
    else if (next === '\\') out += '\\';
    else return undefined;
  }
  return out;
}

function readLine(raw: string): { hex: string; name: string } | string {
  const escaped = raw.startsWith('\\');
  const rest = escaped ? raw.slice(1) : raw;
  let hex: string;
  let nameText: string;
  const tagged = /^BLAKE3 \((.*)\) = ([^ ]*)$/.exec(rest);
  const gap = rest.indexOf('  ');
  if (gap >= 0 && !tagged) {
    hex = rest.slice(0, gap);
    nameText = rest.slice(gap + 2);
  } else if (tagged) {
    nameText = tagged[1];
    hex = tagged[2];
  } else {
    return 'expected 64 hex digits, two spaces and a file name, as b3sum prints them';
  }
  if (!HEX.test(hex)) return `"${hex.slice(0, 70)}" is not a BLAKE3 digest: it should be 64 hex digits`;
  const name = escaped ? unescapeName(nameText) : nameText;
  if (name === undefined) return 'the name has a backslash that is not \\\\, \\n or \\r';
  if (name === '') return 'the line names no file';
  return { hex: hex.toLowerCase(), name };
}

/** Reads pasted lines or a .b3 file: every line that parses, and every other non-blank line with its reason. */
export function parseCheckText(text: string): { lines: CheckLine[]; problems: CheckProblem[] } {
  const lines: CheckLine[] = [];
  const problems: CheckProblem[] = [];
  text.split('\n').forEach((raw, i) => {
    const trimmed = raw.replace(/\r$/, '');
    if (trimmed.trim() === '') return;
    const read = readLine(trimmed);
    if (typeof read === 'string') problems.push({ line: i + 1, text: trimmed, reason: read });
    else lines.push({ line: i + 1, ...read });
  });
  return { lines, problems };
}

/** The last part of a path: b3sum names files by the path it was given, the page by the name alone. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export type Verdict = 'match' | 'mismatch' | 'not-hashed';

/** A check line against the digests the page holds, by exact name first, then by the name alone. */
export function checkAgainst(line: CheckLine, digests: ReadonlyMap<string, string>): { verdict: Verdict; file?: string } {
  const file = digests.has(line.name) ? line.name : digests.has(baseName(line.name)) ? baseName(line.name) : undefined;
  if (file === undefined) return { verdict: 'not-hashed' };
  return { verdict: digests.get(file) === line.hex ? 'match' : 'mismatch', file };
}
