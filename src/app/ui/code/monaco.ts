// Loads Monaco on first use: the editor API with its features, the TypeScript tokenizer
// (the playground adds the language service, src/app/playground/compiler.ts) and a tiny WAT
// tokenizer of our own. The other languages and their workers, several megabytes the
// reader never uses, are left out.
//
// Two languages colour TypeScript. "typescript" is the playground's: once the playground
// has started TypeScript's service, the service checks every model of that language. The
// code views show a stage's files one at a time, so they use READING_TYPESCRIPT, the same
// colours without the service; checked, a lone file would have its imports marked missing.

import type * as Monaco from 'monaco-editor/editor/editor.api';

export type MonacoApi = typeof Monaco;

/** The language of TypeScript that is only read: coloured like "typescript", never checked. */
export const READING_TYPESCRIPT = 'typescript-reading';

let loading: Promise<MonacoApi> | undefined;

export function loadMonaco(): Promise<MonacoApi> {
  loading ??= (async () => {
    // The diff is computed in a worker; written literally so Vite bundles the worker. The
    // playground adds TypeScript's language service, which runs in a worker of its own
    // (src/app/playground/compiler.ts); nothing starts it until the playground asks.
    self.MonacoEnvironment = {
      getWorker: (_id: string, label: string) =>
        label === 'typescript'
          ? new Worker(new URL('monaco-editor/language/typescript/ts.worker.js', import.meta.url), { type: 'module' })
          : new Worker(new URL('monaco-editor/editor/editor.worker.js', import.meta.url), { type: 'module' }),
    };
    // Every editor feature, imported before anything touches the editor: a feature's
    // services join Monaco only if registered before its first use, and the playground's
    // TypeScript service needs them (hovers, completion, inlay hints, outline), even when
    // the reader opened a diff first and the playground later.
    await import('monaco-editor/features/register.all');
    const monaco = await import('monaco-editor/editor/editor.api');
    await import('monaco-editor/languages/definitions/typescript/register');
    await registerReadingTypeScript(monaco);
    registerWat(monaco);
    defineThemes(monaco);
    return monaco;
  })();
  loading.catch(() => (loading = undefined)); // let a later attempt retry
  return loading;
}

/** The code views' editor: read-only, the page's monospace font, larger in presenter mode. */
export function readOnlyEditorOptions(presenterOn: boolean) {
  return {
    readOnly: true,
    automaticLayout: true,
    fontSize: presenterOn ? 18 : 13,
    fontFamily: getComputedStyle(document.documentElement).getPropertyValue('--mono'),
    minimap: { enabled: false },
    scrollBeyondLastLine: false,
    renderLineHighlight: 'none' as const,
    // At the code's first or last line the wheel scrolls the page again: a reader scrolling
    // down the code view is never stuck inside an editor that fills the window.
    scrollbar: { alwaysConsumeMouseWheel: false },
  };
}

/** How the code views show a diff: read-only, side by side (one column when narrow), unchanged runs folded. */
export const DIFF_VIEW_OPTIONS = {
  originalEditable: false,
  renderSideBySide: true,
  useInlineViewWhenSpaceIsLimited: true,
  enableSplitViewResizing: false,
  renderMarginRevertIcon: false,
  renderGutterMenu: false,
  hideUnchangedRegions: { enabled: true, contextLineCount: 3 },
} as const;

/**
 * Shows `models` in `editor` through a view model the caller disposes, after the editor
 * and before the models. Handed plain models, setModel makes a view model that nothing
 * ever disposes: it keeps diffing after the editor is gone, and fails ("no diff result
 * available") once its models are disposed while a diff is under way.
 */
export function showDiffModels(
  editor: Monaco.editor.IStandaloneDiffEditor,
  models: Monaco.editor.IDiffEditorModel,
): Monaco.editor.IDiffEditorViewModel {
  const viewModel = editor.createViewModel(models);
  editor.setModel(viewModel);
  return viewModel;
}

/** Monaco's own themes, with the page's background so the editor sits in it, not on it. */
export function themeName(dark: boolean, presenter: boolean): string {
  return `lab-${dark ? 'dark' : 'light'}${presenter ? '-presenter' : ''}`;
}

/**
 * Diff colours chosen for reading, not for glancing: a faint tint marks a changed line,
 * a stronger one the characters that changed, and every token colour keeps at least
 * 5:1 contrast (WCAG AA asks 4.5:1) on the strongest of them. Monaco's stock colours put
 * green comments on a solid green or pink line, under 3:1. The token colours replace
 * the base themes' ones, which were made for a plain background.
 */
const PALETTES = {
  light: {
    foreground: '#16191d',
    lineNumber: '#4d5560',
    tokens: { comment: '2b5e2d', keyword: '0b3a9e', string: '8c1818', number: '0a5e42', type: '17566a', regexp: '7a1d3b', variable: '5b2a86', delimiter: '16191d', constant: '8c1818', annotation: '4d5560' },
    inserted: { line: '#28a0501a', text: '#28a05038' },
    removed: { line: '#dc323214', text: '#dc32322e' },
  },
  dark: {
    foreground: '#e7eaee',
    lineNumber: '#aab3bd',
    tokens: { comment: 'a8d896', keyword: 'a8c8ff', string: 'f6c3ae', number: 'b5e3b0', type: '8fe0ee', regexp: 'f6b6cf', variable: 'dcc2ff', delimiter: 'e7eaee', constant: 'f6c3ae', annotation: 'b9c1cb' },
    inserted: { line: '#50c8781a', text: '#50c87838' },
    removed: { line: '#ff5a5a1a', text: '#ff5a5a38' },
  },
};

/** Token names whose colour the base themes set; each gets ours (sub-tokens like comment.doc follow their parent). */
const TOKEN_OVERRIDES: [token: string, colour: keyof typeof PALETTES.light.tokens][] = [
  ['comment', 'comment'],
  ['keyword', 'keyword'],
  ['keyword.flow', 'keyword'],
  ['keyword.control', 'keyword'],
  ['string', 'string'],
  ['string.escape', 'string'],
  ['number', 'number'],
  ['number.hex', 'number'],
  ['regexp', 'regexp'],
  ['type', 'type'],
  ['type.identifier', 'type'],
  ['variable', 'variable'],
  ['variable.predefined', 'variable'],
  ['constant', 'constant'],
  ['annotation', 'annotation'],
  ['delimiter', 'delimiter'],
];

function defineThemes(monaco: MonacoApi): void {
  // Kept in step with --surface in app.css (presenter: pure white and black, like the page).
  const backgrounds = { light: '#ffffff', dark: '#171b21', 'light-presenter': '#ffffff', 'dark-presenter': '#000000' };
  for (const [variant, background] of Object.entries(backgrounds)) {
    const dark = variant.startsWith('dark');
    const palette = dark ? PALETTES.dark : PALETTES.light;
    monaco.editor.defineTheme(`lab-${variant}`, {
      base: dark ? 'vs-dark' : 'vs',
      inherit: true,
      rules: TOKEN_OVERRIDES.map(([token, colour]) => ({ token, foreground: palette.tokens[colour] })),
      colors: {
        'editor.background': background,
        'editorGutter.background': background,
        'editor.foreground': palette.foreground,
        // Stock line numbers fall under 4.5:1 on the diff's gutter tints.
        'editorLineNumber.foreground': palette.lineNumber,
        'diffEditor.insertedLineBackground': palette.inserted.line,
        'diffEditor.insertedTextBackground': palette.inserted.text,
        'diffEditor.removedLineBackground': palette.removed.line,
        'diffEditor.removedTextBackground': palette.removed.text,
        'diffEditorGutter.insertedLineBackground': palette.inserted.line,
        'diffEditorGutter.removedLineBackground': palette.removed.line,
        // Bracket pairs in the text colour: the stock rainbow has no contrast to spare on a tint.
        ...Object.fromEntries(
          [1, 2, 3, 4, 5, 6].map((level) => [`editorBracketHighlight.foreground${level}`, palette.foreground]),
        ),
      },
    });
  }
}

async function registerReadingTypeScript(monaco: MonacoApi): Promise<void> {
  if (monaco.languages.getLanguages().some((language) => language.id === READING_TYPESCRIPT)) return;
  const { conf, language } = await import('monaco-editor/languages/definitions/typescript/typescript.js');
  monaco.languages.register({ id: READING_TYPESCRIPT, aliases: ['TypeScript'] });
  monaco.languages.setLanguageConfiguration(READING_TYPESCRIPT, conf);
  monaco.languages.setMonarchTokensProvider(READING_TYPESCRIPT, language);
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
