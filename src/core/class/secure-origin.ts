// Whether a student's page at an address can have everything a class measures. A browser
// gives shared memory (stage 11's threads), cross-origin isolation (the fine timer) and
// WebCrypto (the SHA-256 row) only to secure contexts: https pages, and http ones on this
// machine's own names. A class served as http://<the teacher's LAN address> has none of
// them on any student's machine. The class server says so when it starts, the teacher's
// page before class, and each student's page in one line; all three read this module.

/** The hosts a browser trusts over plain HTTP: this machine itself. */
function loopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** Whether a page at `origin` is a secure context (https, or http on a loopback name). */
export function secureOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHost(url.hostname));
}

/** What a page has of what the class needs. */
export interface PageAbilities {
  /** A secure context: https, or this machine. */
  secure: boolean;
  /** Cross-origin isolated: shared memory for threads, the fine timer. */
  isolated: boolean;
  /** crypto.subtle, which the SHA-256 row times. */
  webCrypto: boolean;
}

/** What a plain-HTTP page on a network address has: none of it. */
export const INSECURE_PAGE: PageAbilities = { secure: false, isolated: false, webCrypto: false };

/** The plan's contestants that need more than plain JavaScript and a page's abilities, by what they need. */
export interface PlanNeeds {
  /** Contestants that hash on several threads where the page is isolated (stage 11). */
  threaded: string[];
  /** Contestants that time WebCrypto (the SHA-256 row). */
  webCrypto: string[];
}

/**
 * What a class run loses on such a page, as short phrases ("stage 11 runs on one thread"),
 * naming the plan's own contestants by `titleOf`; empty when it loses nothing.
 */
export function lostOnPage(needs: PlanNeeds, page: PageAbilities, titleOf: (id: string) => string): string[] {
  const lost: string[] = [];
  if (!page.isolated) for (const id of needs.threaded) lost.push(`${titleOf(id)} runs on one thread`);
  if (!page.webCrypto) for (const id of needs.webCrypto) lost.push(`${titleOf(id)} cannot run`);
  if (!page.isolated) lost.push('the timer is coarse');
  return lost;
}

/** Why a page lacks what it lacks, in words a student can repeat to the teacher. */
export function whyLacking(page: PageAbilities): string {
  return page.secure
    ? 'this page is not cross-origin isolated'
    : 'this page came over plain HTTP from a network address, and browsers keep threads, the fine timer and WebCrypto for secure (https) pages';
}

/** "a, b and c". */
export function listed(phrases: string[]): string {
  return phrases.length <= 1 ? (phrases[0] ?? '') : `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]}`;
}
