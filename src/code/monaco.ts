// Loads Monaco on first use and only the parts the code view needs: the editor API,
// its icon font, diff navigation and find, the TypeScript tokenizer (colouring only, no
// language service) and a tiny WAT tokenizer of our own. The whole editor bundle, with its dozens of languages and
// language workers, would be several megabytes the reader never uses.

import type * as Monaco from 'monaco-editor/editor/editor.api';

export type MonacoApi = typeof Monaco;

let loading: Promise<MonacoApi> | undefined;

export function loadMonaco(): Promise<MonacoApi> {
  loading ??= (async () => {
    // The diff is computed in a worker; written literally so Vite bundles the worker.
    self.MonacoEnvironment = {
      getWorker: () =>
        new Worker(new URL('monaco-editor/editor/editor.worker.js', import.meta.url), { type: 'module' }),
    };
    const monaco = await import('monaco-editor/editor/editor.api');
    await Promise.all([
      import('monaco-editor/languages/definitions/typescript/register'),
      import('monaco-editor/features/codicon/register'), // the icon font ("N hidden lines" etc.)
      import('monaco-editor/features/diffEditor/register'), // diff navigation, accessible diff viewer
      import('monaco-editor/features/find/register'), // Ctrl+F inside the code
    ]);
    registerWat(monaco);
    defineThemes(monaco);
    return monaco;
  })();
  loading.catch(() => (loading = undefined)); // let a later attempt retry
  return loading;
}

/** Monaco's own themes, with the page's background so the editor sits in it, not on it. */
export function themeName(dark: boolean, presenter: boolean): string {
  return `lab-${dark ? 'dark' : 'light'}${presenter ? '-presenter' : ''}`;
}

function defineThemes(monaco: MonacoApi): void {
  // Kept in step with --surface in app.css (presenter: pure white and black, like the page).
  const backgrounds = { light: '#ffffff', dark: '#171b21', 'light-presenter': '#ffffff', 'dark-presenter': '#000000' };
  for (const [variant, background] of Object.entries(backgrounds)) {
    monaco.editor.defineTheme(`lab-${variant}`, {
      base: variant.startsWith('dark') ? 'vs-dark' : 'vs',
      inherit: true,
      rules: [],
      colors: { 'editor.background': background, 'editorGutter.background': background },
    });
  }
}

// WAT, WebAssembly's text format: S-expressions of instructions like `i32x4.add`,
// `$names`, numbers and `;;` comments. Enough to tell those apart on screen.
function registerWat(monaco: MonacoApi): void {
  if (monaco.languages.getLanguages().some((language) => language.id === 'wat')) return;
  monaco.languages.register({ id: 'wat', extensions: ['.wat'], aliases: ['WebAssembly text'] });
  monaco.languages.setLanguageConfiguration('wat', {
    comments: { lineComment: ';;', blockComment: ['(;', ';)'] },
    brackets: [['(', ')']],
  });
  monaco.languages.setMonarchTokensProvider('wat', {
    keywords: ['module', 'type', 'func', 'param', 'result', 'local', 'import', 'export', 'memory', 'data', 'global', 'table', 'offset', 'align'],
    tokenizer: {
      root: [
        [/;;.*$/, 'comment'],
        [/\(;/, 'comment', '@comment'],
        [/"[^"]*"/, 'string'],
        [/\$[\w.$]+/, 'variable'],
        [/[a-z][a-z0-9]*\.[a-z0-9_.]+/, 'keyword'], // instructions: local.get, i32x4.add
        [/(i32|i64|f32|f64|v128|funcref|externref)\b/, 'type'],
        [/[a-z_]+/, { cases: { '@keywords': 'keyword.control', '@default': 'identifier' } }],
        [/-?0x[0-9a-fA-F_]+/, 'number.hex'],
        [/-?\d[\d_]*/, 'number'],
        [/[()]/, '@brackets'],
        [/\s+/, 'white'],
        [/./, 'delimiter'],
      ],
      comment: [
        [/;\)/, 'comment', '@pop'],
        [/[^;]+|;/, 'comment'],
      ],
    },
  });
}
