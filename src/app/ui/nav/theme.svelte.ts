// Light or dark. By default the app follows the system (prefers-color-scheme); a reader
// may pin one, which is remembered on this device. CSS does the colouring from
// `data-theme` on <html>; `theme.dark` is for widgets that paint themselves (Monaco).

export type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'blake3-lab:theme';

function storedChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system'; // storage can be disabled; the system preference still works
  }
}

class Theme {
  choice = $state<ThemeChoice>(storedChoice());
  #systemDark = $state(false);
  dark = $derived(this.choice === 'dark' || (this.choice === 'system' && this.#systemDark));

  constructor() {
    const query = matchMedia('(prefers-color-scheme: dark)');
    this.#systemDark = query.matches;
    query.addEventListener('change', (event) => (this.#systemDark = event.matches));
    $effect.root(() => {
      $effect(() => {
        const root = document.documentElement;
        if (this.choice === 'system') root.removeAttribute('data-theme');
        else root.setAttribute('data-theme', this.choice);
      });
    });
  }

  /** system -> light -> dark -> system: one button cycles through the three. */
  cycle(): void {
    const next: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
    this.choice = next[this.choice];
    try {
      if (this.choice === 'system') localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, this.choice);
    } catch {
      // not remembered, still applied
    }
  }
}

export const theme = new Theme();
