// The address of one part of a page shown in parts: `/?present&slide=tree#/` opens the
// introduction in presenter mode on its part named "tree" (deck.svelte.ts reads it; a
// part is named by `data-slide-name`). Kept apart from the deck, so the Teach page's
// plans can build links without starting presenter mode's state.

/** The query parameter naming the part the first page opens on. */
export const SLIDE_PARAM = 'slide';

/** `/?present&slide=<part><hash>`: the page at `hash` in presenter mode, opened on `part`. */
export const partHref = (hash: string, part: string): string => `/?present&${SLIDE_PARAM}=${encodeURIComponent(part)}${hash}`;
