// Slides within a page, for presenter mode. A projector cannot scroll, so a long page
// (the introduction, "How we measure") marks its parts with the `slide` attachment;
// in presenter mode only the current part shows, and the arrow keys and the stepper
// walk through the parts before they move to the next page. Outside presenter mode
// every part shows and the page reads as one. A part may have a name
// (`data-slide-name="tree"`), and an address may open on it (slide-address.ts), so a
// plan can link every part it names.

import { untrack } from 'svelte';
import type { Attachment } from 'svelte/attachments';

import { SLIDE_PARAM } from './slide-address.ts';

const SHOWN = 'data-slide-shown';

class Deck {
  /** The current page's parts, in document order. */
  parts = $state.raw<HTMLElement[]>([]);
  #index = $state(0);
  /** Arrived by stepping back: show the page's last part, however many register. */
  #fromEnd = $state(false);
  #backing = false;
  /** Whether no page has been entered yet: the first one opens on the part the address names. */
  #first = true;
  /** The named part the page shows until the reader steps: found by name, as parts register in any order. */
  #wanted = $state<string | null>(null);

  constructor() {
    $effect.root(() => {
      $effect(() => {
        const shown = this.parts[this.current];
        for (const part of this.parts) part.toggleAttribute(SHOWN, part === shown);
      });
    });
  }

  get count(): number {
    return this.parts.length;
  }

  /** Position of the part on screen, 0-based. */
  get current(): number {
    const named = this.#wanted === null ? -1 : this.parts.findIndex((part) => part.dataset.slideName === this.#wanted);
    if (named >= 0) return named;
    const last = Math.max(0, this.parts.length - 1);
    return this.#fromEnd ? last : Math.min(this.#index, last);
  }

  /** Moves one part back or on; false when there is none that way (the page itself should change). */
  step(direction: -1 | 1): boolean {
    const next = this.current + direction;
    if (next < 0 || next >= this.parts.length) return false;
    this.#index = next;
    this.#fromEnd = false;
    this.#forget();
    return true;
  }

  /** The reader is stepping back to the page before: it will open on its last part. */
  backOut(): void {
    this.#backing = true;
  }

  /** A new page is on screen: show its first part, or its last after backOut(). */
  enter(): void {
    this.#index = 0;
    this.#fromEnd = this.#backing;
    this.#backing = false;
    // Untracked: the page's effect that calls this must not re-run when the named part is left.
    untrack(() => this.#forget());
    if (this.#first) this.#wanted = new URLSearchParams(location.search).get(SLIDE_PARAM);
    this.#first = false;
  }

  /** The named part is left: the address stops naming it, so a reload shows where the reader is no more. */
  #forget(): void {
    if (this.#wanted === null) return;
    this.#wanted = null;
    const params = new URLSearchParams(location.search);
    params.delete(SLIDE_PARAM);
    // By hand, as presenter.svelte.ts does: URLSearchParams would write "?present=".
    const search = params.toString().replace(/=(&|$)/g, '$1');
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
  }

  /** Registers an element as one part; used as `<section {@attach slide}>`. */
  slide: Attachment<HTMLElement> = (element) => {
    element.setAttribute('data-slide', '');
    // Untracked: the attachment must not re-run (and re-register) when the list changes.
    untrack(() => {
      this.parts = [...this.parts, element].sort((a, b) =>
        a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
      );
    });
    return () => {
      untrack(() => (this.parts = this.parts.filter((part) => part !== element)));
    };
  };
}

export const deck = new Deck();
export const slide = deck.slide;
