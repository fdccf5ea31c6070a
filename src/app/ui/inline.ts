// Story text marks code with `backticks`. Splitting it here (instead of rendering HTML)
// keeps every string text-only: nothing in the content can inject markup.

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
