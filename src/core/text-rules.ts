// What counts as printable text, in one place: the results validator (every text field of
// a document from outside) and the class server (nicknames on a projector) both read it.

/** C0 and C1 control characters. */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The same, less tab, line feed and carriage return: for text that may run over lines. */
export const CONTROL_IN_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Half of a UTF-16 surrogate pair, alone: no character at all. Written without lookbehind,
 * which Safari before 16.4 (and Debian's WPE WebKit 2.38) cannot parse: one such regular
 * expression anywhere in a module stops the whole app from loading there.
 */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Characters that show nothing or change how the text around them shows: format
 * characters (zero-width spaces and joiners, bidi embeddings, overrides and isolates),
 * everything Unicode calls default-ignorable (fillers, variation selectors, tags), line
 * and paragraph separators, private-use and unassigned code points. A zero-width joiner
 * inside an emoji sequence and a variation selector after a symbol are let through by
 * the callers that allow emoji: they remove EMOJI_GLUE first.
 */
export const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;

// A joiner after a pictograph (and its presentation selector) and before another, or a
// presentation selector after a pictograph or symbol; what precedes is captured and put
// back, since lookbehind does not parse in older WebKit (see LONE_SURROGATE).
const EMOJI_GLUE = /(\p{Extended_Pictographic})\uFE0F?\u200D(?=\p{Extended_Pictographic})|(\p{Extended_Pictographic}|\p{S})[\uFE0E\uFE0F]/gu;

/** The text without the joiners and presentation selectors emoji use (👩‍💻, ❤️): removed before testing INVISIBLE. */
export function withoutEmojiGlue(text: string): string {
  return text.replace(EMOJI_GLUE, '$1$2');
}

/** Characters that look like a blank space though Unicode calls them letters or symbols. */
const BLANK_LOOKING = /[\u2800\u3164\uFFA0\u115F\u1160]/gu;

/** Whether the text shows at least one letter, digit, symbol or punctuation mark. */
export function hasVisibleCharacter(text: string): boolean {
  return /[\p{L}\p{N}\p{S}\p{P}]/u.test(text.replace(BLANK_LOOKING, ''));
}

// Made on first use: making one loads the engine's break rules, which a page that never
// reads a results document (a first visit) should not wait for.
let segmenter: Intl.Segmenter | undefined;

/** The text's characters as a reader counts them (grapheme clusters: "é", "👩‍💻" and "🇫🇷" are one each), each as its UTF-16 string. */
export function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}
