// Presenter mode: large type, high contrast, one screen per stage, for a projector.
// It is on when the page URL has `?present`, and the toggle keeps that query in the URL
// so a reload (or a link handed to a colleague) opens in the same mode. The flag is set
// as `data-presenter` on <html> so any component's CSS can adapt to it.

class Presenter {
  on = $state(new URLSearchParams(location.search).has('present'));

  constructor() {
    $effect.root(() => {
      $effect(() => {
        document.documentElement.toggleAttribute('data-presenter', this.on);
      });
    });
  }

  toggle(): void {
    this.set(!this.on);
  }

  set(on: boolean): void {
    this.on = on;
    // Written by hand: URLSearchParams would turn the flag into "?present=".
    const params = new URLSearchParams(location.search);
    params.delete('present');
    const rest = params.toString();
    const search = on ? (rest ? `present&${rest}` : 'present') : rest;
    history.replaceState(history.state, '', `${location.pathname}${search ? '?' + search : ''}${location.hash}`);
  }
}

export const presenter = new Presenter();
