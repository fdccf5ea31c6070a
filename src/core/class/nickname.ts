// Nicknames, as the board shows them on a projector: what one may hold and when two are
// the same. The server applies these rules on joining; the join form shows the same
// message before sending. Rules of printable text come from src/core/text-rules.ts.
import { CONTROL, graphemes, hasVisibleCharacter, INVISIBLE, LONE_SURROGATE, withoutEmojiGlue } from '../text-rules.ts';

/** Characters as a reader counts them: short enough for a table cell on the projector. */
export const MAX_NICKNAME_CHARS = 40;

/** Accents stacked on one letter: enough for any language, not for text that climbs out of its row. */
const MAX_MARKS_IN_A_ROW = 3;

/**
 * UTF-16 units in one character as a reader counts it. The longest emoji sequences a
 * keyboard offers are 15 (a kiss with two skin tones); a "character" of 530 joined emoji
 * or 600 Hangul jamo counts as one cluster too, and was drawn thousands of pixels wide.
 */
export const MAX_UNITS_PER_CHARACTER = 20;

export type NicknameCheck = { ok: true; nickname: string } | { ok: false; error: string };

/**
 * A nickname as shown: NFKC (full-width and styled letters become plain ones), spaces
 * collapsed and trimmed; or why it cannot be one.
 */
export function checkNickname(value: unknown): NicknameCheck {
  if (typeof value !== 'string') return { ok: false, error: 'Choose a nickname' };
  // Bounds the work below: no nickname the rules allow is longer.
  if (value.length > MAX_UNITS_PER_CHARACTER * MAX_NICKNAME_CHARS) return { ok: false, error: `A nickname has at most ${MAX_NICKNAME_CHARS} characters, and this is far longer` };
  if (LONE_SURROGATE.test(value)) return { ok: false, error: 'A nickname cannot hold half of a character' };
  const nickname = value.normalize('NFKC').replace(/\s+/g, ' ').trim();
  if (nickname === '') return { ok: false, error: 'Choose a nickname' };
  if (CONTROL.test(nickname) || INVISIBLE.test(withoutEmojiGlue(nickname))) {
    return { ok: false, error: 'A nickname holds printable characters only (no invisible or direction-changing ones)' };
  }
  if (!hasVisibleCharacter(nickname)) return { ok: false, error: 'A nickname needs at least one letter, digit or symbol you can see' };
  if (new RegExp(`\\p{M}{${MAX_MARKS_IN_A_ROW + 1},}`, 'u').test(nickname)) {
    return { ok: false, error: `A nickname has at most ${MAX_MARKS_IN_A_ROW} accents on one letter` };
  }
  const characters = graphemes(nickname);
  if (characters.length > MAX_NICKNAME_CHARS) return { ok: false, error: `A nickname has at most ${MAX_NICKNAME_CHARS} characters` };
  if (characters.some((character) => character.length > MAX_UNITS_PER_CHARACTER)) {
    return { ok: false, error: 'A nickname cannot join that many symbols into one character' };
  }
  return { ok: true, nickname };
}

/**
 * Letters from other scripts, and digits, that look like a Latin letter on a projector.
 * Not Unicode's whole confusables list: the ones a class could type by accident or to
 * pass as a classmate (Cyrillic and Greek lookalikes, 0 for O, 1 and | for l). Capitals
 * first, since "Η" (Greek eta) looks like H and its small form like n.
 */
const CAPITAL_LOOKALIKES: Record<string, string> = {
  А: 'a', В: 'b', Е: 'e', К: 'k', М: 'm', Н: 'h', О: 'o', Р: 'p', С: 'c', Т: 't', Х: 'x', Ѕ: 's', І: 'l', Ј: 'j',
  Α: 'a', Β: 'b', Ε: 'e', Ζ: 'z', Η: 'h', Ι: 'l', Κ: 'k', Μ: 'm', Ν: 'n', Ο: 'o', Ρ: 'p', Τ: 't', Υ: 'y', Χ: 'x',
  I: 'l',
};
const SMALL_LOOKALIKES: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l',
  α: 'a', ο: 'o', ρ: 'p', ν: 'v', ι: 'i', κ: 'k', υ: 'u', χ: 'x', ω: 'w',
  ı: 'i', ɡ: 'g', '0': 'o', '1': 'l', '|': 'l',
};

/**
 * What two nicknames share when the board would show them alike: case, accents, spaces
 * and lookalike letters set aside. "Zoé", "zoe", "ZOE " and "Ζое" (Greek and Cyrillic
 * letters) are one name in a class.
 */
export function nicknameKey(nickname: string): string {
  const bare = nickname.normalize('NFKD').replace(/\p{M}/gu, '').replace(/\s+/g, '');
  let capitals = '';
  for (const char of bare) capitals += CAPITAL_LOOKALIKES[char] ?? char;
  let key = '';
  for (const char of capitals.toLowerCase()) key += SMALL_LOOKALIKES[char] ?? char;
  return key.replace(/rn/g, 'm').replace(/vv/g, 'w');
}
