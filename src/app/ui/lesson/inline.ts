// Story text marks code with `backticks`. Splitting it here (instead of rendering HTML)
// keeps every string text-only: nothing in the content can inject markup. The front page
// and "How we measure" also mark strong words, emphasis, keys and links (proseSegments);
// the rest of the story keeps to backticks, because its text also carries computed
// names such as Go's `(*Digest).Reset`.

export interface Segment {
  code: boolean;
  text: string;
}

export function inlineSegments(text: string): Segment[] {
  // An unmatched backtick stays literal: split gives an even number of parts then.
  const parts = text.split('`');
  if (parts.length % 2 === 0) return [{ code: false, text }];
  return parts.map((part, i) => ({ code: i % 2 === 1, text: part })).filter((segment) => segment.text !== '');
}

/** A piece of page prose: plain text, or one mark around plain words. */
export type ProseSegment = { kind: 'text' | 'code' | 'strong' | 'em' | 'kbd'; text: string } | { kind: 'link'; text: string; to: string };

/** Each mark: what opens it, what closes it, what it is. Longest opening first. */
const MARKS: [open: string, close: string, kind: 'code' | 'strong' | 'em' | 'kbd'][] = [
  ['`', '`', 'code'],
  ['**', '**', 'strong'],
  ['++', '++', 'kbd'],
  ['*', '*', 'em'],
];
// A name may carry a stage's id after a colon: `stage:05-no-copies`.
const LINK = /^\[([^[\]]+)\]\(([a-z][a-z0-9-]*(?::[a-z0-9-]+)?)\)/;

/**
 * The prose of a page (content/intro.md, content/measure.md) with the few marks it uses:
 * `code`, **strong**, *emphasis*, ++K++ for a key, and [words](name) for a link, where
 * the page turns `name` into an address (the content types no address). Marks do not
 * nest; anything unclosed, nested or HTML-looking is refused, so a typo fails the tests
 * instead of showing stars on a page. Like `inlineSegments`, it gives text, never HTML.
 */
export function proseSegments(text: string): ProseSegment[] {
  const out: ProseSegment[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const mark = MARKS.find(([open]) => rest.startsWith(open));
    if (mark) {
      const [open, close, kind] = mark;
      const end = text.indexOf(close, at + open.length);
      if (end < 0) throw new SyntaxError(`"${open}" opens a mark that nothing closes: ${rest}`);
      const inner = text.slice(at + open.length, end);
      if (inner.trim() === '') throw new SyntaxError(`an empty "${open}${close}" mark: ${rest}`);
      if (kind !== 'code' && /[`*[\]]|\+\+/.test(inner)) throw new SyntaxError(`marks do not nest: ${open}${inner}${close}`);
      flush();
      out.push({ kind, text: inner });
      at = end + close.length;
    } else if (rest.startsWith('[')) {
      const link = LINK.exec(rest);
      if (!link) throw new SyntaxError(`a link is [words](name), a page's name for an address: ${rest}`);
      flush();
      out.push({ kind: 'link', text: link[1], to: link[2] });
      at += link[0].length;
    } else if (/^<\/?[a-z]/i.test(rest)) {
      throw new SyntaxError(`content holds no HTML (a key is ++K++, code is in backticks): ${rest}`);
    } else {
      plain += text[at];
      at += 1;
    }
  }
  flush();
  return out;
}
