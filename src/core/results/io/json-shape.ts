// A results document's outline, checked on the raw bytes before anything parses them:
// it must open an object with its first byte and never nest deeper than the format does.
// Checked as the bytes arrive (a link is checked while it inflates), so a link holding
// megabytes of `[[[[...` or `{"a":{"a":...` is refused at its first bytes instead of
// being parsed into millions of nested lists first.

/**
 * The deepest nesting a results document has: the document (1), `runs` (2), one run (3)
 * and its `nsPerOp` list (4). See src/core/bench/results.ts.
 */
export const MAX_RESULTS_DEPTH = 4;

const OPEN_OBJECT = 0x7b; // {
const OPEN_LIST = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_LIST = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Feeds bytes in order; `feed` returns why the text cannot be results, or null while it
 * still can. With `mustOpenObject` false only the depth is checked (a file may start
 * with blank space, or hold a list that the validator then names).
 */
export class JsonShapeGuard {
  constructor(private readonly mustOpenObject = true) {}

  private started = false;
  private depth = 0;
  private inString = false;
  private escaped = false;

  feed(bytes: Uint8Array): string | null {
    if (!this.started && bytes.length > 0) {
      this.started = true;
      if (this.mustOpenObject && bytes[0] !== OPEN_OBJECT) return `its contents do not start with "{", as every results document does`;
    }
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === OPEN_OBJECT || byte === OPEN_LIST) {
        if (++this.depth > MAX_RESULTS_DEPTH) {
          return `it nests lists or objects more than ${MAX_RESULTS_DEPTH} deep, deeper than any results document`;
        }
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_LIST) {
        this.depth--;
      }
    }
    return null;
  }
}
