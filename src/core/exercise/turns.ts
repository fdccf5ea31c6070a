// The wrong turns the exercises' Markdown describes (content/stages/<id>.md, each
// `## Wrong turn: <words> {#turn-<id>}`), each found by a detector that reads the draft's
// files as text: nothing of the draft runs. A detector compares the draft with the
// starting point (stage N-1 as shipped) and the reference (stage N), so the reference
// never takes a turn and a construct the starting point already has is only blamed on a
// draft that kept it while changing what is around it. Comments are stripped first, so a
// comment that names a construct is not taken for it. Pure: the exercise page runs the
// detectors on the draft after each attempt, and tests/exercise-turns.test.ts runs them
// on drafts made from the stages' own sources.
import type { ExerciseTurn } from '../content/exercise.ts';
import type { ExerciseVerdict } from './goal.ts';

/** A stage's or a draft's files: base name to source text. */
export type Files = Readonly<Record<string, string>>;

export interface TurnInput {
  draft: Files;
  /** The starting point: stage N-1's files as shipped, with any the exercise gives. */
  start: Files;
  /** Stage N's files as shipped. */
  reference: Files;
  /** The attempt's verdict, or null when nothing was timed. */
  verdict: ExerciseVerdict | null;
}

export type Detector = (input: TurnInput) => boolean;

// ---- Reading TypeScript as text ----------------------------------------------------

// A `/` starts a regular expression, not a division, after one of these (or at the start).
const BEFORE_REGEXP = /[(,=:[!&|?{};]\s*$/;

// The index just past the string, template, regular expression or comment that starts at
// `i`, or `i` itself when code starts there: brackets inside those are not code.
function pastLiteral(source: string, i: number): number {
  const c = source[i];
  if (c === '/' && source[i + 1] === '/') {
    const end = source.indexOf('\n', i);
    return end < 0 ? source.length : end;
  }
  if (c === '/' && source[i + 1] === '*') {
    const end = source.indexOf('*/', i + 2);
    return end < 0 ? source.length : end + 2;
  }
  if (c === "'" || c === '"') return pastQuoted(source, i, c);
  if (c === '`') return pastTemplate(source, i);
  if (c === '/' && BEFORE_REGEXP.test(source.slice(Math.max(0, i - 40), i) || ';')) return pastQuoted(source, i, '/');
  return i;
}

function pastQuoted(source: string, i: number, quote: string): number {
  let inClass = false; // a regular expression's [...] may hold its quote
  for (let j = i + 1; j < source.length; j++) {
    const c = source[j];
    if (c === '\\') j++;
    else if (c === '\n') return j;
    else if (quote === '/' && c === '[') inClass = true;
    else if (quote === '/' && c === ']') inClass = false;
    else if (c === quote && !inClass) return j + 1;
  }
  return source.length;
}

function pastTemplate(source: string, i: number): number {
  for (let j = i + 1; j < source.length; j++) {
    if (source[j] === '\\') j++;
    else if (source[j] === '$' && source[j + 1] === '{') j = closing(source, j + 1);
    else if (source[j] === '`') return j + 1;
  }
  return source.length;
}

/** The index of the bracket that closes the one at `open`. */
function closing(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; ) {
    const past = pastLiteral(source, i);
    if (past !== i) {
      i = past;
      continue;
    }
    const c = source[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && --depth === 0) return i;
    i++;
  }
  return source.length;
}

/** `source` without its comments; strings, templates and regular expressions are kept as they are. */
function stripComments(source: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < source.length; ) {
    const past = pastLiteral(source, i);
    if (past === i) {
      i++;
      continue;
    }
    if (source[i] === '/' && (source[i + 1] === '/' || source[i + 1] === '*')) {
      parts.push(source.slice(from, i), ' ');
      from = past;
    }
    i = past;
  }
  parts.push(source.slice(from));
  return parts.join('');
}

// The index of the `;` (or end of line, or closing bracket) that ends the statement or
// expression starting at `from`, brackets and literals skipped.
function statementEnd(code: string, from: number): number {
  for (let i = from; i < code.length; ) {
    const past = pastLiteral(code, i);
    if (past !== i) i = past;
    else if ('([{'.includes(code[i])) i = closing(code, i) + 1;
    else if (';\n)]}'.includes(code[i])) return i;
    else i++;
  }
  return code.length;
}

/** The block or statement that starts at `from` (after any spaces): a `{...}` block's inside, or the statement; and where it ends. */
function bodyAt(code: string, from: number): { body: string; end: number } {
  let start = from;
  while (/\s/.test(code[start] ?? '')) start++;
  if (code[start] !== '{') {
    const end = statementEnd(code, start);
    return { body: code.slice(start, end), end };
  }
  const close = closing(code, start);
  return { body: code.slice(start + 1, close), end: close + 1 };
}

/** Code as text, with the body of every function it defines by name (a name's first definition). */
interface Code {
  text: string;
  functions: ReadonlyMap<string, string>;
}

// A function's head: a declaration, or a const or let that may hold an arrow function.
const FUNCTION_HEAD = /\bfunction\s+([\w$]+)\s*(?:<[^>(]*>)?\(|\b(?:const|let)\s+([\w$]+)\s*=\s*(?:async\s*)?\(/g;
// After the parameters: a return type, then the block, or for an arrow, `=>` and its block or expression.
const AFTER_PARAMETERS = /\s*(?::[^{;]*?)?(?:=>\s*)?(?=\{)|\s*(?::[^;=]*)?=>/y;

function parse(text: string): Code {
  const functions = new Map<string, string>();
  for (const head of text.matchAll(FUNCTION_HEAD)) {
    const name = head[1] ?? head[2];
    if (functions.has(name)) continue;
    const afterParameters = closing(text, head.index + head[0].length - 1) + 1;
    AFTER_PARAMETERS.lastIndex = afterParameters;
    const rest = AFTER_PARAMETERS.exec(text);
    // A const whose parentheses are not an arrow function's holds something else.
    if (rest && (head[1] !== undefined || rest[0].includes('=>'))) functions.set(name, bodyAt(text, afterParameters + rest[0].length).body);
  }
  return { text, functions };
}

/** The names of the functions `code` defines that `text` calls, in the order of their first call. */
function calls(code: Code, text: string): string[] {
  const names = [...text.matchAll(/(?<![.\w$])([\w$]+)\s*!?\s*\(/g)].map((m) => m[1]);
  return [...new Set(names)].filter((name) => code.functions.has(name));
}

/** `roots` and every function of `code` they call, directly or through others. */
function reachable(code: Code, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    const body = code.functions.get(name);
    if (body === undefined || seen.has(name)) return;
    seen.add(name);
    for (const callee of calls(code, body)) visit(callee);
  };
  roots.forEach(visit);
  return seen;
}

const bodiesOf = (code: Code, names: Iterable<string>) => [...names].map((name) => code.functions.get(name) ?? '').join('\n');

interface Loop {
  /** What is between the parentheses of `for (...)` or `while (...)`. */
  header: string;
  body: string;
  /** The whole loop, keyword to end. */
  text: string;
}

/** The outermost `for` and `while` loops in `text`, in order. */
function loops(text: string): Loop[] {
  const found: Loop[] = [];
  const keyword = /\b(?:for|while)\s*\(/g;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    const open = match.index + match[0].length - 1;
    const close = closing(text, open);
    const { body, end } = bodyAt(text, close + 1);
    found.push({ header: text.slice(open + 1, close), body, text: text.slice(match.index, end) });
    keyword.lastIndex = end;
  }
  return found;
}

/** Every loop in `text`, nested ones too. */
const everyLoop = (text: string): Loop[] => loops(text).flatMap((loop) => [loop, ...everyLoop(loop.body)]);

/** A loop's own header and statements, without the loops nested in it. */
const ownText = (loop: Loop) => loops(loop.body).reduce((own, inner) => own.replace(inner.text, ''), `${loop.header}\n${loop.body}`);

/** `text` outside every brace: what runs once, when the module loads. */
function topLevel(text: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; ) {
    const past = pastLiteral(text, i);
    if (past !== i) i = past;
    else if (text[i] === '{') {
      parts.push(text.slice(from, i));
      from = i = closing(text, i) + 1;
    } else i++;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

const IMPORT = /\bfrom\s+['"]\.\/([\w.-]+)['"]|\bimport\(\s*['"]\.\/([\w.-]+)['"]/g;

// Each file set is read once however many detectors ask: the page's and the tests' sets are fresh objects per attempt.
const parsed = new WeakMap<Files, Code>();

/** What runs of `files`: the entry, blake3.ts, and what it imports from its own folder (a generator does not run), comments stripped. */
function runtimeCode(files: Files): Code {
  const known = parsed.get(files);
  if (known) return known;
  const sources = new Map<string, string>();
  const visit = (name: string) => {
    if (sources.has(name) || files[name] === undefined) return;
    const text = stripComments(files[name]);
    sources.set(name, text);
    for (const match of text.matchAll(IMPORT)) visit(match[1] ?? match[2]);
  };
  visit('blake3.ts');
  const code = parse([...sources.values()].join('\n'));
  parsed.set(files, code);
  return code;
}

/** What runs while hashing: every function hash() reaches. */
const hashing = (code: Code) => bodiesOf(code, reachable(code, ['hash']));

/**
 * What runs for every block or chunk: the loops of the functions hash() reaches, and all
 * of every function called from one of those loops.
 */
function perBlock(code: Code): string {
  const perCall = reachable(code, ['hash']);
  const loopsOf = (name: string) => loops(code.functions.get(name)!);
  const called = reachable(code, [...perCall].flatMap((name) => loopsOf(name).flatMap((loop) => calls(code, loop.text))));
  const outerLoops = [...perCall].filter((name) => !called.has(name)).flatMap((name) => loopsOf(name).map((loop) => loop.text));
  return [...outerLoops, bodiesOf(code, called)].join('\n');
}

/** compress() and what it calls: the work of one block. */
const compression = (code: Code) => bodiesOf(code, reachable(code, ['compress']));

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** The draft's `part` of its code holds more of `pattern` (global) than the reference's: a construct the article's change does without. */
function moreThanReference({ draft, reference }: TurnInput, part: (code: Code) => string, pattern: RegExp): boolean {
  return count(part(runtimeCode(draft)), pattern) > count(part(runtimeCode(reference)), pattern);
}

const sameFiles = (a: Files, b: Files) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((name) => a[name] === b[name]);

// ---- What the detectors look for ---------------------------------------------------

/** A position compared with a length: `i < bytes.length`, `bytes.length > i`. */
const COMPARES_LENGTH = /(?<!=)[<>]=?\s*[\w$.]+\.length\b|\.length\s*[<>]/;
/** A write into an array element: `state[a] = ...`, `x[i] ^= ...`, `m[order[i]] += ...`. */
const WRITES_ELEMENT = /[\w$]\s*\[(?:[^[\]\n]|\[[^[\]\n]*\])+\]\s*(?:>>>|>>|<<|[-+*/%^|&])?=(?![=>])/;
/** A variable declared to be assigned again, outside a loop's header. */
const LOCAL = /(?<!for\s*\(\s*)\b(?:let|var)\s+[\w$]+\s*=/;
/** An array made: a constructor, a copy, a map, or a literal. */
const ARRAY_MADE = /\bnew\s+[\w$]*Array\s*\(|\bArray\.(?:from|of)\(|\.(?:slice|map|concat)\(|(?:[=(,]|\breturn)\s*\[/g;
/** A call of the module's four-way function. */
const CALLS_MODULE = /\bcompress4x\s*!?\s*\(/;
/** A loop step of one chunk: `++`, `+= 1`, `+= CHUNK_LEN`. */
const ONE_CHUNK_STEP = /\+\+|\+=\s*(?:1|CHUNK_LEN)\b(?!\s*\*)/;
/**
 * More of the module's page copied than one hash needs: a whole chunk zeroed, the page
 * filled to its end, a chunk-sized buffer to pad the input in, or a block's 64 bytes read
 * back where the digest is 32.
 */
const WIDE_COPY = /\.fill\([^;]*\bCHUNK_LEN\b|\b(?:simdBytes|simdWords)\.fill\(\s*[^,()]*\)|\bnew\s+Uint8Array\(\s*CHUNK_LEN\s*\)|\.slice\([^;]*\b(?:BLOCK_LEN|64)\s*\)/g;
/** Words in a stack with room for any input: BLAKE3 takes up to 2^64 bytes, 2^54 chunks, so 54 waiting entries and the slot of the chunk being hashed. */
const DEEPEST_STACK_WORDS = 8 * 55;

/** The reader chunkChainingValue() calls for every full block: the first function its block loop calls, compress() aside. */
function fullBlockReader(code: Code): string | undefined {
  const loop = loops(code.functions.get('chunkChainingValue') ?? '')[0];
  return loop && calls(code, loop.text).find((name) => name !== 'compress');
}

/** The stack a call of hash() makes for itself: its typed array whose size depends on the input. */
function perCallStack(code: Code): string | undefined {
  const declarations = hashing(code).matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*new\s+Uint32Array\(([^;]*)\)\s*;/g);
  return [...declarations].find((m) => !/^\s*\d+\s*$/.test(m[2]))?.[1];
}

/** The words a size such as `8 * 16` holds, or null when it is not made of numbers alone. */
function constantWords(size: string): number | null {
  return /^\s*\d+(?:\s*\*\s*\d+)*\s*$/.test(size) ? size.split('*').reduce((product, factor) => product * Number(factor), 1) : null;
}

const spaced = (text: string) => text.replace(/\s+/g, ' ');

/** Every turn authored in content/stages/*.md, by id; tests/exercise-turns.test.ts holds the two lists to each other. */
export const DETECTORS: Readonly<Record<string, Detector>> = {
  // Exercise 1: the new full-block reader still compares positions with the input's length.
  'bounds-kept': ({ draft, start }) => {
    const code = runtimeCode(draft);
    const reader = fullBlockReader(code);
    return reader !== undefined && reader !== fullBlockReader(runtimeCode(start)) && COMPARES_LENGTH.test(code.functions.get(reader)!);
  },

  // Exercise 2: a function that runs while hashing, changed from the starting point, reads
  // the permutation: the access order is worked out per call or per block.
  'table-per-block': ({ draft, start }) => {
    const code = runtimeCode(draft);
    const before = runtimeCode(start).functions;
    return [...reachable(code, ['hash'])].some((name) => {
      const body = code.functions.get(name)!;
      return body !== before.get(name) && /\bMSG_PERMUTATION\b/.test(body);
    });
  },

  // Exercise 3: compress() reaches g() through a function in between.
  'round-called': ({ draft }) => {
    const code = runtimeCode(draft);
    return [...reachable(code, ['compress'])].some((name) => name !== 'compress' && name !== 'g' && calls(code, code.functions.get(name)!).includes('g'));
  },

  // Exercise 4: compress() has locals, yet its round loop (or what the loop calls) still
  // writes array elements.
  'array-kept': ({ draft }) => {
    const code = runtimeCode(draft);
    const body = code.functions.get('compress');
    if (body === undefined || !LOCAL.test(body)) return false;
    return loops(body).some((loop) => WRITES_ELEMENT.test(loop.text) || WRITES_ELEMENT.test(bodiesOf(code, reachable(code, calls(code, loop.text)))));
  },

  // Exercise 5: more `.subarray(` views, or `.slice(` copies, per block than the reference makes.
  subarray: (input) => moreThanReference(input, perBlock, /\.subarray\(/g),
  'slice-kept': (input) => moreThanReference(input, perBlock, /\.slice\(/g),

  // Exercise 6: compress() makes an array, which the reference's permutation by locals never does.
  'temp-array': (input) => moreThanReference(input, compression, ARRAY_MADE),

  // Exercise 7: the stack the starting point made on every call now lives at module level,
  // with a size of its own that no call replaces and that cannot hold the deepest tree.
  'stack-fixed': ({ draft, start }) => {
    const stack = perCallStack(runtimeCode(start));
    if (stack === undefined) return false;
    const code = runtimeCode(draft);
    const shared = new RegExp(`\\b(?:const|let|var)\\s+${stack}\\s*(?::[^=]+)?=\\s*new\\s+Uint32Array\\(([^;]*)\\)\\s*;`).exec(topLevel(code.text));
    if (!shared) return false;
    const replaced = count(code.text, new RegExp(`\\b${stack}\\s*=\\s*new\\b`, 'g')) > 1;
    return !replaced && !((constantWords(shared[1]) ?? 0) >= DEEPEST_STACK_WORDS);
  },

  // Exercise 7: no size tells the draft from stage 6: the verdict itself is the turn.
  noise: ({ verdict }) => verdict !== null && verdict.sizes.every((s) => !s.draft.significant),

  // Exercise 8: a Uint32Array view of a buffer, and no test of the byte offset anywhere.
  unaligned: ({ draft }) => {
    const { text } = runtimeCode(draft);
    return /\bnew\s+Uint32Array\(\s*[\w$.]+\.buffer\b/.test(text) && !/\.byteOffset\s*(?:%\s*4|&\s*3)\b/.test(text);
  },

  // Exercise 8: more typed arrays made per block than the reference's none.
  'view-per-block': (input) => moreThanReference(input, perBlock, /\bnew\s+Uint32Array\(/g),

  // Exercise 9: the draft calls the module, grows the stack by more than one entry at a
  // time, and still sizes it by the starting point's formula (stage 8's names, which a
  // draft made from it keeps: stackWordsNeeded, and cvStackLen in words).
  'stack-room': ({ draft, start }) => {
    const { text } = runtimeCode(draft);
    const sizing = /\bstackWordsNeeded\s*=[^;]+;/.exec(runtimeCode(start).text)?.[0];
    const grows = [...text.matchAll(/\bcvStackLen\s*\+=\s*([^;]+);/g)].some((m) => m[1].trim() !== '8');
    return CALLS_MODULE.test(text) && grows && sizing !== undefined && spaced(text).includes(spaced(sizing));
  },

  // Exercise 9: a loop that calls the module itself steps one chunk at a time.
  'one-at-a-time': ({ draft }) =>
    everyLoop(runtimeCode(draft).text).some((loop) => {
      const own = ownText(loop);
      return CALLS_MODULE.test(own) && ONE_CHUNK_STEP.test(own);
    }),

  // Exercise 10: more wide copies in and out of the module's page while hashing than the reference makes.
  'copy-all': (input) => moreThanReference(input, hashing, WIDE_COPY),

  // Exercise 11: a piece's size is the input's divided up, not rounded to a power of two.
  'uneven-pieces': ({ draft }) =>
    [...runtimeCode(draft).text.matchAll(/\bpiece(?:Chunks|Bytes)\s*=(?![=>])([^;]*)/g)].some(
      ([, size]) => /\b(?:wholeChunks|length)\b[^;]*\//.test(size) && !/\bclz32\b|\blog2\b|\*\*|<</.test(size),
    ),
};

/** The exercise's authored turns that the draft takes. A draft still equal to the starting point takes none: nothing was tried yet. */
export function takenTurns(turns: readonly ExerciseTurn[], input: TurnInput): ExerciseTurn[] {
  if (sameFiles(input.draft, input.start)) return [];
  return turns.filter((turn) => DETECTORS[turn.id]?.(input) === true);
}
