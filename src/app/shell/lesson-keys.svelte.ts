// The lesson at a projector: the keys (keyboard.ts) step through the story and the Go
// track, switch a stage to its code and toggle presenter mode; in presenter mode the
// notes window follows the slides (and steps them), and a slide too dense for the screen
// shrinks its type until it fits. Called once by App.svelte, whose effects these are.
import { tick } from 'svelte';
import { router } from '../ui/nav/router.svelte.ts';
import { presenter } from '../ui/present/presenter.svelte.ts';
import { deck } from '../ui/present/deck.svelte.ts';
import { broadcastSlides, notesPanel } from './present/notes.svelte.ts';
import { edgeStageRoute, isStoryRoute, routeHref, stepRoute } from '../ui/nav/routes.ts';
import { installKeyboard, type KeyAction } from './keyboard.ts';
import { watchSlideFit } from './present/slide-fit.ts';

/** `main` is the page's element (the slide); `pageKey` changes when a new page is shown. */
export function driveLesson(main: () => HTMLElement, pageKey: () => string): void {
  // The Go track steps with the same keys as the story; so does any page shown in parts
  // in presenter mode (the bench), through its parts only.
  const steps = $derived(isStoryRoute(router.route) || router.route.page === 'go');

  function run(action: KeyAction) {
    if (action === 'toggle-presenter') return presenter.toggle();
    if (action === 'exit-presenter') return presenter.set(false);
    if (action === 'toggle-notes') return notesPanel.toggle();
    if (action === 'toggle-code') {
      const here = router.route;
      if (here.page === 'stage') router.go({ page: 'stage', index: here.index, view: here.view === 'code' ? 'story' : 'code' });
      if (here.page === 'go') router.go({ page: 'go', index: here.index, view: here.view === 'code' ? 'story' : 'code' });
      return;
    }
    if (!steps && action !== 'prev' && action !== 'next') return;
    if (action === 'prev' || action === 'next') {
      const direction = action === 'prev' ? -1 : 1;
      // A slide with parts shows them one by one before the next page comes.
      if (presenter.on && deck.step(direction)) return;
      const target = stepRoute(router.route, direction);
      if (target && direction === -1) deck.backOut();
      if (target) router.go(target);
      return;
    }
    router.go(edgeStageRoute(router.route, action));
  }

  $effect(() => installKeyboard(() => ({ onStory: steps || (presenter.on && deck.count > 1), presenter: presenter.on }), run));

  $effect(() => {
    if (!presenter.on) return;
    return broadcastSlides(
      () => ({ hash: routeHref(router.route), part: deck.current + 1, parts: Math.max(1, deck.count) }),
      (direction) => run(direction === -1 ? 'prev' : 'next'),
    );
  });
  let fit: ReturnType<typeof watchSlideFit> | null = null;
  $effect(() => {
    if (!presenter.on) return;
    fit = watchSlideFit(main());
    return () => {
      fit?.stop();
      fit = null;
    };
  });
  $effect(() => {
    pageKey();
    deck.current;
    tick().then(() => fit?.restart());
  });
}
