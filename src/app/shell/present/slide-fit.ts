// A projector cannot scroll. Presenter type is sized from the screen (app.css: 28 px at
// 1920x1080), which suits most slides; a dense one (two profiles side by side, a table of
// runs) can still be taller than the screen, or a table wider than its card. This shrinks the type of that one slide, a
// step at a time, until it fits (never below FLOOR of the screen's size), and gives the
// next slide the full size again. Layout is read synchronously after each step, so the
// slide never shows half-fitted; it is fitted again when the page's size changes (a
// profile loading, a table filling in). Speaker notes shown under the slide take the
// bottom of the screen (reserveForNotes): the slide is fitted above them, never under.

const STEP = 0.05;
const FLOOR = 0.7;
/** With notes under it a slide has about two thirds of the screen, so it may shrink further. */
const NOTES_FLOOR = 0.45;
const root = () => document.documentElement;
/** Pixels at the bottom of the screen the notes cover; 0 when they are hidden. */
let notesRoom = 0;
/** The running watcher's refit, so the notes can ask for one. */
let refit: (() => void) | null = null;
/** A table wider than the card around it (a profile's long function names at large type). */
const spills = () =>
  [...document.querySelectorAll('main .card table')].some((table) => {
    const card = table.closest('.card')!;
    return table.getBoundingClientRect().right > card.getBoundingClientRect().right + 1;
  });
/** Where the slide's content ends, in the viewport: `main` less its empty padding below. */
function contentBottom(): number {
  const main = document.querySelector('main');
  if (!main) return 0;
  return main.getBoundingClientRect().bottom - parseFloat(getComputedStyle(main).paddingBottom);
}
/** Whether the slide is taller than the screen (or the room above the notes), or a table spills out of its card. */
const overflow = () => root().scrollHeight - innerHeight > 0 || (notesRoom > 0 && contentBottom() > innerHeight - notesRoom) || spills();

function setFit(fit: number): void {
  if (fit >= 1) root().style.removeProperty('--fit');
  else root().style.setProperty('--fit', fit.toFixed(2));
}

/** Sizes the current slide's type: full size if it fits the screen, else shrunk until it does; returns the scale. */
export function fitSlide(): number {
  // From full size each time, so a slide that has grown shorter (a table replaced by a line) gets its type back.
  let fit = 1;
  setFit(fit);
  const floor = notesRoom > 0 ? NOTES_FLOOR : FLOOR;
  while (overflow() && fit - STEP >= floor - 1e-9) {
    fit -= STEP;
    setFit(fit);
  }
  return fit;
}

/** Starts fitting the slides in `main`: call `restart` when a new slide shows. */
export function watchSlideFit(main: HTMLElement): { restart: () => void; stop: () => void } {
  // The size a fit left `main` at. The observer reports it next, and fitting again would
  // only repeat that fit's layouts: a slide that shrank was laid out twice over.
  let fitted = '';
  const size = () => {
    const box = main.getBoundingClientRect();
    return `${box.width}x${box.height}`;
  };
  const restart = () => {
    fitSlide();
    fitted = size();
  };
  const observer = new ResizeObserver(() => {
    if (size() !== fitted) restart();
  });
  observer.observe(main);
  addEventListener('resize', restart);
  refit = restart;
  return {
    restart,
    stop: () => {
      observer.disconnect();
      removeEventListener('resize', restart);
      if (refit === restart) refit = null;
      setFit(1);
    },
  };
}

/** The notes under the slide now cover `px` at the bottom of the screen (0: hidden); the slide is fitted above them. */
export function reserveForNotes(px: number): void {
  const room = Math.max(0, Math.ceil(px));
  if (room === notesRoom) return;
  notesRoom = room;
  refit?.();
}
