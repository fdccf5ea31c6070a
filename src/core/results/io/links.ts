// Share links carry the results themselves in the URL fragment (#/share/<payload>): the
// fragment never reaches a server, so a link works from any static host and leaks
// nothing to one. The payload format belongs to share.ts; this module only places it.

export const SHARE_PREFIX = '#/share/';

/** The link a classmate opens: this page's address with the payload in the fragment. */
export function shareUrl(payload: string, location: { origin: string; pathname: string }): string {
  return `${location.origin}${location.pathname}${SHARE_PREFIX}${payload}`;
}

/**
 * The payload inside a pasted share link, or the text itself when it is a bare payload.
 * Returns null when the text cannot be one (empty, or a link without #/share/).
 */
export function payloadFromLink(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const at = trimmed.indexOf(SHARE_PREFIX);
  if (at >= 0) {
    const payload = trimmed.slice(at + SHARE_PREFIX.length);
    return payload || null;
  }
  // A bare payload has no spaces and is not some other URL.
  if (/\s/.test(trimmed) || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || trimmed.includes('#')) return null;
  return trimmed;
}
