// What counts as printable text, in one place: the results validator (every text field of
// a document from outside) and the class server (nicknames on a projector) both read it.

/** C0 and C1 control characters. */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The same, less tab, line feed and carriage return: for text that may run over lines. */
export const CONTROL_IN_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Half of a UTF-16 surrogate pair, alone: no character at all. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Characters that show nothing or change how the text around them shows: format
 * characters (zero-width spaces and joiners, bidi embeddings, overrides and isolates),
 * everything Unicode calls default-ignorable (fillers, variation selectors, tags), line
 * and paragraph separators, private-use and unassigned code points. A zero-width joiner
 * inside an emoji sequence and a variation selector after a symbol are let through by
 * the callers that allow emoji: they remove EMOJI_GLUE first.
 */
export const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;

/** Joiners and presentation selectors as emoji use them: 👩‍💻, ❤️. Removed before testing INVISIBLE. */
export const EMOJI_GLUE = /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})|(?<=\p{Extended_Pictographic}|\p{S})[\uFE0E\uFE0F]/gu;

/** Characters that look like a blank space though Unicode calls them letters or symbols. */
const BLANK_LOOKING = /[\u2800\u3164\uFFA0\u115F\u1160]/gu;

/** Whether the text shows at least one letter, digit, symbol or punctuation mark. */
export function hasVisibleCharacter(text: string): boolean {
  return /[\p{L}\p{N}\p{S}\p{P}]/u.test(text.replace(BLANK_LOOKING, ''));
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Characters as a reader counts them (grapheme clusters): "é", "👩‍💻" and "🇫🇷" are one each. */
export function graphemeCount(text: string): number {
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
}
